// `reduce!` by `mean` of an integer tensor.
use axial::prelude::*;
axes!(A, B);

fn main() {
    let x = Tensor::<i64, shape![A: 2, B: 3]>::zeros();
    let _ = reduce!(x, "A B -> A", mean);
}
