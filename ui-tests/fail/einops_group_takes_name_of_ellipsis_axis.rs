// A group of names on `Inner` where one of them, `Seq`, is another axis of
// the tensor (one `...` stands for): not new names, so not a head split.
use axial::prelude::*;
axes!(Batch, Seq, Inner, HeadDim);

fn main() {
    let q = Tensor::<f32, shape![Batch: 2, Seq: 7, Inner: 384]>::zeros();
    let _ = rearrange!(q, "Batch ... (Seq HeadDim) -> Batch ... Seq HeadDim", HeadDim = 32);
}
