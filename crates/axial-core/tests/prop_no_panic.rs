//! No input to a public layout op panics: every op of [`Layout`],
//! [`TensorRef`] and [`TensorMut`] driven with random arguments, absurd ones
//! included (`isize::MIN` dims, sizes past `isize::MAX`, products that
//! overflow), returns `Ok` or `Err`; and a view of a layout that fits its
//! storage fits it too.
//!
//! Two kinds of start: layouts that fit a storage (from the support
//! strategies), whose every `Ok` view must stay in bounds; and unchecked
//! layouts (`Layout::from_parts` with any sizes, strides and offset), which
//! fit no storage and must still give `Ok` or `Err`, never a panic.

mod support;

use std::panic::{self, AssertUnwindSafe};

use axial_core::layout::{
    broadcast_shapes, checked_numel, compute_stride, contiguous_strides, infer_size, wrap_dim,
};
use axial_core::{DType, Layout, RawTensor, Result, Storage, TensorMut, TensorRef};
use proptest::prelude::*;

/// A small deterministic generator of arguments (SplitMix64), so that one
/// proptest seed drives a whole program of ops.
struct Args(u64);

impl Args {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// Mostly small (negative half the time), sometimes an extreme.
    fn int(&mut self) -> isize {
        const EXTREMES: [isize; 9] = [
            isize::MIN,
            isize::MIN + 1,
            -(1 << 40),
            -7,
            1 << 31,
            1 << 40,
            isize::MAX / 2 + 1,
            isize::MAX - 1,
            isize::MAX,
        ];
        if self.below(8) == 0 {
            EXTREMES[self.below(EXTREMES.len() as u64) as usize]
        } else {
            self.below(13) as isize - 6
        }
    }

    /// Mostly small, sometimes past `isize::MAX` or near `usize::MAX`.
    fn size(&mut self) -> usize {
        const EXTREMES: [usize; 6] = [
            1 << 32,
            1 << 40,
            isize::MAX as usize,
            isize::MAX as usize + 1,
            usize::MAX - 1,
            usize::MAX,
        ];
        if self.below(8) == 0 {
            EXTREMES[self.below(EXTREMES.len() as u64) as usize]
        } else {
            self.below(7) as usize
        }
    }

    fn ints(&mut self, max_len: u64) -> Vec<isize> {
        (0..self.below(max_len + 1)).map(|_| self.int()).collect()
    }

    fn sizes(&mut self, max_len: u64) -> Vec<usize> {
        (0..self.below(max_len + 1)).map(|_| self.size()).collect()
    }

    fn opt(&mut self) -> Option<isize> {
        (self.below(4) != 0).then(|| self.int())
    }

    /// A dim for rank `rank`: in range most of the time.
    fn dim(&mut self, rank: usize) -> isize {
        if self.below(5) == 0 {
            return self.int();
        }
        let n = rank.max(1) as isize;
        self.below(2 * n as u64) as isize - n
    }
}

/// Runs `f`, turning a panic into a test failure that names the op.
fn no_panic<T>(what: &str, layout: &Layout, f: impl FnOnce() -> T) -> T {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(payload) => {
            let msg = (payload.downcast_ref::<&str>().map(|m| m.to_string()))
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            panic!("{what} on {layout:?} panicked: {msg}");
        }
    }
}

