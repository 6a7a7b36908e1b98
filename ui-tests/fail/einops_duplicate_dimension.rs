// A name twice on one side of a pattern.
use axial::prelude::*;
axes!(A, B);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    let _ = rearrange!(x, "A B A -> A B");
}
