// A reduction over the same axis twice.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    let _ = x.sum::<names![Rows, Cols, Rows]>();
}
