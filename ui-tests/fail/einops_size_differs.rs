// A size given for an axis that has another.
use axial::prelude::*;
axes!(A, B);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    let _ = rearrange!(x, "A B -> B A", A = 3);
}
