// `permute` is a permutation of names; `...` belongs to `align_to`.
use axial::prelude::*;
axes!(N, C, H);

fn main() {
    let x = Tensor::<f32, shape![N: 2, C: 3, H: 4]>::zeros();
    let _ = x.permute::<names![H, ...]>();
}
