// `rename` to a name another axis already has.
use axial::prelude::*;
axes!(N, C);

fn main() {
    let x = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    let _ = x.rename::<N, C>();
}
