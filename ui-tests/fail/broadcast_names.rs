// Axes at the same position from the right must have one name.
use axial::prelude::*;
axes!(N, C, D);

fn main() {
    let a = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    let b = Tensor::<f32, shape![N: 2, D: 3]>::zeros();
    let _ = a.add(&b);
}
