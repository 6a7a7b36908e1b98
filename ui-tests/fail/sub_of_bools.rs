// Subtraction of bool tensors (PyTorch refuses it too).
use axial::prelude::*;
axes!(Rows);

fn main() {
    let a = Tensor::<Bool, shape![Rows: 3]>::zeros();
    let _ = a.sub(&a);
}
