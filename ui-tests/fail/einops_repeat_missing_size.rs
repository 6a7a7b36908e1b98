// `repeat!` of a new axis without its size.
use axial::prelude::*;
axes!(H, W, C);

fn main() {
    let x = Tensor::<f32, shape![H: 2, W: 3]>::zeros();
    let _ = repeat!(x, "H W -> H W C");
}
