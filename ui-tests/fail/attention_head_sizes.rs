// Attention of queries of 4 features per head over keys of 8: the
// queries' last axis is contracted with the keys'.
use axial::prelude::*;
use axial::Attention;
axes!(Seq, Key, Head);

fn main() {
    let q = Tensor::<f32, shape![Seq: 3, Head: 4]>::zeros();
    let kv = Tensor::<f32, shape![Key: 5, Head: 8]>::zeros();
    let _ = q.scaled_dot_product_attention(&kv, &kv, Attention::default());
}
