// The ops model code needs, by axis name, with the sizes they give in the
// types the results are bound to: `cat` (static sums, and a symbolic cache
// grown by symbolic keys), `stack`, `gather`, `index_select`, `where`,
// `tril`, `topk`, `pad`, static windows, attention and the losses; tensors
// made at symbolic sizes from extents. The idiomatic side of the
// `ui-tests/fail` cases of these ops.
use axial::loss::{CrossEntropy, Mean, Unreduced};
use axial::prelude::*;
use axial::{Attention, Extents, Pad, Plus, Sz};

axes!(Batch, Rows, Cols, Classes, Vocab, Model, Token, Query, Key, Past, Seq, Head, Time, Window, Layer);

type Cache<'id> = Tensor<f32, shape![Key: Sym<'id, Past>, Head: 4]>;
type Grown<'id> = Tensor<f32, shape![Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>, Head: 4]>;
type Step<'id> = Tensor<f32, shape![Seq: Sym<'id, Seq>, Head: 4]>;

/// A step of attention over a cache that grows: no size parameter, no
/// bound, no `try_`.
fn attend<'id>(q: &Step<'id>, cache: &Cache<'id>) -> (Step<'id>, Grown<'id>) {
    let keys: Grown<'id> = cache.cat::<Key, _>(q.as_view().rename::<Seq, Key>());
    let (past, seq) = (cache.extent::<Key>(), q.extent::<Seq>());
    let visible = Tensor::<Bool, shape![Seq: Sym<'id, Seq>, Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>]>::full_dyn(
        Extents((seq, past + seq)),
        Bool::TRUE,
    )
    .tril::<Seq, Key>(past.get() as i64);
    let out = q.scaled_dot_product_attention_masked(&keys, &keys, &visible, Attention::default());
    // The last `Seq` keys of the grown cache are the step's again.
    let _mine: TensorView<'_, f32, shape![Key: Sym<'id, Seq>, Head: 4]> =
        keys.as_view().narrow_to::<Key, _>(past.get() as isize, seq);
    (out, keys)
}

fn main() -> axial::Result<()> {
    let a = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    let b = Tensor::<f32, shape![Rows: 1, Cols: 3]>::ones();
    let _: Tensor<f32, shape![Rows: 3, Cols: 3]> = a.cat::<Rows, _>(&b);
    let _: Tensor<f32, shape![Layer: 2, Rows: 2, Cols: 3]> = TensorBase::stack::<Layer, 0, 2>([&a, &a]);

    let scores = Tensor::<f32, shape![Batch: 4, Classes: 10]>::zeros();
    let labels = Tensor::<i64, shape![Batch: 4, Classes: 1]>::zeros();
    let _: Tensor<f32, shape![Batch: 4, Classes: 1]> = scores.gather::<Classes, _>(&labels);
    let table = Tensor::<f32, shape![Vocab: 100, Model: 8]>::zeros();
    let ids = Tensor::<i64, shape![Token: 5]>::zeros();
    let _: Tensor<f32, shape![Token: 5, Model: 8]> = table.index_select::<Vocab, _>(&ids);

    let cond = Tensor::<Bool, shape![Rows: 2, Cols: 1]>::zeros();
    let _: Tensor<f32, shape![Rows: 2, Cols: 3]> = cond.if_else(&a, 0.0);
    let _: Tensor<f32, shape![Query: 3, Key: 3]> = Tensor::<f32, shape![Query: 3, Key: 3]>::ones().tril::<Query, Key>(0);
    let (_, _): (Tensor<f32, shape![Batch: 4, Classes: 3]>, Tensor<i64, shape![Batch: 4, Classes: 3]>) =
        scores.topk::<Classes, 3>(true, true);
    let _: Tensor<f32, shape![Rows: 2, Cols: 6]> = a.pad::<Cols, 1, 2>(Pad::Reflect);
    let x = Tensor::<f32, shape![Time: 10]>::arange();
    let windows = x.as_view().unfold_windows::<Time, Window, 3, 2>();
    let _: &TensorBase<f32, shape![Time: 4, Window: 3], Cpu, _> = &windows;
    let _: TensorView<'_, f32, shape![Time: 4]> = x.as_view().narrow_to::<Time, _>(2, Sz::<4>);

    let q = Tensor::<f32, shape![Seq: 3, Head: 4]>::zeros();
    let kv = Tensor::<f32, shape![Key: 5, Head: 4]>::zeros();
    let _: Tensor<f32, shape![Seq: 3, Head: 4]> = q.scaled_dot_product_attention(&kv, &kv, Attention::default());
    let _: Tensor<f32, shape![]> = a.mse_loss(&a, Mean);
    let labels = Tensor::<i64, shape![Batch: 4]>::zeros();
    let _: Tensor<f32, shape![Batch: 4]> = scores.cross_entropy::<Classes, _>(&labels, Unreduced, CrossEntropy::default());

    let mut cache = Tensor::<f32, shape![Key: Dyn, Head: 4]>::zeros_dyn(0);
    for len in [3, 1, 1] {
        let x = Tensor::<f32, shape![Seq: Dyn, Head: 4]>::ones_dyn(len);
        cache = scope(|s| -> axial::Result<_> {
            let (q, past) = (x.realize_in(s)?, cache.realize_in(s)?);
            let (_, grown) = attend(&q, &past);
            Ok(grown.into_dyn::<Key>())
        })?;
    }
    assert_eq!(cache.sizes().as_slice(), &[5, 4]);
    scope(|s| {
        s.bind::<Past>(6)?;
        let ctx = s.extent::<Past>().expect("bound above");
        let _: Cache<'_> = Tensor::zeros_dyn(ctx);
        Ok(())
    })
}
