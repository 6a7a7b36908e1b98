//! Shared test support: random strided layouts over random storages, and a
//! naive element-by-element reference to check kernels against.
#![allow(dead_code, unreachable_pub)]

mod device;

use axial_core::{Device, Element, Layout, RawTensor, Storage};
#[allow(unused_imports)]
pub use device::TestDevice;
use proptest::prelude::*;

/// A tensor of `T` over a random layout of one of the shapes `shape`, built so
/// that layouts are permuted, sliced with steps, offset, and sometimes
/// broadcast (stride 0), with sizes 0 and 1 common.
#[derive(Debug, Clone)]
pub struct Case {
    /// Sizes of the logical tensor.
    pub shape: Vec<usize>,
    /// Its layout over the storage.
    pub layout: Layout,
    /// Elements of the storage (as f64 seeds; convert with `T::from_f64`).
    pub storage: Vec<f64>,
}

impl Case {
    /// The tensor (storage and layout) as `T` elements.
    pub fn tensor<T: Element>(&self) -> RawTensor {
        let data: Vec<T> = self.storage.iter().map(|&v| T::from_f64(v)).collect();
        RawTensor::from_parts(Storage::from_slice(&data), self.layout.clone(), T::DTYPE)
            .expect("generated layouts are in bounds")
    }

    /// The tensor (storage and layout) as `T` elements on `device`.
    pub fn tensor_on<T: Element, D: Device>(&self, device: &D) -> RawTensor<D> {
        let data: Vec<T> = self.storage.iter().map(|&v| T::from_f64(v)).collect();
        let storage = Storage::from_host_slice(device, &data).expect("the device holds the case");
        RawTensor::from_parts(storage, self.layout.clone(), T::DTYPE)
            .expect("generated layouts are in bounds")
    }

    /// The elements in row-major order, read one by one through the layout.
    pub fn naive<T: Element>(&self) -> Vec<T> {
        let data: Vec<T> = self.storage.iter().map(|&v| T::from_f64(v)).collect();
        naive_elements(&data, &self.layout)
    }
}

/// Reads the elements of `layout` over `data` in row-major order, one at a time.
pub fn naive_elements<T: Copy>(data: &[T], layout: &Layout) -> Vec<T> {
    let shape = layout.shape();
    let numel: usize = shape.iter().product();
    let mut out = Vec::with_capacity(numel);
    for flat in 0..numel {
        let mut rem = flat;
        let mut at = layout.offset() as isize;
        for d in (0..shape.len()).rev() {
            let i = rem % shape[d];
            rem /= shape[d];
            at += i as isize * layout.strides()[d];
        }
        out.push(data[at as usize]);
    }
    out
}

/// Row-major index → multi-index for `shape`.
pub fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = flat % shape[d];
        flat /= shape[d];
    }
    idx
}

/// Values the storage is seeded with: small integers, halves, negatives
/// (exact in every dtype), and occasionally NaN when `nan` is set.
fn value(nan: bool) -> impl Strategy<Value = f64> {
    let finite = (-8i32..8, 0..2).prop_map(|(i, h)| i as f64 + 0.5 * h as f64);
    if nan {
        prop_oneof![9 => finite, 1 => Just(f64::NAN)].boxed()
    } else {
        finite.boxed()
    }
}

/// A random shape of rank `0..=max_rank` with sizes in `0..=max_size`
/// (size 1 and 0 drawn often).
pub fn shape(max_rank: usize, max_size: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(
        prop_oneof![2 => Just(1usize), 1 => Just(0usize), 6 => 1..=max_size],
        0..=max_rank,
    )
}

/// The random choices behind a case's layout: a permuted base, sliced with
/// steps and starts, with some size-1 dims expanded.
#[derive(Debug, Clone)]
struct Recipe {
    shape: Vec<usize>,
    perm: Vec<usize>,
    steps: Vec<usize>,
    starts: Vec<usize>,
    shown: Vec<usize>,
    broadcast_dims: Vec<bool>,
    base_shape: Vec<usize>,
}

impl Recipe {
    /// Elements of the storage: the base plus an offset of 3.
    fn base_numel(&self) -> usize {
        self.base_shape.iter().product::<usize>() + 3
    }

