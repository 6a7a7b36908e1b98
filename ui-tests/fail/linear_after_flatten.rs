// After a 3×3 convolution with stride 2 and padding 1, a 28×28 image is
// 14×14: 8 channels flatten to 1568 features, not the 6272 the linear
// layer was written for (the size before the stride).
use axial::prelude::*;
axes!(Batch, Channels, Rows, Cols, Features, Classes);

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, Channels: 1, Rows: 28, Cols: 28]>::zeros();
    let w = Tensor::<f32, shape![8, 1, 3, 3]>::zeros();
    let fc = Tensor::<f32, shape![Classes: 10, Features: 6272]>::zeros();
    let h = x.conv(Channels, (Rows, Cols), &w, None, Conv::<2, 1>);
    let flat = h.merge::<names![Channels, Rows, Cols], Features>();
    let _ = flat.linear(&fc, None);
}
