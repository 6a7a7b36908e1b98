// A 3×3 pooling window without padding does not fit a 2×2 image.
use axial::prelude::*;
axes!(Channels, Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Channels: 1, Rows: 2, Cols: 2]>::zeros();
    let _ = x.max_pool((Rows, Cols), Pool::<3>);
}
