// `rearrange!` with an anonymous axis of length 2.
use axial::prelude::*;
axes!(B, C);

fn main() {
    let x = Tensor::<f32, shape![B: 2, C: 6]>::zeros();
    let _ = rearrange!(x, "B (C 2) -> B C");
}
