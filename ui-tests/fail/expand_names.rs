// `expand` pairs axes from the right, which must have one name.
use axial::prelude::*;
axes!(N, C, D);

fn main() {
    let x = Tensor::<f32, shape![C: 1]>::zeros();
    let _ = x.expand::<shape![N: 2, D: 3]>();
}
