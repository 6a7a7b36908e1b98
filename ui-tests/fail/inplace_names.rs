// In place, the result keeps self's names: an anonymous axis cannot become `N`.
use axial::prelude::*;
axes!(N, C);

fn main() {
    let mut a = Tensor::<f32, shape![2, C: 3]>::zeros();
    let b = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    a += &b;
}
