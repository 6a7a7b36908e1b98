// A tracked convolution checks its weight against the input's channels
// while compiling, as the untracked one does: 3 channels, a weight made
// for 1.
use axial::prelude::*;
axes!(Batch, Channels, Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Batch: 1, Channels: 3, Rows: 5, Cols: 5]>::ones();
    let w = Tensor::<f32, shape![4, 1, 3, 3]>::ones();
    let _ = x.track().conv(Channels, (Rows, Cols), &w.track(), None, Conv::<1>);
}
