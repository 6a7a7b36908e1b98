// A merged axis `(Rows Cols)` split back with its names swapped: each would
// take the other's size.
use axial::prelude::*;
axes!(Batch, Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, Rows: 3, Cols: 4]>::zeros();
    let flat = rearrange!(x, "Batch Rows Cols -> Batch (Rows Cols)");
    let _ = rearrange!(flat, "Batch (Cols Rows) -> Batch Rows Cols", Rows = 3);
}
