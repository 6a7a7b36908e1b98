// `align_to` naming one axis twice (through an alias, past names!'s own check).
use axial::prelude::*;
axes!(N, C);
type Batch = N;

fn main() {
    let x = Tensor::<f32, shape![N: 2, C: 3]>::zeros();
    let _ = x.align_to::<names![N, C, Batch]>();
}
