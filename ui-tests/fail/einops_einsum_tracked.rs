// A tracked tensor given to einsum! would lose its history: it does not
// compile, and the note names the tracked product instead.
use axial::prelude::*;

axes!(Rows, Inner, Cols);

fn main() {
    let a = Tensor::<f64, shape![Rows: 2, Inner: 3]>::zeros();
    let b = Tensor::<f64, shape![Inner: 3, Cols: 4]>::zeros();
    let av = a.track();
    let _c = einsum!("Rows Inner, Inner Cols -> Rows Cols", av, b);
}
