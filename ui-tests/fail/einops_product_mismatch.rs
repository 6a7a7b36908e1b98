// Literal sizes whose product is not the size of the axis they decompose.
use axial::prelude::*;
axes!(B, H, P);

fn main() {
    let x = Tensor::<f32, shape![B: 2, H: 6]>::zeros();
    let _ = rearrange!(x, "B (H P) -> B H P", H = 2, P = 4);
}
