// A nested array whose extent differs from the static size.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let _ = Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
}
