// A group on the left with two sizes to infer.
use axial::prelude::*;
axes!(A, B, C);

fn main() {
    let x = Tensor::<f32, shape![A: 6, C: 3]>::zeros();
    let _ = rearrange!(x, "(A B) C -> A B C");
}
