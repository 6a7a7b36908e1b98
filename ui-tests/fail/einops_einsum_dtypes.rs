// `einsum!` of an f32 and an f64 tensor.
use axial::prelude::*;
axes!(I, J);

fn main() {
    let a = Tensor::<f32, shape![I: 2, J: 3]>::zeros();
    let b = Tensor::<f64, shape![J: 3]>::zeros();
    let _ = einsum!("I J, J -> I", a, b);
}
