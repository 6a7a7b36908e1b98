// In place, the broadcast result must be self's shape: Cols would grow to 4.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let mut a = Tensor::<f32, shape![Rows: 3, Cols: 1]>::zeros();
    let b = Tensor::<f32, shape![Rows: 3, Cols: 4]>::zeros();
    a.add_(&b);
}
