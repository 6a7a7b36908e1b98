// Attention-like code over run-time sizes proven once: `Batch` and `Seq` are
// symbols bound at the boundary (`realize_in`), so the residual add, the
// score matmul over `Model`, the softmax over the key axis and the weighted
// sum over the keys need no run-time shape check, and the model functions
// have concrete types: a lifetime parameter, no size parameter, no bound.
use axial::prelude::*;

axes!(Batch, Seq, Key, Model);

type X<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Model: 64]>;
type Keys<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Key: Sym<'id, Seq>, Model: 64]>;
type Scores<'id> =
    Tensor<f32, shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Key: Sym<'id, Seq>]>;

/// Single-head self-attention with a residual: `x + softmax(x·xᵀ/8)·x`.
fn block<'id>(x: &X<'id>) -> (Scores<'id>, X<'id>) {
    let keys: Keys<'id> = x.as_view().rename::<Seq, Key>().to_owned();
    let scores: Scores<'id> =
        x.matmul(&keys.as_view().align_to::<names![Batch, Model, Key]>()) / 8.0;
    let weights = scores.softmax::<Key>();
    let attended: X<'id> = weights.matmul(&keys); // contracts `Key`: one symbol on both sides
    let out = x + &attended; // residual: proven, the sizes are one symbol
    (weights, out)
}

fn main() -> axial::Result<()> {
    let mut rng = Generator::seed(7);
    let input = Tensor::<f32, shape![Batch: Dyn, Seq: Dyn, Model: 64]>::randn_dyn([2, 5], &mut rng);
    let checked = scope(|s| -> axial::Result<f32> {
        let x: X<'_> = input.to_owned().realize_in(s)?;
        assert_eq!((s.value::<Batch>(), s.value::<Seq>()), (Some(2), Some(5)));
        let (weights, out) = block(&x);
        assert_eq!(weights.sizes().as_slice(), &[2, 5, 5]);
        assert_eq!(out.sizes().as_slice(), &[2, 5, 64]);
        let rows = weights.sum::<Key>().to_vec();
        assert!(rows.iter().all(|r| (r - 1.0).abs() < 1e-5));
        Ok(out.to_vec().iter().sum())
    })?;
    assert!(checked.is_finite());
    Ok(())
}
