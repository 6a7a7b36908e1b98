// `einsum!` with fewer tensors than inputs.
use axial::prelude::*;
axes!(I, J, K);

fn main() {
    let a = Tensor::<f32, shape![I: 2, J: 3]>::zeros();
    let _ = einsum!("I J, J K -> I K", a);
}
