// `sqrt_()` on an integer tensor: not there (PyTorch computes it in a float dtype; cast first).
use axial::prelude::*;
axes!(Rows);

fn main() {
    let mut x = Tensor::<i64, shape![Rows: 3]>::arange();
    x.sqrt_();
}
