//! The reductions as accumulators: an identity, a step that takes one
//! element, an associative combine of two partial results, and a finish.
//! The walker ([`super::walk`]) decides the order; these decide the values.

use std::marker::PhantomData;

use super::walk::{lanes, lanes_of};
use super::widen::{Num, Ordered, Real, Widen};
use crate::Element;

/// One reduction. `combine` must be associative (and commutative up to the
/// index tie-break of the arg reductions): the walker combines partial
/// results pairwise, lane by lane, and across threads.
pub(crate) trait Reducer: Copy + Send + Sync {
    /// The element read; steps take it widened.
    type In: Widen;
    /// The partial result.
    type Acc: Copy + Send + Sync;
    /// The element written.
    type Out: Element;
    /// The result of reducing nothing.
    fn identity(self) -> Self::Acc;
    /// Adds element `x` (widened), at flat position `index` in the reduced dims.
    fn step(self, acc: Self::Acc, x: Wide<Self>, index: usize) -> Self::Acc;
    /// Merges two partial results; `a` covers earlier positions than `b`.
    fn combine(self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// The output element for `count` reduced elements.
    fn finish(self, acc: Self::Acc, count: usize) -> Self::Out;
    /// Reduces a contiguous run of items at flat positions from `first`,
    /// each widened by `widen`: by default [`lanes_of`] steps.
    #[inline(always)]
    fn run<I: Copy>(self, xs: &[I], first: usize, widen: impl Fn(I) -> Wide<Self>) -> Self::Acc {
        lanes_of(self, xs, first, widen)
    }
    /// Whether [`Reducer::run4`] reads its four runs side by side (the
    /// walker then groups unit-stride runs by four).
    const RUNS4: bool = false;
    /// Four contiguous runs of the same length at flat positions from
    /// `first`: the same values as [`lanes`] on each.
    #[inline(always)]
    fn run4(self, runs: [&[Self::In]; 4], first: usize) -> [Self::Acc; 4] {
        runs.map(|xs| lanes(self, xs, first))
    }
}

/// The widened element a reducer steps on.
pub(crate) type Wide<R> = <<R as Reducer>::In as Widen>::W;

/// Declares zero-sized reducers: `Copy` and `Default` whatever their type
/// parameters are (a derive would require them of `T`).
macro_rules! zst_reducer {
    ($($(#[$doc:meta])* $name:ident<$($t:ident),+ $(; const $c:ident: bool)?>;)*) => {$(
        $(#[$doc])*
        pub(crate) struct $name<$($t,)+ $(const $c: bool)?>(PhantomData<($($t,)+)>);
        impl<$($t,)+ $(const $c: bool)?> Clone for $name<$($t,)+ $($c)?> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<$($t,)+ $(const $c: bool)?> Copy for $name<$($t,)+ $($c)?> {}
        impl<$($t,)+ $(const $c: bool)?> Default for $name<$($t,)+ $($c)?> {
            fn default() -> Self {
                $name(PhantomData)
            }
        }
    )*};
}
zst_reducer! {
    /// `sum`: floats in their compute float, integers and bool in i64.
    Sum<T>;
    /// `prod`, accumulated as `sum` (complex numbers as they are).
    Prod<T>;
    /// `mean` (floats): the f32/f64 sum divided by the count.
    Mean<T>;
    /// `amax`: NaN propagates.
    Max<T>;
    /// `amin`: NaN propagates.
    Min<T>;
    /// `all` (`ALL = true`) or `any`: a non-zero test (NaN counts), written as
    /// 0/1 in `O` (bool, or u8 for u8 input).
    Truth<T, O; const ALL: bool>;
    /// `argmax` (`MAX = true`) or `argmin`: the first index of the extremum, or
    /// of the first NaN. The partial result is (value, index), index `usize::MAX`
    /// when nothing was seen yet.
    Arg<T; const MAX: bool>;
}

/// `b` replaces `a` as the running max: larger, or NaN (which then stays).
#[inline(always)]
fn takes_max<N: Ordered>(a: N, b: N) -> bool {
    b > a || b.is_nan()
}

/// `b` replaces `a` as the running min: smaller, or NaN.
#[inline(always)]
fn takes_min<N: Ordered>(a: N, b: N) -> bool {
    b < a || b.is_nan()
}

/// The running max of `a` and `b` (NaN propagates).
#[inline(always)]
fn max_nan<N: Ordered>(a: N, b: N) -> N {
    if takes_max(a, b) { b } else { a }
}

/// The running min of `a` and `b` (NaN propagates).
#[inline(always)]
fn min_nan<N: Ordered>(a: N, b: N) -> N {
    if takes_min(a, b) { b } else { a }
}

/// Reducers that fold one associative operation over the widened elements
/// from its identity (a step is a combine), then finish the result.
/// Those that name [`Widen::SUM4`] take the type's four-run kernel for
/// [`Reducer::run4`].
macro_rules! fold_reducer {
    ($($name:ident<T: $bound:path>: $identity:ident, $op:path => $out:ty,
        |$acc:ident, $count:tt| $finish:expr $(, $sum4:ident)?;)*) => {$(
        impl<T: $bound> Reducer for $name<T> {
            type In = T;
            type Acc = T::W;
            type Out = $out;
            #[inline(always)]
            fn identity(self) -> T::W {
                T::W::$identity
            }
            #[inline(always)]
            fn step(self, acc: T::W, x: T::W, _: usize) -> T::W {
                $op(acc, x)
            }
            #[inline(always)]
            fn combine(self, a: T::W, b: T::W) -> T::W {
                $op(a, b)
            }
            #[inline(always)]
            fn finish(self, $acc: T::W, $count: usize) -> $out {
                $finish
            }
            $(
                const RUNS4: bool = T::$sum4.is_some();
                #[inline(always)]
                fn run4(self, runs: [&[T]; 4], first: usize) -> [T::W; 4] {
                    match T::$sum4 {
                        Some(sum4) => sum4(runs),
                        None => runs.map(|xs| lanes(self, xs, first)),
                    }
                }
            )?
        }
    )*};
}
fold_reducer! {
    Sum<T: Widen>: ZERO, Num::add => T::SumOut, |acc, _| T::sum_out(acc), SUM4;
    Prod<T: Widen>: ONE, Num::mul => T::SumOut, |acc, _| T::sum_out(acc);
    // PyTorch divides the f32 (f64) sum, then rounds once to f16/bf16.
    Mean<T: Widen<W: Real>>: ZERO, Num::add => T, |acc, count| T::narrow(acc.div_count(count)), SUM4;
    Max<T: Widen<W: Ordered>>: LOWEST, max_nan => T, |acc, _| T::narrow(acc);
    Min<T: Widen<W: Ordered>>: HIGHEST, min_nan => T, |acc, _| T::narrow(acc);
}

impl<T: Widen, O: Element, const ALL: bool> Reducer for Truth<T, O, ALL> {
    type In = T;
    type Acc = bool;
    type Out = O;
    #[inline(always)]
    fn identity(self) -> bool {
        ALL
    }
    #[inline(always)]
    fn step(self, acc: bool, x: T::W, _: usize) -> bool {
        // `!=` is true for NaN, as PyTorch's `x != 0`.
        self.combine(acc, x != T::W::ZERO)
    }
    #[inline(always)]
    fn combine(self, a: bool, b: bool) -> bool {
        if ALL { a & b } else { a | b }
    }
    #[inline(always)]
    fn finish(self, acc: bool, _: usize) -> O {
        O::from_i64(acc as i64)
    }
}

/// Welford's running count, mean and sum of squared deviations, in f64 as
/// PyTorch's CPU kernel keeps them for every float dtype.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Welford {
    count: f64,
    mean: f64,
    m2: f64,
}

/// `var` (`SQRT = false`) or `std` with a `correction`.
pub(crate) struct Moments<T, const SQRT: bool> {
    correction: f64,
    ty: PhantomData<T>,
}

impl<T, const SQRT: bool> Moments<T, SQRT> {
    /// The reducer for `correction` (1 is Bessel's).
    pub(crate) fn new(correction: f64) -> Self {
        Moments {
            correction,
            ty: PhantomData,
        }
    }
}

impl<T, const SQRT: bool> Clone for Moments<T, SQRT> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const SQRT: bool> Copy for Moments<T, SQRT> {}

impl<T: Widen<W: Real>, const SQRT: bool> Reducer for Moments<T, SQRT> {
    type In = T;
    type Acc = Welford;
    type Out = T;
    #[inline(always)]
    fn identity(self) -> Welford {
        Welford {
            count: 0.0,
            mean: 0.0,
            m2: 0.0,
        }
    }
    #[inline(always)]
    fn step(self, acc: Welford, x: T::W, _: usize) -> Welford {
        let x = x.to_f64();
        let count = acc.count + 1.0;
        let delta = x - acc.mean;
        let mean = acc.mean + delta / count;
        Welford {
            count,
            mean,
            m2: acc.m2 + delta * (x - mean),
        }
    }
    #[inline(always)]
    fn combine(self, a: Welford, b: Welford) -> Welford {
        if a.count == 0.0 {
            return b;
        }
        if b.count == 0.0 {
            return a;
        }
        let count = a.count + b.count;
        let delta = b.mean - a.mean;
        let b_share = b.count / count;
        Welford {
            count,
            mean: a.mean + delta * b_share,
            m2: a.m2 + b.m2 + delta * delta * a.count * b_share,
        }
    }
    #[inline(always)]
    fn finish(self, acc: Welford, _: usize) -> T {
        // PyTorch: a divisor that would be ≤ 0 is 0, so m2/0 is inf or NaN.
        let divisor = (acc.count - self.correction).max(0.0);
        let var = acc.m2 / divisor;
        T::from_f64(if SQRT { var.sqrt() } else { var })
    }
}

impl<T: Widen<W: Ordered>, const MAX: bool> Arg<T, MAX> {
    /// `b` beats `a` strictly (a NaN beats any number, and nothing beats a NaN).
    #[inline(always)]
    fn beats(a: T::W, b: T::W) -> bool {
        !a.is_nan()
            && if MAX {
                takes_max(a, b)
            } else {
                takes_min(a, b)
            }
    }
}

impl<T: Widen<W: Ordered>, const MAX: bool> Reducer for Arg<T, MAX> {
    type In = T;
    type Acc = (T::W, usize);
    type Out = i64;
    #[inline(always)]
    fn identity(self) -> (T::W, usize) {
        (T::W::ZERO, usize::MAX)
    }
    #[inline(always)]
    fn step(self, acc: (T::W, usize), x: T::W, index: usize) -> (T::W, usize) {
        if acc.1 == usize::MAX || Self::beats(acc.0, x) {
            (x, index)
        } else {
            acc
        }
    }
    #[inline(always)]
    fn combine(self, a: (T::W, usize), b: (T::W, usize)) -> (T::W, usize) {
        if b.1 == usize::MAX {
            return a;
        }
        if a.1 == usize::MAX || Self::beats(a.0, b.0) {
            return b;
        }
        // Ties (equal, or both NaN) go to the first index.
        let tie = a.0 == b.0 || (a.0.is_nan() && b.0.is_nan());
        if tie && b.1 < a.1 { b } else { a }
    }
    #[inline(always)]
    fn finish(self, acc: (T::W, usize), _: usize) -> i64 {
        acc.1 as i64
    }
    /// Two passes that vectorise, rather than a step per element: the
    /// extremum (NaN if any) as `amax`/`amin` finds it, then its first index.
    #[inline(always)]
    fn run<I: Copy>(self, xs: &[I], first: usize, widen: impl Fn(I) -> T::W) -> (T::W, usize) {
        let best = if MAX {
            lanes_of(Max::<T>::default(), xs, first, &widen)
        } else {
            lanes_of(Min::<T>::default(), xs, first, &widen)
        };
        let at = if best.is_nan() {
            first_where(xs, |x| widen(x).is_nan())
        } else {
            first_where(xs, |x| widen(x) == best)
        };
        match at {
            Some(i) => (widen(xs[i]), first + i),
            None => self.identity(),
        }
    }
}

/// The index of the first item of `xs` that is a `hit`, tested a block at a
/// time (a block's test vectorises; the found block is then searched).
#[inline(always)]
fn first_where<I: Copy>(xs: &[I], hit: impl Fn(I) -> bool) -> Option<usize> {
    const CHUNK: usize = 64;
    xs.chunks(CHUNK).enumerate().find_map(|(c, part)| {
        let any = part.iter().fold(false, |found, &x| found | hit(x));
        any.then(|| part.iter().position(|&x| hit(x)))
            .flatten()
            .map(|i| c * CHUNK + i)
    })
}
