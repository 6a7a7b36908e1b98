// `transpose` of an axis with itself: a silent no-op in PyTorch, a typo here.
use axial::prelude::*;
axes!(Batch, Seq);

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, Seq: 5]>::zeros();
    let _ = x.transpose::<Seq, Seq>();
}
