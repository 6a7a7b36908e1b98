// `repeat!` of a new axis the tensor already has among the axes of `...`.
use axial::prelude::*;
axes!(B, C, H);

fn main() {
    let x = Tensor::<f32, shape![B: 2, C: 3, H: 4]>::zeros();
    let _ = repeat!(x, "B ... -> B ... C", C = 2);
}
