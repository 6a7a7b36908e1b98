// Broadcasting pairs axes from the right: 4 and 5 are neither equal nor 1.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let a = Tensor::<f32, shape![Rows: 3, Cols: 4]>::zeros();
    let b = Tensor::<f32, shape![Cols: 5]>::zeros();
    let _ = &a + &b;
}
