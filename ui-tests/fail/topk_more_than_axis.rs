// `topk` of more elements than the axis has.
use axial::prelude::*;
axes!(Batch, Vocab);

fn main() {
    let logits = Tensor::<f32, shape![Batch: 2, Vocab: 4]>::zeros();
    let _ = logits.topk::<Vocab, 5>(true, true);
}
