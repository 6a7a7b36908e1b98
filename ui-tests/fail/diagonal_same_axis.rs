// `diagonal` of one axis with itself.
use axial::prelude::*;
axes!(Rows, Cols, Diag);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3, Cols: 3]>::zeros();
    let _ = x.diagonal::<Rows, Rows, Diag>(0);
}
