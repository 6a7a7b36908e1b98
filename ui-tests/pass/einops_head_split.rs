// The head split of attention as a model author writes it: `Inner` of 384
// splits into the new axes `Heads` and `HeadDim` (32, inferred), in
// rearrange!, reduce! and repeat!, and a merged axis splits into new names.
use axial::prelude::*;
axes!(Batch, Seq, Inner, Heads, HeadDim, Copies, Rows, Cols);

type Hidden = Tensor<f32, shape![Batch: 2, Seq: 7, Inner: 384]>;
type PerHead<'a> = TensorView<'a, f32, shape![Batch: 2, Heads: 12, Seq: 7, HeadDim: 32]>;

fn split_heads(q: &Hidden) -> PerHead<'_> {
    rearrange!(q.as_view(), "Batch Seq (Heads HeadDim) -> Batch Heads Seq HeadDim", Heads = 12)
}

fn main() {
    let q = Hidden::zeros();
    let heads = split_heads(&q);
    let _: Tensor<f32, shape![Batch: 2, Heads: 12]> =
        reduce!(q.as_view(), "Batch Seq (Heads HeadDim) -> Batch Heads", mean, Heads = 12);
    let _ = repeat!(q.as_view(), "Batch Seq (Heads HeadDim) -> Batch Heads Seq HeadDim Copies", HeadDim = 32, Copies = 2);
    // A group that names its axis keeps the name for its part: `Inner` of 96.
    let _: TensorView<'_, f32, shape![Batch: 2, Seq: 7, Inner: 96, Copies: 4]> =
        rearrange!(q.as_view(), "Batch Seq (Inner Copies) -> Batch Seq Inner Copies", Copies = 4);
    let flat = rearrange!(heads, "Batch Heads Seq HeadDim -> Batch (Heads Seq HeadDim)");
    let _: TensorView<'_, f32, shape![Batch: 2, Rows: 42, Cols: 64]> =
        rearrange!(flat.as_view(), "Batch (Rows Cols) -> Batch Rows Cols", Cols = 64);
}
