// A step of 0.
use axial::prelude::*;
axes!(A);

fn main() {
    let x = Tensor::<f32, shape![A: 3]>::zeros();
    let _ = x.slice_s(s![..;0]);
}
