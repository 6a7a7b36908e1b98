// A softmax across the items of a nested tensor (its batch axis).
use axial::prelude::*;
axes!(Batch, Seq);

fn main() {
    let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::ones()]);
    let _ = n.softmax::<Batch>();
}
