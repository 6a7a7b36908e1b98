// A leaf (a parameter) cannot be written in place while tracked (PyTorch:
// "a leaf Variable that requires grad is being used in an in-place operation").
use axial::prelude::*;
axes!(Rows);

fn main() {
    let w = Tensor::<f32, shape![Rows: 3]>::ones();
    let mut wv = w.track();
    wv.mul_(2.0);
}
