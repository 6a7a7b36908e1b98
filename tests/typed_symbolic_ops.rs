//! Symbolic sizes through the ops that change an axis' length: `cat` gives
//! the sum of its operands' sizes (a `Plus` the type says), `pad` adds its
//! static amounts, `narrow_to` cuts to an extent's size, and tensors are
//! made at symbolic sizes from extents. Each result's type is written out:
//! the assignments are the proof that the sizes come out as the docs say.
#![expect(
    clippy::type_complexity,
    reason = "the results' types are written out: they are what these tests check"
)]

use axial::prelude::*;
use axial::{Extent, Extents, Pad, Plus, Sz};

axes!(Batch, Key, Past, Seq, Head, Model);

type Past4<'id> = Tensor<f32, shape![Key: Sym<'id, Past>, Head: 2]>;
type New4<'id> = Tensor<f32, shape![Key: Sym<'id, Seq>, Head: 2]>;
type Both<'id> = Tensor<f32, shape![Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>, Head: 2]>;

#[test]
fn cat_of_symbols_is_their_sum_and_grows_keys_and_values_alike() {
    let past = Tensor::<f32, shape![Key: Dyn, Head: 2]>::arange_dyn(3);
    let new = Tensor::<f32, shape![Key: Dyn, Head: 2]>::full_dyn(2, -1.0);
    scope(|s| -> axial::Result<()> {
        let past: Past4<'_> = past.realize_in(s)?;
        let new: New4<'_> = new.realize_in(s)?;
        let keys: Both<'_> = past.cat::<Key, _>(&new);
        let values: Both<'_> = past.cat::<Key, _>(&new);
        assert_eq!(keys.sizes().as_slice(), &[5, 2]);
        assert_eq!(
            keys.to_vec(),
            vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, -1.0, -1.0, -1.0, -1.0]
        );
        // `Key` of the keys and of the values is one sum: proven equal.
        let _: Tensor<f32, shape![Head: 2, Head2: 2]> =
            keys.as_view().t().matmul(&values.rename::<Head, Head2>());
        // The last `Seq` keys are the new ones again, with their symbol.
        let tail: New4<'_> = keys.narrow_to::<Key, _>(3, new.extent::<Key>());
        assert_eq!(tail.to_vec(), new.to_vec());
        Ok(())
    })
    .unwrap();
}

axes!(Head2);

#[test]
fn cat_keeps_the_best_known_size_of_the_other_axes() {
    let a = Tensor::<f32, shape![Batch: Dyn, Model: 3]>::zeros_dyn(2);
    let b = Tensor::<f32, shape![Batch: 2, Model: 1]>::ones();
    // `Batch` is checked at run time and the static size kept.
    let joined: Tensor<f32, shape![Batch: 2, Model: 4]> = a.cat::<Model, _>(&b);
    assert_eq!(joined.sum::<Model>().to_vec(), vec![1.0, 1.0]);
    scope(|s| {
        let a = a
            .realize_in::<shape![Batch: Sym<'_, Batch>, Model: 3]>(s)
            .unwrap();
        let c = Tensor::<f32, shape![Batch: Dyn, Model: 2]>::ones_dyn(2);
        // A symbol against `Dyn`: the check proves the `Dyn` one equal, and the symbol stays.
        let _: Tensor<f32, shape![Batch: Sym<'_, Batch>, Model: 5]> = a.cat::<Model, _>(&c);
        let bad = Tensor::<f32, shape![Batch: Dyn, Model: 2]>::ones_dyn(3);
        assert!(a.try_cat::<Model, _>(&bad).is_err());
    });
}

#[test]
fn static_sums_and_products_stay_static() {
    let a = Tensor::<i64, shape![Seq: 3, Model: 2]>::arange();
    let b: Tensor<i64, shape![Seq: 7, Model: 2]> =
        a.cat::<Seq, _>(&Tensor::<i64, shape![Seq: 4, Model: 2]>::zeros());
    assert_eq!(b.sizes().as_slice(), &[7, 2]);
    let c: Tensor<i64, shape![Seq: 9, Model: 2]> = TensorBase::cat_all::<Seq, 3>([&a, &a, &a]);
    assert_eq!(c.sum_all().item(), 45);
    let p: Tensor<i64, shape![Seq: 3, Model: 5]> = a.pad::<Model, 1, 2>(Pad::Constant(9));
    assert_eq!(p.to_vec()[..5], [9, 0, 1, 9, 9]);
}

#[test]
fn pad_of_a_symbol_adds_its_amounts() {
    let x = Tensor::<f32, shape![Seq: Dyn, Model: 2]>::ones_dyn(4);
    scope(|s| {
        let x = x
            .realize_in::<shape![Seq: Sym<'_, Seq>, Model: 2]>(s)
            .unwrap();
        let p: Tensor<f32, shape![Seq: Plus<Sym<'_, Seq>, Sz<3>>, Model: 2]> =
            x.pad::<Seq, 1, 2>(Pad::Replicate);
        assert_eq!(p.sizes().as_slice(), &[7, 2]);
        // A mask at that size, from the extents that prove it.
        let len: Extent<Plus<Sym<'_, Seq>, Sz<3>>> = x.extent::<Seq>() + Extent::from(Sz::<3>);
        let mask =
            Tensor::<Bool, shape![Seq: Plus<Sym<'_, Seq>, Sz<3>>]>::full_dyn(len, Bool::TRUE);
        let _ = p.masked_fill(&mask.unsqueeze::<Model, 1>(), 0.0);
    });
}

#[test]
fn constructors_at_symbolic_sizes_take_extents() {
    scope(|s| -> axial::Result<()> {
        assert!(s.extent::<Past>().is_none());
        s.bind::<Past>(3)?;
        s.bind::<Seq>(2)?;
        let (past, seq) = (s.extent::<Past>().unwrap(), s.extent::<Seq>().unwrap());
        let keys = Tensor::<f32, shape![Key: Sym<'_, Past>, Head: 2]>::zeros_dyn(past);
        let grid = Tensor::<i64, shape![Seq: Sym<'_, Seq>, Key: Plus<Sym<'_, Past>, Sym<'_, Seq>>]>::arange_dyn(Extents((seq, past + seq)));
        assert_eq!(keys.sizes().as_slice(), &[3, 2]);
        assert_eq!(grid.sizes().as_slice(), &[2, 5]);
        assert_eq!(grid.get([1, 4]), 9);
        // A symbol and `Dyn` in one shape: an extent each, in order.
        let mixed = Tensor::<u8, shape![Batch: Dyn, Key: Sym<'_, Past>]>::ones_dyn(Extents((Extent::from(4), past)));
        assert_eq!(mixed.sizes().as_slice(), &[4, 3]);
        Ok(())
    })
    .unwrap();
}
