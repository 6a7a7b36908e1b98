// `einsum!` operands whose shared axis has two sizes.
use axial::prelude::*;
axes!(I, J, K);

fn main() {
    let a = Tensor::<f32, shape![I: 2, J: 3]>::zeros();
    let b = Tensor::<f32, shape![J: 4, K: 5]>::zeros();
    let _ = einsum!("I J, J K -> I K", a, b);
}
