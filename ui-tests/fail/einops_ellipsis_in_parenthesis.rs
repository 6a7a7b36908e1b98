// einops' case of `(...)` on the left side.
use axial::prelude::*;
axes!(A, B, C, D);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3, C: 4, D: 5, 6]>::zeros();
    let _ = rearrange!(x, "A B C D (...) -> A B C D ...");
}
