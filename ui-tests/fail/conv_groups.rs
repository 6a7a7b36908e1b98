// 3 groups do not divide the weight's 4 out-channels.
use axial::prelude::*;
axes!(Batch, Channels, Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Batch: 1, Channels: 3, Rows: 8, Cols: 8]>::zeros();
    let w = Tensor::<f32, shape![4, 1, 3, 3]>::zeros();
    let _ = x.conv(Channels, (Rows, Cols), &w, None, Conv::<1, 1, 1, 3>);
}