/// One random layout op on `l`, with random arguments: its result when it is
/// a layout.
fn layout_op(l: &Layout, a: &mut Args, storage_len: usize) -> (String, Option<Result<Layout>>) {
    let r = l.rank();
    let op = a.below(26);
    let (what, out): (String, Option<Result<Layout>>) = match op {
        0 => {
            let (d, s, e, st) = (a.dim(r), a.opt(), a.opt(), a.int());
            (
                format!("slice({d}, {s:?}, {e:?}, {st})"),
                Some(l.slice(d, s, e, st)),
            )
        }
        1 => {
            let (d, i) = (a.dim(r), a.int());
            (format!("select({d}, {i})"), Some(l.select(d, i)))
        }
        2 => {
            let (d, s, n) = (a.dim(r), a.int(), a.size());
            (format!("narrow({d}, {s}, {n})"), Some(l.narrow(d, s, n)))
        }
        3 => {
            let d = a.dim(r + 1);
            (format!("unsqueeze({d})"), Some(l.unsqueeze(d)))
        }
        4 => ("squeeze()".into(), Some(Ok(l.squeeze()))),
        5 => {
            let dims = a.ints(3);
            (
                format!("squeeze_dims({dims:?})"),
                Some(l.squeeze_dims(&dims)),
            )
        }
        6 => {
            let sizes = a.ints(r as u64 + 2);
            (format!("expand({sizes:?})"), Some(l.expand(&sizes)))
        }
        7 => {
            let (x, y) = (a.dim(r), a.dim(r));
            (format!("transpose({x}, {y})"), Some(l.transpose(x, y)))
        }
        8 => ("t()".into(), Some(l.t())),
        9 => {
            let mut dims: Vec<isize> = (0..r as isize).collect();
            for i in (1..dims.len()).rev() {
                dims.swap(i, a.below(i as u64 + 1) as usize);
            }
            if a.below(3) == 0 {
                dims = a.ints(r as u64 + 1);
            }
            (format!("permute({dims:?})"), Some(l.permute(&dims)))
        }
        10 => {
            let (s, d) = (a.ints(r as u64), a.ints(r as u64));
            (format!("movedim({s:?}, {d:?})"), Some(l.movedim(&s, &d)))
        }
        11 => {
            let (o, x, y) = (a.int(), a.dim(r), a.dim(r));
            (
                format!("diagonal({o}, {x}, {y})"),
                Some(l.diagonal(o, x, y)),
            )
        }
        12 => {
            let (d, n, st) = (a.dim(r), a.size(), a.size());
            (format!("unfold({d}, {n}, {st})"), Some(l.unfold(d, n, st)))
        }
        13 => {
            let shape = a.ints(4);
            (format!("view({shape:?})"), Some(l.view(&shape)))
        }
        14 => {
            let shape = a.ints(4);
            let v = l
                .reshape_view(&shape)
                .map(|v| v.unwrap_or_else(|| l.clone()));
            (format!("reshape_view({shape:?})"), Some(v))
        }
        15 => {
            let (s, e) = (a.dim(r), a.dim(r));
            let shape = l.flatten_shape(s, e);
            (format!("flatten_shape({s}, {e})"), shape.err().map(Err))
        }
        16 => {
            let (d, sizes) = (a.dim(r), a.ints(3));
            (
                format!("unflatten({d}, {sizes:?})"),
                Some(l.unflatten(d, &sizes)),
            )
        }
        17 => {
            let (size, stride) = (a.sizes(3), a.ints(3));
            let offset = (a.below(2) == 0).then(|| a.size());
            let itemsize = [1, 2, 4, 8][a.below(4) as usize];
            let what = format!("as_strided({size:?}, {stride:?}, {offset:?})");
            (
                what,
                Some(l.as_strided(&size, &stride, offset, storage_len, itemsize)),
            )
        }
        18 => {
            let index = a.ints(r as u64 + 1);
            let _ = l.storage_index(&index);
            (format!("storage_index({index:?})"), None)
        }
        19 => {
            let _ = (l.numel(), l.required_len(), l.check_bounds(storage_len, 4));
            let _ = (
                l.is_contiguous(),
                l.is_channels_last(),
                l.is_non_overlapping_and_dense(),
            );
            let _ = (
                l.internal_overlap(),
                l.is_non_overlapping(),
                l.check_writable(),
            );
            let _ = l.dense_like();
            ("queries".into(), None)
        }
        20 => {
            let other = l
                .slice(0, a.opt(), a.opt(), 1)
                .unwrap_or_else(|_| l.clone());
            let _ = (
                l.overlap(&other, true),
                l.check_no_partial_overlap(&other, true),
            );
            ("overlap".into(), None)
        }
        21 => {
            let shape = a.sizes(4);
            let _ = compute_stride(l, &shape);
            (format!("compute_stride({shape:?})"), None)
        }
        22 => {
            let (shape, n) = (a.ints(4), a.size());
            let _ = infer_size(&shape, n);
            (format!("infer_size({shape:?}, {n})"), None)
        }
        23 => {
            let (x, y) = (a.sizes(4), a.sizes(4));
            let _ = (
                broadcast_shapes(&x, &y),
                checked_numel("t", &x),
                contiguous_strides(&x),
            );
            let _ = Layout::contiguous(&y);
            (format!("shapes({x:?}, {y:?})"), None)
        }
        24 => {
            let (d, n) = (a.int(), a.size());
            let _ = wrap_dim(d, n);
            (format!("wrap_dim({d}, {n})"), None)
        }
        _ => {
            let shape = a.sizes(4);
            let scalar = Layout::contiguous(&[]);
            let _ = Layout::elementwise_output(&[l, &scalar], &shape);
            let _ = Layout::elementwise_output(&[l], l.shape());
            (format!("elementwise_output({shape:?})"), None)
        }
    };
    (what, out)
}

