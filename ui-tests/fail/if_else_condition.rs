// The condition of `if_else` (PyTorch's `where`) is a bool tensor.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::zeros();
    let _ = x.if_else(&x, 0.0);
}
