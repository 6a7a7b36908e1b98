// `exp` keeps its output for the backward pass (PyTorch saves it): a write
// into it would change what the gradient reads.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::zeros();
    let mut y = x.track().exp();
    y.add_(1.0);
    let _ = y.sum_all().backward();
}
