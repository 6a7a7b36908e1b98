// A nested item whose fixed axis has another size than the nested tensor's.
use axial::prelude::*;
axes!(Batch, Seq, Features);

fn main() {
    let a = Tensor::<f32, shape![Seq: 2, Features: 3]>::zeros();
    let b = Tensor::<f32, shape![Seq: 4, Features: 4]>::zeros();
    let _ = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 3]>::builder()
        .push(&a)
        .push(&b);
}
