// The einops macros on tracked tensors record the graph: a head split (a
// view), a merge (a copy), a repetition, reductions and an einsum of
// attention scores; the gradient reaches the leaves. A sum's result is a
// new tensor, writable in place (as PyTorch's); tensors mix with tracked
// tensors in einsum!.
use axial::prelude::*;

axes!(Batch, Seq, Key, Heads, Head, Copies);

fn main() {
    let x = Tensor::<f64, shape![Batch: 2, Seq: 3, 6]>::zeros();
    let keys = Tensor::<f64, shape![Batch: 2, Heads: 2, Key: 4, Head: 3]>::ones();
    let xv = x.track();
    let q = rearrange!(xv.clone(), "Batch Seq (Heads Head) -> Batch Heads Seq Head", Heads = 2);
    let scores = einsum!(
        "Batch Heads Seq Head, Batch Heads Key Head -> Batch Heads Seq Key",
        q,
        keys
    );
    let merged = rearrange!(scores, "Batch Heads Seq Key -> Batch Seq (Heads Key)");
    let copies = repeat!(merged, "Batch Seq ... -> Batch Seq ... Copies", Copies = 2);
    let mut summed = reduce!(copies, "Batch Seq ... Copies -> Batch Seq", sum);
    summed.add_(1.0);
    let top = reduce!(summed, "Batch Seq -> Batch", max);
    let grads = top.sum_all().backward();
    assert!(grads.of(&xv).is_some());
}