    /// The layout the choices make.
    fn layout(&self) -> Layout {
        let rank = self.shape.len();
        // Offset 3 into the storage, then the permuted base.
        let base = Layout::contiguous(&self.base_shape);
        let base = Layout::from_parts(base.shape(), base.strides(), 3);
        let mut inverse = vec![0isize; rank];
        for (i, &p) in self.perm.iter().enumerate() {
            inverse[p] = i as isize;
        }
        let mut l = base.permute(&inverse).expect("a permutation");
        for d in 0..rank {
            let (start, step) = (self.starts[d] as isize, self.steps[d] as isize);
            let end = start + step * self.shown[d] as isize;
            l = l
                .slice(d as isize, Some(start), Some(end), step)
                .expect("in range");
            if self.shown[d] == 0 {
                l = l.narrow(d as isize, 0, 0).expect("empty");
            }
        }
        let sizes: Vec<isize> = self.shape.iter().map(|&n| n as isize).collect();
        let l = l.expand(&sizes).expect("only size-1 dims change");
        debug_assert!(
            self.broadcast_dims
                .iter()
                .zip(l.strides())
                .all(|(&b, &s)| !b || s == 0)
        );
        l
    }
}

/// The layout choices for `shape` (see [`case_for`]).
fn recipe(shape: Vec<usize>, broadcast: bool) -> impl Strategy<Value = Recipe> {
    let rank = shape.len();
    let perm = Just((0..rank).collect::<Vec<_>>()).prop_shuffle();
    let steps = prop::collection::vec(1usize..=3, rank);
    let starts = prop::collection::vec(0usize..=2, rank);
    let expand = prop::collection::vec(any::<bool>(), rank);
    (perm, steps, starts, expand).prop_map(move |(perm, steps, starts, expand)| {
        // Base sizes, in the permuted order, big enough for start + step * (n - 1) + 1.
        let mut shown = shape.clone();
        let mut broadcast_dims = vec![false; rank];
        for d in 0..rank {
            if broadcast && expand[d] && shape[d] > 1 {
                shown[d] = 1;
                broadcast_dims[d] = true;
            }
        }
        let need: Vec<usize> = (0..rank)
            .map(|d| starts[d] + steps[d] * shown[d].saturating_sub(1) + 1)
            .collect();
        let base_shape: Vec<usize> = perm.iter().map(|&p| need[p]).collect();
        Recipe {
            shape: shape.clone(),
            perm,
            steps,
            starts,
            shown,
            broadcast_dims,
            base_shape,
        }
    })
}

/// A random layout showing a tensor of `shape`: a larger base tensor with
/// extra elements, permuted, sliced with steps and offsets, with some size-1
/// dims expanded when `broadcast` is set.
pub fn case_for(shape: Vec<usize>, broadcast: bool, nan: bool) -> impl Strategy<Value = Case> {
    recipe(shape, broadcast).prop_flat_map(move |r| {
        prop::collection::vec(value(nan), r.base_numel()).prop_map(move |storage| Case {
            shape: r.shape.clone(),
            layout: r.layout(),
            storage,
        })
    })
}

/// As [`case_for`], for large shapes: the storage comes from a seeded
/// generator (the same kind of values) rather than one strategy per element.
pub fn large_case_for(
    shape: Vec<usize>,
    broadcast: bool,
    nan: bool,
) -> impl Strategy<Value = Case> {
    (recipe(shape, broadcast), any::<u64>()).prop_map(move |(r, seed)| {
        let mut state = seed;
        let storage = (0..r.base_numel())
            .map(|_| {
                // SplitMix64.
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^= z >> 31;
                if nan && z % 10 == 0 {
                    f64::NAN
                } else {
                    ((z >> 8) % 16) as f64 - 8.0 + 0.5 * ((z >> 4) % 2) as f64
                }
            })
            .collect();
        Case {
            shape: r.shape.clone(),
            layout: r.layout(),
            storage,
        }
    })
}

/// A random case of rank up to 4 and sizes up to 5.
pub fn case(broadcast: bool, nan: bool) -> impl Strategy<Value = Case> {
    shape(4, 5).prop_flat_map(move |s| case_for(s, broadcast, nan))
}

/// Two cases whose shapes broadcast together (one of them may have fewer dims
/// or size-1 dims).
pub fn broadcast_pair(nan: bool) -> impl Strategy<Value = (Case, Case)> {
    (shape(4, 4), prop::collection::vec(0..3u8, 4), 0usize..=2).prop_flat_map(
        move |(s, mask, drop)| {
            let other: Vec<usize> = s
                .iter()
                .zip(&mask)
                .map(|(&n, &m)| if m == 0 { 1 } else { n })
                .collect();
            let other = other[drop.min(other.len())..].to_vec();
            let (a, b) = if mask.first() == Some(&1) {
                (other, s)
            } else {
                (s, other)
            };
            (case_for(a, false, nan), case_for(b, false, nan))
        },
    )
}
