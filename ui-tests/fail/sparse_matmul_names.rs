// A sparse matrix times a dense one whose rows are another axis.
use axial::prelude::*;
axes!(Rows, Cols, Other, Features);

fn main() {
    let s = SparseCoo::<f32, shape![Rows: 4, Cols: 4]>::from_entries(&[[0, 1]], &[1.0]);
    let d = Tensor::<f32, shape![Other: 4, Features: 2]>::ones();
    let _ = s.matmul(&d);
}
