// Pooling with a group that names another axis of the tensor: `(Cols 2)`
// stands on `Rows`.
use axial::prelude::*;
axes!(Batch, Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, Rows: 4, Cols: 6]>::zeros();
    let _ = reduce!(x, "Batch (Cols 2) (Rows 3) -> Batch Cols Rows", max);
}
