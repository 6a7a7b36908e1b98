// `squeeze` of an axis whose static size is not 1.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3, Cols: 4]>::zeros();
    let _ = x.squeeze::<Rows>();
}
