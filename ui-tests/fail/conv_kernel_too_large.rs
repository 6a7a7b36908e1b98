// A 3×3 kernel without padding does not fit a 2×2 image.
use axial::prelude::*;
axes!(Channels, Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Channels: 1, Rows: 2, Cols: 2]>::zeros();
    let w = Tensor::<f32, shape![4, 1, 3, 3]>::zeros();
    let _ = x.conv(Channels, (Rows, Cols), &w, None, Conv::<1>);
}
