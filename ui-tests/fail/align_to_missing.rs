// `align_to` without `...` must name every axis.
use axial::prelude::*;
axes!(N, C, H, W);

fn main() {
    let x = Tensor::<f32, shape![N: 2, C: 3, H: 4, W: 5]>::zeros();
    let _ = x.align_to::<names![W, N]>();
}
