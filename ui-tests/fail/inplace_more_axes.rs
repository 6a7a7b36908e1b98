// In place, the operand cannot add axes to self.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let mut a = Tensor::<f32, shape![Cols: 4]>::zeros();
    let b = Tensor::<f32, shape![Rows: 3, Cols: 4]>::zeros();
    a.mul_(&b);
}
