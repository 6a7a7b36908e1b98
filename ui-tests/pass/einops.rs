// The einops macros and `s!` build, with static and run-time sizes (and
// checking a file of a dozen calls stays quick).
use axial::prelude::*;
axes!(Batch, Channels, Rows, Cols, P, Q, Copies, Heads, Inner);

fn main() {
    type Images = shape![Batch: 2, Channels: 3, Rows: 4, Cols: 6];
    let x = Tensor::<f32, Images>::zeros();
    let _ = rearrange!(x.as_view(), "Batch Channels Rows Cols -> Batch Rows Cols Channels");
    let _ = rearrange!(x.as_view(), "Batch Channels Rows Cols -> Batch (Channels Rows Cols)");
    let _ = rearrange!(x.as_view(), "Batch Channels (Rows P) (Cols Q) -> Batch (Channels P Q) Rows Cols", P = 2, Q = 2);
    let _ = rearrange!(x.as_view(), "Batch ... Cols -> Cols (Batch ...)");
    let _ = rearrange!(x.as_view(), "Batch ... -> Batch 1 ...");
    let n = 3;
    let _ = try_rearrange!(x.as_view(), "Batch Channels Rows (Cols Q) -> Batch Channels Rows Cols Q", Q = n);
    let _ = reduce!(x.as_view(), "Batch Channels Rows Cols -> Batch Channels", mean);
    let _ = reduce!(x.as_view(), "Batch Channels (Rows 2) (Cols 2) -> Batch Channels Rows Cols", max);
    let _ = reduce!(x.as_view(), "Batch ... -> Batch", min);
    let _ = repeat!(x.as_view(), "Batch Channels Rows Cols -> Batch Channels Rows Cols Copies", Copies = 2);
    let _ = repeat!(x.as_view(), "Batch Channels Rows Cols -> Batch (Channels Copies) Rows Cols", Copies = n);
    let q = Tensor::<f32, shape![Batch: 2, Heads: 4, Rows: 5, Inner: 8]>::zeros();
    let k = Tensor::<f32, shape![Batch: 2, Heads: 4, Cols: 5, Inner: 8]>::zeros();
    let _ = einsum!("Batch Heads Rows Inner, Batch Heads Cols Inner -> Batch Heads Rows Cols", q, k);
    let _ = x.as_view().slice_s(s![.., 1..;2, -1]);
    let _ = x.slice_s(s![0, n.., ..=2]);
}
