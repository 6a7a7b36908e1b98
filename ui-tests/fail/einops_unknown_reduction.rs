// `reduce!` by a reduction einops does not know.
use axial::prelude::*;
axes!(A, B);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    let _ = reduce!(x, "A B -> A", median);
}
