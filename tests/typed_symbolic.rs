//! Symbolic sizes: binding in a scope (and rebinding as an `Err`),
//! `realize_in` from `Dyn` and static sizes (checked, binding what is
//! unbound, all or nothing), and the ops of symbolic tensors: add, broadcast
//! and matmul with their values checked, and the run-time checks a symbol
//! against a static size or `Dyn` leaves.

use axial::prelude::*;

axes!(Batch, Seq, Key, Model, Out);

type DynX = shape![Batch: Dyn, Seq: Dyn, Model: 3];
/// `(Batch, Seq, Model)` over the symbols `Batch` and `Seq`.
type Bsm3<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Model: 3]>;
/// The same with 4 features.
type Bsm4<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Model: 4]>;
/// `(Batch, Model)` over the symbol `Batch`.
type Bm3<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Model: 3]>;
/// `(Batch: 2, Model: 3)`.
type Static2x3 = shape![Batch: 2, Model: 3];
/// `(Batch, Seq, Out)` over the symbols.
type Projected<'id> = shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Out: 2];
/// `(Batch, Model)` with `Batch` checked at each op.
type DynBm2 = Tensor<f32, shape![Batch: Dyn, Model: 2]>;
/// The same with 3 features.
type DynBm3 = Tensor<f32, shape![Batch: Dyn, Model: 3]>;

/// Deterministic values with both signs.
fn values(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 13 + seed) % 17) as f32 / 4.0 - 2.0)
        .collect()
}

#[test]
fn bind_once_then_rebinding_another_value_is_an_error() {
    scope(|s| {
        assert_eq!(s.value::<Batch>(), None);
        s.bind::<Batch>(4).unwrap();
        s.bind::<Batch>(4).unwrap(); // the same value again: no change
        let err = s.bind::<Batch>(5).unwrap_err();
        assert_eq!(
            err.to_string(),
            "bind: symbol `Batch` is bound to 4 in this scope, not 5"
        );
        assert_eq!(s.value::<Batch>(), Some(4));
        // Another symbol is independent, even at the same value.
        s.bind::<Seq>(4).unwrap();
        assert_eq!(s.value::<Seq>(), Some(4));
    });
    // Each scope has its own table.
    scope(|s| {
        assert_eq!(s.value::<Batch>(), None);
        s.bind::<Batch>(5).unwrap();
        assert_eq!(format!("{s:?}"), r#"{"Batch": 5}"#);
    });
}

#[test]
fn realize_in_binds_then_checks() {
    let x = Tensor::<f32, DynX>::from_vec_dyn(values(30, 1), [2, 5]);
    let y = Tensor::<f32, DynX>::from_vec_dyn(values(30, 2), [2, 5]);
    let z = Tensor::<f32, DynX>::zeros_dyn([2, 6]);
    scope(|s| {
        let x: Bsm3<'_> = x.as_view().to_owned().realize_in(s).unwrap();
        assert_eq!((s.value::<Batch>(), s.value::<Seq>()), (Some(2), Some(5)));
        assert_eq!(x.sizes().as_slice(), &[2, 5, 3]);
        // A second tensor is checked against the bindings.
        let y: Bsm3<'_> = y.as_view().to_owned().realize_in(s).unwrap();
        let err = z
            .as_view()
            .realize_in::<shape![Batch: Sym<'_, Batch>, Seq: Sym<'_, Seq>, Model: 3]>(s)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "realize: axis `Seq` has size 6, but its symbol `Seq` is bound to 5"
        );
        // Proven: the residual add needs no check and gives the sums.
        let sum = &x + &y;
        let want: Vec<f32> = values(30, 1)
            .iter()
            .zip(values(30, 2))
            .map(|(a, b)| a + b)
            .collect();
        assert_eq!(sum.to_vec(), want);
    });
}

#[test]
fn realize_in_is_all_or_nothing() {
    let x = Tensor::<f32, DynX>::zeros_dyn([2, 5]);
    scope(|s| {
        s.bind::<Seq>(7).unwrap();
        let err = x
            .as_view()
            .realize_in::<shape![Batch: Sym<'_, Batch>, Seq: Sym<'_, Seq>, Model: 3]>(s)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "realize: axis `Seq` has size 5, but its symbol `Seq` is bound to 7"
        );
        // `Batch` came before the failing axis and stays unbound.
        assert_eq!(s.value::<Batch>(), None);
        // Without the failing symbol it goes through and binds `Batch`.
        let partly = x
            .as_view()
            .realize_in::<shape![Batch: Sym<'_, Batch>, Seq: Dyn, Model: 3]>(s)
            .unwrap();
        assert_eq!(partly.sizes().as_slice(), &[2, 5, 3]);
        assert_eq!(s.value::<Batch>(), Some(2));
        // A static size of the target is checked as `realize` checks it.
        let err = x
            .as_view()
            .realize_in::<shape![Batch: 3, Seq: Dyn, Model: 3]>(s)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "realize: axis `Batch` has size 2, but the type says 3"
        );
    });
}

