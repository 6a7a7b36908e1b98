// An in-place op on a broadcast (stride-0) view.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Cols: 3]>::zeros();
    let mut wide = x.expand::<shape![Rows: 4, Cols: 3]>();
    wide.add_(1.0);
}
