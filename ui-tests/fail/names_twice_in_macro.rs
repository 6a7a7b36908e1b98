// names! rejects a name written twice, at the second one.
use axial::prelude::*;
axes!(N, C);

fn main() {
    let x = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    let _ = x.align_to::<names![N, C, C]>();
}
