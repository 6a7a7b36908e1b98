// A name at different positions from the right in the two operands.
use axial::prelude::*;
axes!(A);

fn main() {
    let a = Tensor::<f32, shape![A: 2, 3]>::zeros();
    let b = Tensor::<f32, shape![A: 3]>::zeros();
    let _ = a.mul(&b);
}
