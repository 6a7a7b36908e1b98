// A literal size that does not divide the axis it decomposes.
use axial::prelude::*;
axes!(B, H, P);

fn main() {
    let x = Tensor::<f32, shape![B: 2, H: 6]>::zeros();
    let _ = rearrange!(x, "B (H P) -> B H P", P = 4);
}
