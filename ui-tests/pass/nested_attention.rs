// Attention over a ragged batch by name: the queries times the transposed
// keys (items of n_i × n_i, ragged in `Seq` and `Key`), softmax over `Key`,
// times the values; nothing padded.
use axial::prelude::*;
axes!(Batch, Seq, Key, Head);

type Tokens = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Head: 2]>;

fn attend(q: &Tokens, k: Tokens, v: Tokens) -> Tokens {
    let kt = k.rename::<Seq, Key>().transpose::<Key, Head>();
    let scores: Nested<f32, shape![Batch: Dyn, Seq: Dyn, Key: Dyn], names![Seq, Key]> =
        q.matmul_nested(&kt).scale(1.0 / 2f32.sqrt());
    scores.softmax::<Key>().matmul_nested(&v.rename::<Seq, Key>())
}

fn main() {
    let x = Tokens::builder()
        .push(&Tensor::<f32, shape![Seq: 1, Head: 2]>::ones())
        .push(&Tensor::<f32, shape![Seq: 3, Head: 2]>::ones())
        .build();
    let out = attend(&x, x.clone(), x.clone());
    assert_eq!(out.lengths(), vec![1, 3]);
    assert_eq!(out.values().to_vec(), vec![1.0; 8]);
}
