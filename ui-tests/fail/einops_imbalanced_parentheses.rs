// A group left open.
use axial::prelude::*;
axes!(A, B);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    let _ = rearrange!(x, "A B -> (A B");
}
