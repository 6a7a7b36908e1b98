// `cat` of a matrix and a vector: they have different numbers of axes.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let a = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    let b = Tensor::<f32, shape![Rows: 2]>::zeros();
    let _ = a.cat::<Rows, _>(&b);
}
