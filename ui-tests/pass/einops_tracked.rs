// The einops patterns on a tracked tensor, with its history kept: a
// rearrangement that is a view through map_view, a repetition through
// map_broadcast, a reduction with the tracked mean; the gradient reaches
// the leaf.
use axial::prelude::*;

axes!(Batch, Seq, Heads, Head, Copies);

fn main() {
    let x = Tensor::<f64, shape![Batch: 2, Seq: 3, Dyn]>::zeros_dyn(6);
    let xv = x.track();
    let heads = xv.as_kept().map_view(|t| {
        rearrange!(t, "Batch Seq (Heads Head) -> Batch Heads Seq Head", Heads = 2)
    });
    let copies = heads.map_broadcast(|t| {
        repeat!(t, "Batch Heads Seq Head -> Batch Heads Seq Head Copies", Copies = 2)
    });
    let loss = copies.mean::<Copies>().sum_all();
    let grads = loss.backward();
    assert!(grads.of(&xv).is_some());
}
