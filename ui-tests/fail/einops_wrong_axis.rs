// The left side names an axis the tensor has not at that place.
use axial::prelude::*;
axes!(B, C, H, W);

fn main() {
    let x = Tensor::<f32, shape![B: 2, C: 3, H: 4]>::zeros();
    let _ = rearrange!(x, "B C W -> W C B");
}
