// A size given for an axis the pattern does not have.
use axial::prelude::*;
axes!(A, B, E);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    let _ = rearrange!(x, "A B -> B A", E = 2);
}
