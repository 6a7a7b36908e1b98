// `einsum!` given a slice where a tensor goes.
use axial::prelude::*;
axes!(I, J);

fn main() {
    let a = Tensor::<f32, shape![I: 2, J: 3]>::zeros();
    let b = vec![0.0f32; 3];
    let _ = einsum!("I J, J -> I", a, b);
}
