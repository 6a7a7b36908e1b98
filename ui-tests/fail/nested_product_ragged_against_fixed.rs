// A product of nested tensors that sums the ragged axis of one against a
// fixed axis of the other: the queries times the keys, not transposed.
use axial::prelude::*;
axes!(Batch, Seq, Key, Head);

fn main() {
    let q = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Head: 2]>::from_items(&[Tensor::<f32, shape![Seq: 3, Head: 2]>::ones()]);
    // [Head: 2, Key: 2] of ragged `Head`?: the keys' items transposed by hand into a fixed `Key`.
    let k = Nested::<f32, shape![Batch: Dyn, Head: Dyn, Key: 2]>::from_items(&[Tensor::<f32, shape![Head: 2, Key: 2]>::ones()]);
    let _ = q.matmul_nested(&k);
}
