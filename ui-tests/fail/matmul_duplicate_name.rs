// The product of `matmul` would name an axis twice.
use axial::prelude::*;
axes!(Rows, Inner);

fn main() {
    let a = Tensor::<f32, shape![Rows: 2, Inner: 3]>::zeros();
    let b = Tensor::<f32, shape![Inner: 3, Rows: 2]>::zeros();
    let _ = a.matmul(&b);
}
