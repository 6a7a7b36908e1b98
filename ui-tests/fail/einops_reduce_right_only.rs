// `reduce!` with an axis only on the right.
use axial::prelude::*;
axes!(A, B, E);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    let _ = reduce!(x, "A B -> A E", sum);
}
