// Quantizing per channel along an axis the tensor does not have.
use axial::prelude::*;
axes!(Rows, Cols, Channels);

fn main() {
    let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    let _ = x.quantize_per_channel::<QInt8, Channels>(&[0.1, 0.2], &[0, 0]);
}
