// `align_to` naming an axis the tensor lacks, without `New<..>`.
use axial::prelude::*;
axes!(N, C, H);

fn main() {
    let x = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    let _ = x.align_to::<names![N, H, C]>();
}
