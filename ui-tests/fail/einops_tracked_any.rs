// `reduce!` by `any` has no derivative: a tracked tensor would lose its
// history there, so it does not compile (no silent cut of the graph).
use axial::prelude::*;

axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f64, shape![Rows: 2, Cols: 3]>::zeros();
    let xv = x.track();
    let _any = reduce!(xv, "Rows Cols -> Rows", any);
}
