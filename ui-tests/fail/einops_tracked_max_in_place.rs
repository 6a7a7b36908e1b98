// `reduce!` by `max` keeps its output for the backward pass (PyTorch's
// amax saves its result), so writing into it in place does not compile.
use axial::prelude::*;

axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f64, shape![Rows: 2, Cols: 3]>::zeros();
    let xv = x.track();
    let mut top = reduce!(xv, "Rows Cols -> Rows", max);
    top.add_(1.0);
}