/// Layouts that fit no storage: any sizes, strides and offset.
fn unchecked(a: &mut Args) -> Layout {
    let rank = a.below(5) as usize;
    let shape: Vec<usize> = (0..rank).map(|_| a.size()).collect();
    let strides: Vec<isize> = (0..rank).map(|_| a.int()).collect();
    Layout::from_parts(&shape, &strides, a.size())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Views of a layout that fits its storage fit it too.
    #[test]
    fn layout_ops_on_fitting_layouts_stay_in_the_storage(c in support::case(true, false), seed in any::<u64>()) {
        let mut a = Args(seed);
        let storage_len = c.storage.len();
        let mut l = c.layout.clone();
        for _ in 0..6 {
            let (what, out) = no_panic("a layout op", &l, || layout_op(&l, &mut a, storage_len));
            if let Some(Ok(next)) = out {
                prop_assert!(
                    next.check_bounds(storage_len, 4).is_ok(),
                    "{what} on {l:?} gave {next:?}, past a storage of {storage_len}"
                );
                l = next;
            }
        }
    }

    /// Layouts no storage holds: every op still answers.
    #[test]
    fn layout_ops_on_unchecked_layouts_answer(seed in any::<u64>()) {
        let mut a = Args(seed);
        let mut l = unchecked(&mut a);
        let storage_len = a.size();
        for _ in 0..6 {
            let (_, out) = no_panic("a layout op", &l, || layout_op(&l, &mut a, storage_len));
            if let Some(Ok(next)) = out {
                l = next;
            }
        }
    }

    /// The view ops of `TensorRef` and `TensorMut` (reshape, flatten and
    /// contiguous included, which may copy): `Ok` views fit the storage.
    #[test]
    fn tensor_view_ops_stay_in_the_storage(c in support::case(true, false), seed in any::<u64>()) {
        let mut a = Args(seed);
        let t = c.tensor::<f32>();
        let (storage, layout, dtype) = t.into_parts();
        let mut l = layout;
        for _ in 0..6 {
            let v = TensorRef::new(&storage, l.clone(), dtype).unwrap();
            let (what, out) = no_panic("a view op", &l, || tensor_op(&v, &mut a));
            if let Some(Ok(next)) = out {
                prop_assert!(
                    next.check_bounds(storage.len_of(dtype), dtype.size()).is_ok(),
                    "{what} on {l:?} gave {next:?}"
                );
                // The same op on a mutable view answers the same.
                let mut copy = storage.clone();
                let m = TensorMut::new(&mut copy, l.clone(), dtype).unwrap();
                let mut b = Args(a.0);
                let _ = no_panic("a mutable view op", &l, || mut_op(m, &mut b));
                l = next;
            }
        }
    }
}