#[test]
fn one_symbol_on_two_axes_must_have_one_size() {
    let square = Tensor::<f32, shape![Seq: Dyn, Key: Dyn]>::zeros_dyn([4, 4]);
    let oblong = Tensor::<f32, shape![Seq: Dyn, Key: Dyn]>::zeros_dyn([3, 4]);
    scope(|s| {
        let err = oblong
            .realize_in::<shape![Seq: Sym<'_, Seq>, Key: Sym<'_, Seq>]>(s)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "realize: axis `Key` has size 4, but its symbol `Seq` is bound to 3"
        );
        assert_eq!(s.value::<Seq>(), None);
        let sq = square
            .realize_in::<shape![Seq: Sym<'_, Seq>, Key: Sym<'_, Seq>]>(s)
            .unwrap();
        assert_eq!(s.value::<Seq>(), Some(4));
        // Each axis is the symbol `Seq`: the transpose adds to it, proven.
        let t = sq.as_view().transpose::<Seq, Key>().rename::<Seq, Out>();
        let t = t.rename::<Key, Seq>().rename::<Out, Key>();
        assert_eq!((&sq + &t).sizes().as_slice(), &[4, 4]);
    });
}

#[test]
fn static_sizes_realize_to_symbols() {
    let x = Tensor::<f32, shape![Batch: 2, Model: 3]>::ones();
    scope(|s| {
        let x = x
            .realize_in::<shape![Batch: Sym<'_, Batch>, Model: 3]>(s)
            .unwrap();
        assert_eq!(s.value::<Batch>(), Some(2));
        // And back: the symbol is checked into a static size, or forgotten.
        let back = x.as_view().realize::<shape![Batch: 2, Model: 3]>().unwrap();
        assert_eq!(back.sizes().as_slice(), &[2, 3]);
        let err = x
            .as_view()
            .realize::<shape![Batch: 3, Model: 3]>()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "realize: axis `Batch` has size 2, but the type says 3"
        );
        let forgotten: DynBm3 = x.into_dyn::<Batch>();
        assert_eq!(forgotten.sizes().as_slice(), &[2, 3]);
    });
}

#[test]
fn symbolic_tensors_broadcast() {
    let x =
        Tensor::<f32, shape![Batch: Dyn, Seq: Dyn, Model: 3]>::from_vec_dyn(values(12, 3), [2, 2]);
    let bias = Tensor::<f32, shape![Model: 3]>::from_vec(vec![1.0, 2.0, 3.0]);
    scope(|s| {
        let x = x
            .realize_in::<shape![Batch: Sym<'_, Batch>, Seq: Sym<'_, Seq>, Model: 3]>(s)
            .unwrap();
        // A missing axis and a size-1 axis broadcast against the symbol,
        // which the result keeps.
        let shifted: Bsm3<'_> = &x + &bias;
        let want: Vec<f32> = values(12, 3)
            .iter()
            .enumerate()
            .map(|(i, v)| v + [1.0, 2.0, 3.0][i % 3])
            .collect();
        assert_eq!(shifted.to_vec(), want);
        let mean = x.mean_keepdim::<Seq>();
        let centred: Bsm3<'_> = &x - &mean;
        let v = values(12, 3);
        let mut want = Vec::new();
        for b in 0..2 {
            for q in 0..2 {
                for m in 0..3 {
                    let mean = (v[b * 6 + m] + v[b * 6 + 3 + m]) / 2.0;
                    want.push(v[b * 6 + q * 3 + m] - mean);
                }
            }
        }
        assert_eq!(centred.to_vec(), want);
    });
}

