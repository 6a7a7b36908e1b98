// `view` to a static shape with another number of elements.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3, Cols: 4]>::zeros();
    let _ = x.view::<shape![Rows: 4, Cols: 4]>();
}
