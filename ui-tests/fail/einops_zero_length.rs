// An anonymous axis of length 0.
use axial::prelude::*;
axes!(A, B);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    let _ = reduce!(x, "A (B 0) -> A", sum);
}
