// `refine_names` cannot change a name an axis already has.
use axial::prelude::*;
axes!(N, C, D);

fn main() {
    let x = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    let _ = x.refine_names::<names![N, D]>();
}
