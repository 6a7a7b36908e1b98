// A product of nested tensors that sums an axis ragged in one operand and
// fixed in the other: keys whose items were built `[Head, Key]` with `Head`
// the ragged axis, where the queries' `Head` is fixed.
use axial::prelude::*;
axes!(Batch, Seq, Key, Head);

fn main() {
    let q = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Head: 2]>::from_items(&[Tensor::<f32, shape![Seq: 3, Head: 2]>::ones()]);
    let k = Nested::<f32, shape![Batch: Dyn, Head: Dyn, Key: 2]>::from_items(&[Tensor::<f32, shape![Head: 2, Key: 2]>::ones()]);
    let _ = q.matmul_nested(&k);
}
