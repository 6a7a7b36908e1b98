// An element index with the wrong number of coordinates.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3, Cols: 4]>::zeros();
    let _ = x.get([1, 2, 0]);
}
