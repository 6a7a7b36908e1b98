// `t()` on a tensor with three axes.
use axial::prelude::*;
axes!(A, B, C);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3, C: 4]>::zeros();
    let _ = x.t();
}
