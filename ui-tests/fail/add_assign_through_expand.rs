// `+=` on a broadcast view of a mutable view: several elements share one
// memory location, so the view is read-only.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let mut x = Tensor::<f32, shape![Cols: 3]>::zeros();
    let mut wide = x.as_view_mut().expand::<shape![Rows: 4, Cols: 3]>();
    wide += 1.0;
}
