// A sum over the batch axis of a nested tensor.
use axial::prelude::*;
axes!(Batch, Seq);

fn main() {
    let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::ones()]);
    let _ = n.sum::<Batch>();
}
