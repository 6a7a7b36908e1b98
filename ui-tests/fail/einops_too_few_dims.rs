// The pattern leaves out an axis of the tensor (einops: wrong number of dims).
use axial::prelude::*;
axes!(B, C, H);

fn main() {
    let x = Tensor::<f32, shape![B: 2, C: 3, H: 4]>::zeros();
    let _ = rearrange!(x, "B C -> C B");
}
