// Pooling over `Depth`, an axis this image does not have.
use axial::prelude::*;
axes!(Batch, Channels, Rows, Cols, Depth);

fn main() {
    let x = Tensor::<f32, shape![Batch: 1, Channels: 3, Rows: 8, Cols: 8]>::zeros();
    let _ = x.max_pool((Depth, Rows, Cols), Pool::<2>);
}
