// `repeat!` that drops an axis.
use axial::prelude::*;
axes!(B, C);

fn main() {
    let x = Tensor::<f32, shape![B: 2, C: 3]>::zeros();
    let _ = repeat!(x, "B C -> B");
}
