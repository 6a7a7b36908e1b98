// A tracked tensor given to rearrange! would lose its history (the macro
// computes on elements): it does not compile, and the message says how to
// keep the history (map_view).
use axial::prelude::*;

axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f64, shape![Rows: 2, Cols: 3]>::zeros();
    let xv = x.track();
    let _t = rearrange!(xv, "Rows Cols -> Cols Rows");
}
