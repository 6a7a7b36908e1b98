// `...` on the right side only.
use axial::prelude::*;
axes!(B, C);

fn main() {
    let x = Tensor::<f32, shape![B: 2, C: 3]>::zeros();
    let _ = rearrange!(x, "B C -> B C ...");
}
