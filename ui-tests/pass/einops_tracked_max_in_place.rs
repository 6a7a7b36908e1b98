// `reduce!` by `max` keeps its output; a copy of it is a tensor of its own,
// writable in place, as in PyTorch (`y = x.amax(1) + 0; y.add_(1)`).
use axial::prelude::*;

axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f64, shape![Rows: 2, Cols: 3]>::zeros();
    let xv = x.track();
    let top = reduce!(xv.clone(), "Rows Cols -> Rows", max);
    let mut shifted = &top + 0.0;
    shifted.add_(1.0);
    let grads = shifted.sum_all().backward();
    assert!(grads.of(&xv).is_some());
}
