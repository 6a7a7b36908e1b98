// A transformer's attention block with its einops lines, over run-time batch
// and sequence sizes (symbols), as model code writes it: concrete types, no
// bounds.
use axial::prelude::*;
axes!(Batch, Seq, Keys, Inner, Heads, HeadDim);

type Hidden<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Inner: 64]>;
type Weight = Tensor<f32, shape![Inner: 64, Keys: 64]>;

fn attention<'id>(x: &Hidden<'id>, wq: &Weight, wk: &Weight, wv: &Weight) -> Hidden<'id> {
    let project = |w: &Weight| {
        einsum!("Batch Seq Inner, Inner Keys -> Batch Seq Keys", x, w).rename::<Keys, Inner>()
    };
    let (q, k, v) = (project(wq), project(wk), project(wv));
    let q = rearrange!(q, "Batch Seq (Heads HeadDim) -> Batch Heads Seq HeadDim", Heads = 4);
    let k = rearrange!(k.rename::<Seq, Keys>(), "Batch Keys (Heads HeadDim) -> Batch Heads Keys HeadDim", Heads = 4);
    let v = rearrange!(v.rename::<Seq, Keys>(), "Batch Keys (Heads HeadDim) -> Batch Heads Keys HeadDim", Heads = 4);
    let scores = einsum!("Batch Heads Seq HeadDim, Batch Heads Keys HeadDim -> Batch Heads Seq Keys", q, k);
    let weights = (&scores * 0.25).softmax::<Keys>();
    let mixed = einsum!("Batch Heads Seq Keys, Batch Heads Keys HeadDim -> Batch Heads Seq HeadDim", weights, v);
    rearrange!(mixed, "Batch Heads Seq HeadDim -> Batch Seq (Heads HeadDim)")
        .rename::<Composed<(Heads, HeadDim)>, Inner>()
}

fn main() {
    let input = Tensor::<f32, shape![Batch: Dyn, Seq: Dyn, Inner: 64]>::ones_dyn([2, 5]);
    let w = Weight::eye();
    let sizes = scope(|s| -> axial::Result<Vec<usize>> {
        let x: Hidden<'_> = input.realize_in(s)?;
        Ok(attention(&x, &w, &w, &w).sizes().to_vec())
    });
    assert_eq!(sizes.unwrap(), vec![2, 5, 64]);
}
