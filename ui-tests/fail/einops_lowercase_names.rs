// einops' own docs write lowercase names; here names are axis types.
use axial::prelude::*;
axes!(Batch, Seq, Model);

fn main() {
    let q = Tensor::<f32, shape![Batch: 2, Seq: 5, Model: 16]>::zeros();
    let _ = rearrange!(q, "b s (h d) -> b h s d", h = 4);
}
