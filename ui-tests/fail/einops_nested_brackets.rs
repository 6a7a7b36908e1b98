// Brackets inside brackets.
use axial::prelude::*;
axes!(A, B, C);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3, C: 4]>::zeros();
    let _ = rearrange!(x, "A B C -> A ((B C))");
}