#[test]
fn symbolic_matmul_contracts_one_symbol() {
    let (b, q, m) = (2, 3, 4);
    let x = Tensor::<f32, shape![Batch: Dyn, Seq: Dyn, Model: 4]>::from_vec_dyn(
        values(b * q * m, 5),
        [b, q],
    );
    let w = Tensor::<f32, shape![Model: 4, Out: 2]>::from_vec(values(8, 7));
    scope(|s| {
        let x = x
            .realize_in::<shape![Batch: Sym<'_, Batch>, Seq: Sym<'_, Seq>, Model: 4]>(s)
            .unwrap();
        let keys = x.as_view().rename::<Seq, Key>();
        // Scores over (Seq, Key): `Model` contracted; then the weighted sum
        // contracts `Key`, the symbol `Seq` on both sides.
        let scores = x.matmul(&keys.align_to::<names![Batch, Model, Key]>());
        let mixed: Bsm4<'_> = scores.matmul(&x.as_view().rename::<Seq, Key>());
        let projected: Tensor<f32, Projected<'_>> = mixed.matmul(&w);
        let (xv, wv) = (values(b * q * m, 5), values(8, 7));
        let at = |p: usize, i: usize, k: usize| xv[(p * q + i) * m + k];
        let mut want = Vec::new();
        for p in 0..b {
            for i in 0..q {
                let score = |j: usize| (0..m).map(|k| at(p, i, k) * at(p, j, k)).sum::<f32>();
                let mix = |k: usize| (0..q).map(|j| score(j) * at(p, j, k)).sum::<f32>();
                for o in 0..2 {
                    want.push((0..m).map(|k| mix(k) * wv[k * 2 + o]).sum::<f32>());
                }
            }
        }
        let got = projected.to_vec();
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() <= 1e-3 * w.abs().max(1.0), "{g} vs {w}");
        }
    });
}

#[test]
fn a_symbol_against_a_static_size_is_checked_at_run_time() {
    let x = Tensor::<f32, shape![Batch: Dyn, Model: 3]>::ones_dyn(3);
    let two = Tensor::<f32, shape![Batch: 2, Model: 3]>::ones();
    let one = Tensor::<f32, shape![Batch: 1, Model: 3]>::ones();
    scope(|s| {
        let x = x
            .realize_in::<shape![Batch: Sym<'_, Batch>, Model: 3]>(s)
            .unwrap();
        // The result has the static size; 3 does not broadcast with 2.
        let err = x
            .try_add(&two)
            .map(|t: Tensor<f32, Static2x3>| t)
            .unwrap_err();
        assert!(
            err.to_string().contains(
                "the size of axis `Batch` in tensor a (3) must match its size in tensor b (2)"
            ),
            "{err}"
        );
        // Against 1 the symbol stays.
        let kept: Bm3<'_> = &x + &one;
        assert_eq!(kept.to_vec(), vec![2.0; 9]);
    });
}

#[test]
fn a_symbol_against_dyn_gives_dyn() {
    // The symbol is 1 and the `Dyn` size 4: the result is 4 long, so its
    // type cannot keep the symbol.
    let x = Tensor::<f32, shape![Batch: Dyn, Model: 2]>::ones_dyn(1);
    let d = Tensor::<f32, shape![Batch: Dyn, Model: 2]>::ones_dyn(4);
    let bad = Tensor::<f32, shape![Batch: Dyn, Model: 2]>::ones_dyn(3);
    scope(|s| {
        let x = x
            .realize_in::<shape![Batch: Sym<'_, Batch>, Model: 2]>(s)
            .unwrap();
        let sum: DynBm2 = &x + &d;
        assert_eq!(sum.sizes().as_slice(), &[4, 2]);
        let sum: DynBm2 = &d + &x;
        assert_eq!(sum.to_vec(), vec![2.0; 8]);
        s.bind::<Seq>(2).unwrap();
        let y = Tensor::<f32, shape![Seq: Dyn, Model: 2]>::ones_dyn(2)
            .realize_in::<shape![Seq: Sym<'_, Seq>, Model: 2]>(s)
            .unwrap();
        let err = y
            .as_view()
            .rename::<Seq, Batch>()
            .try_add(&bad)
            .unwrap_err();
        assert!(err.to_string().contains("must match"), "{err}");
    });
}

#[test]
fn untyped_values_cannot_take_symbols() {
    let raw = Tensor::<f32, shape![Batch: Dyn, Model: 2]>::zeros_dyn(3).into_raw();
    scope(|s| {
        s.bind::<Batch>(3).unwrap();
        let err = Tensor::<f32, shape![Batch: Sym<'_, Batch>, Model: 2]>::try_from_raw(raw)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "from_raw: the symbolic size `Batch` cannot be given here: type the tensor with `Dyn` and `realize_in` it"
        );
    });
}
