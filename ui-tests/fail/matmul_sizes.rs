// `matmul` contracts axes of one size.
use axial::prelude::*;
axes!(Rows, Inner, Cols);

fn main() {
    let a = Tensor::<f32, shape![Rows: 2, Inner: 3]>::zeros();
    let b = Tensor::<f32, shape![Inner: 4, Cols: 5]>::zeros();
    let _ = a.matmul(&b);
}