/// One random view op of a `TensorRef`: the view's layout when it is one.
fn tensor_op(v: &TensorRef<'_>, a: &mut Args) -> (String, Option<Result<Layout>>) {
    let r = v.dim();
    let lay = |x: Result<TensorRef<'_>>| Some(x.map(|t| t.layout().clone()));
    // Copies are only asked of views small enough to copy.
    let small = v.numel() <= 4096;
    match a.below(20) {
        0 => (
            "slice".into(),
            lay(v.slice(a.dim(r), a.opt(), a.opt(), a.int())),
        ),
        1 => ("select".into(), lay(v.select(a.dim(r), a.int()))),
        2 => ("narrow".into(), lay(v.narrow(a.dim(r), a.int(), a.size()))),
        3 => ("unsqueeze".into(), lay(v.unsqueeze(a.dim(r + 1)))),
        4 => ("squeeze".into(), lay(Ok(v.squeeze()))),
        5 => ("squeeze_dims".into(), lay(v.squeeze_dims(&a.ints(3)))),
        6 => ("transpose".into(), lay(v.transpose(a.dim(r), a.dim(r)))),
        7 => ("t".into(), lay(v.t())),
        8 => ("permute".into(), lay(v.permute(&a.ints(r as u64 + 1)))),
        9 => (
            "movedim".into(),
            lay(v.movedim(&a.ints(r as u64), &a.ints(r as u64))),
        ),
        10 => (
            "diagonal".into(),
            lay(v.diagonal(a.int(), a.dim(r), a.dim(r))),
        ),
        11 => ("unfold".into(), lay(v.unfold(a.dim(r), a.size(), a.size()))),
        12 => ("view".into(), lay(v.view(&a.ints(4)))),
        13 => ("unflatten".into(), lay(v.unflatten(a.dim(r), &a.ints(3)))),
        14 => {
            let offset = (a.below(2) == 0).then(|| a.size());
            (
                "as_strided".into(),
                lay(v.as_strided(&a.sizes(3), &a.ints(3), offset)),
            )
        }
        15 => ("expand".into(), lay(v.expand(&a.ints(r as u64 + 2)))),
        16 if small => {
            let shape = a.ints(4);
            let out = v
                .reshape(&shape)
                .map(|m| m.is_view().then(|| m.as_ref().layout().clone()));
            (
                "reshape".into(),
                out.transpose().or(Some(Ok(v.layout().clone()))),
            )
        }
        17 if small => {
            let out = v.flatten(a.dim(r), a.dim(r));
            let out = out.map(|m| m.is_view().then(|| m.as_ref().layout().clone()));
            (
                "flatten".into(),
                out.transpose().or(Some(Ok(v.layout().clone()))),
            )
        }
        18 if small => {
            let out = v.contiguous().map(|m| m.as_ref().shape() == v.shape());
            assert!(out.unwrap_or(true));
            ("contiguous".into(), None)
        }
        _ => {
            // Copies of a possibly huge broadcast view are refused or made
            // only when small: an expand to 2^40 elements is never read.
            if small {
                let _ = v.to_vec::<f32>();
                let _ = RawTensor::from_parts(v.storage().clone(), v.layout().clone(), DType::F32);
            }
            ("read".into(), None)
        }
    }
}

/// The same kind of op on a mutable view.
fn mut_op(m: TensorMut<'_>, a: &mut Args) -> Option<Result<Layout>> {
    let r = m.dim();
    let lay = |x: Result<TensorMut<'_>>| Some(x.map(|t| t.layout().clone()));
    match a.below(15) {
        0 => lay(m.slice(a.dim(r), a.opt(), a.opt(), a.int())),
        1 => lay(m.select(a.dim(r), a.int())),
        2 => lay(m.narrow(a.dim(r), a.int(), a.size())),
        3 => lay(m.unsqueeze(a.dim(r + 1))),
        4 => lay(Ok(m.squeeze())),
        5 => lay(m.squeeze_dims(&a.ints(3))),
        6 => lay(m.transpose(a.dim(r), a.dim(r))),
        7 => lay(m.t()),
        8 => lay(m.permute(&a.ints(r as u64 + 1))),
        9 => lay(m.movedim(&a.ints(r as u64), &a.ints(r as u64))),
        10 => lay(m.diagonal(a.int(), a.dim(r), a.dim(r))),
        11 => lay(m.unfold(a.dim(r), a.size(), a.size())),
        12 => lay(m.view(&a.ints(4))),
        13 => lay(m.unflatten(a.dim(r), &a.ints(3))),
        _ => {
            let offset = (a.below(2) == 0).then(|| a.size());
            lay(m.as_strided(&a.sizes(3), &a.ints(3), offset))
        }
    }
}

#[test]
fn storage_len_is_what_views_are_checked_against() {
    let s = Storage::from_slice(&[0.0f32; 6]);
    let v = TensorRef::new(&s, Layout::contiguous(&[2, 3]), DType::F32).unwrap();
    assert!(v.as_strided(&[7], &[1], None).is_err());
    assert!(v.as_strided(&[6], &[1], None).is_ok());
}
