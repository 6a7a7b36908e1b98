// A convolution keeps its input for the weight's gradient (PyTorch's
// ConvolutionBackward0 saves it): writing into that input before
// `backward` does not compile.
use axial::prelude::*;
axes!(Batch, Channels, Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Batch: 1, Channels: 1, Rows: 4, Cols: 4]>::ones();
    let w = Tensor::<f32, shape![2, 1, 3, 3]>::ones();
    let mut h = &x.track() * 2.0;
    let y = h.as_kept().conv(Channels, (Rows, Cols), &w.track(), None, Conv::<1>);
    h.add_(1.0);
    let _ = y.sum_all().backward();
}
