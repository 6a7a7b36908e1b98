// `rearrange!` with an axis on one side only.
use axial::prelude::*;
axes!(B, C, D);

fn main() {
    let x = Tensor::<f32, shape![B: 2, C: 3]>::zeros();
    let _ = rearrange!(x, "B C -> B C D");
}
