// `1` on the left where the tensor's axis is not of size 1.
use axial::prelude::*;
axes!(A, B, X);

fn main() {
    let x = Tensor::<f32, shape![A: 2, X: 2, B: 3]>::zeros();
    let _ = rearrange!(x, "A 1 B -> A B");
}
