// `log` keeps its input for the backward pass (PyTorch saves it): the input
// stays borrowed while the graph lives, so it cannot be written.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::ones();
    let mut h = x.track() * 2.0;
    let y = h.as_kept().log();
    h.add_(1.0);
    let _ = y.sum_all().backward();
}
