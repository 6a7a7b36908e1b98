//! Batched matrix products through the `gemm` crate, which takes row and
//! column strides in elements: any strided operand (transposed, sliced,
//! broadcast with stride 0) is read where it lies, without a copy.
//!
//! f32 and f64 go straight to `gemm`. f16, bf16 and the float8s are widened
//! to f32, multiplied in f32 and rounded once, as PyTorch's CPU kernels do;
//! `gemm`'s own f16 kernel rounds partial sums to f16 between blocks of the
//! contracted dim. Complex numbers and integers are summed in order in their
//! own type, integers wrapping around on overflow.
//!
//! Large products use `gemm`'s threads; many small ones run batches in parallel.

use rayon::prelude::*;

use super::access::{SendPtr, out_ptr, read_ptr};
use super::convert::Half;
use super::gemm_at::{self, GemmElem, Product};
use crate::float8::{F8E4M3Fn, F8E4M3FnUz, F8E5M2, F8E5M2FnUz};
use crate::ops::{Addmm, Matmul};
use crate::plan::{MatStrides, MatmulPlan, Odometer};
use crate::{Cpu, DType, Element, Error, Input, Output, Result};
use num_complex::Complex;
use std::num::Wrapping;

/// The product's shape, checked by the device-independent rules.
type Problem = MatmulPlan;

/// The CPU's walk over the batches of a product `p`: calls `f(lhs, rhs,
/// dst, parallelism, state)` with the element offsets of each batch,
/// running batches on several threads when each product is too small for
/// `gemm`'s own threads; `state` is per-thread scratch.
fn for_each_batch<S: Default>(
    p: &Problem,
    f: impl Fn([isize; 3], gemm::Parallelism, &mut S) + Sync,
) {
    let batches = p.batch.numel();
    if p.m == 0 || p.n == 0 {
        return;
    }
    let threshold = gemm::get_threading_threshold();
    let threads = rayon::current_num_threads() > 1 && p.disjoint;
    let big = p.flops() >= threshold;
    let offsets = |b: usize| {
        let at = Odometer::new(&p.batch, b).offsets;
        std::array::from_fn(|i| p.offsets[i] as isize + at[i])
    };
    if threads && !big && batches > 1 && p.flops().saturating_mul(batches) >= threshold {
        (0..batches)
            .into_par_iter()
            .for_each_init(S::default, |s, b| f(offsets(b), gemm::Parallelism::None, s));
        return;
    }
    let par = if threads && big {
        gemm::Parallelism::Rayon(0)
    } else {
        gemm::Parallelism::None
    };
    let mut s = S::default();
    for b in 0..batches {
        f(offsets(b), par, &mut s);
    }
}

/// `dst = lhs @ rhs`.
pub(crate) fn matmul(lhs: Input<'_, Cpu>, rhs: Input<'_, Cpu>, dst: Output<'_, Cpu>) -> Result<()> {
    product(lhs, rhs, dst, false)
}

/// `dst = bias + lhs @ rhs`: the bias is copied into `dst`, which the
/// product then accumulates into (`gemm` reads it in its last step).
pub(crate) fn addmm(
    bias: Input<'_, Cpu>,
    lhs: Input<'_, Cpu>,
    rhs: Input<'_, Cpu>,
    dst: Output<'_, Cpu>,
) -> Result<()> {
    // Checked before the bias is written, so that a refused product writes nothing.
    Addmm::plan(&bias, &lhs, &rhs, &dst)?;
    super::copy::copy(
        bias,
        Output {
            storage: &mut *dst.storage,
            layout: dst.layout.clone(),
            dtype: dst.dtype,
        },
    )?;
    product(lhs, rhs, dst, true)
}

/// `dst = lhs @ rhs`, or `dst += lhs @ rhs` when `accumulate` is set.
fn product(
    lhs: Input<'_, Cpu>,
    rhs: Input<'_, Cpu>,
    mut dst: Output<'_, Cpu>,
    accumulate: bool,
) -> Result<()> {
    let problem = Matmul::plan(&lhs, &rhs, &dst)?;
    match dst.dtype {
        DType::F32 => direct::<f32>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::F64 => direct::<f64>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::F16 => widened::<half::f16>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::BF16 => widened::<half::bf16>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::F8E4M3Fn => widened::<F8E4M3Fn>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::F8E5M2 => widened::<F8E5M2>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::F8E4M3FnUz => widened::<F8E4M3FnUz>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::F8E5M2FnUz => widened::<F8E5M2FnUz>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::C64 => looped::<Complex<f32>>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::C128 => looped::<Complex<f64>>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::U8 => looped::<Wrapping<u8>>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::I8 => looped::<Wrapping<i8>>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::I16 => looped::<Wrapping<i16>>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::I32 => looped::<Wrapping<i32>>(&problem, &lhs, &rhs, &mut dst, accumulate),
        DType::I64 => looped::<Wrapping<i64>>(&problem, &lhs, &rhs, &mut dst, accumulate),
        dtype => Err(Error::Unsupported {
            op: "addmm_impl_cpu_",
            dtype,
        }),
    }
}

/// An element the products without a `gemm` kernel multiply and add in
/// its own type: a complex number (in its parts' precision), or an integer
/// as `Wrapping` (wrapping around on overflow, as PyTorch's integer
/// products and axial's integer `add` and `mul` do).
trait Ring: Copy + Send + Sync + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> {
    /// The element as stored.
    type Stored: Element;
    /// `0`.
    const ZERO: Self;
    /// The stored element as a ring element.
    fn load(x: Self::Stored) -> Self;
    /// Back to the stored element.
    fn store(self) -> Self::Stored;
}

impl<F: num_traits::Float + Send + Sync + 'static> Ring for Complex<F>
where
    Complex<F>: Element,
{
    type Stored = Self;
    const ZERO: Self = <Complex<F> as Element>::ZERO;
    fn load(x: Self) -> Self {
        x
    }
    fn store(self) -> Self {
        self
    }
}

macro_rules! int_ring {
    ($($t:ty),*) => {$(
        impl Ring for Wrapping<$t> {
            type Stored = $t;
            const ZERO: Self = Wrapping(0);
            #[inline(always)]
            fn load(x: $t) -> Self {
                Wrapping(x)
            }
            #[inline(always)]
            fn store(self) -> $t {
                self.0
            }
        }
    )*};
}
int_ring!(u8, i8, i16, i32, i64);

/// The complex and integer products: each output element the sum over the
/// contracted dim in order, in the element's own type.
fn looped<R: Ring>(
    p: &Problem,
    lhs: &Input<'_, Cpu>,
    rhs: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    accumulate: bool,
) -> Result<()> {
    let (pl, pr, pd) = pointers::<R::Stored>(lhs, rhs, dst)?;
    for_each_batch(p, |[l, r, d], _, _: &mut ()| {
        for i in 0..p.m as isize {
            for j in 0..p.n as isize {
                let mut acc = R::ZERO;
                for k in 0..p.k as isize {
                    // SAFETY: the batch's matrices are elements of layouts
                    // checked in bounds of their storages (as in `direct`);
                    // i < m, j < n and k < k index inside them.
                    let (a, b) = unsafe {
                        (
                            *pl.get().wrapping_offset(l + i * p.lhs.row + k * p.lhs.col),
                            *pr.get().wrapping_offset(r + k * p.rhs.row + j * p.rhs.col),
                        )
                    };
                    acc = acc + R::load(a) * R::load(b);
                }
                let at = pd.get().wrapping_offset(d + i * p.dst.row + j * p.dst.col);
                // SAFETY: as above; each output element of a batch is
                // written by this batch only (batches run in parallel only
                // when dst does not overlap itself).
                unsafe { *at = if accumulate { R::load(*at) + acc } else { acc }.store() };
            }
        }
    });
    Ok(())
}

/// The checked base pointers of the three operands.
fn pointers<T: Element>(
    lhs: &Input<'_, Cpu>,
    rhs: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
) -> Result<(SendPtr<T>, SendPtr<T>, SendPtr<T>)> {
    Ok((
        read_ptr::<T>("matmul", lhs)?,
        read_ptr::<T>("matmul", rhs)?,
        out_ptr::<T>("matmul", dst)?,
    ))
}

/// f32 and f64: `gemm` on the operands where they lie.
fn direct<T: Element + GemmElem>(
    p: &Problem,
    lhs: &Input<'_, Cpu>,
    rhs: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    accumulate: bool,
) -> Result<()> {
    let (pl, pr, pd) = pointers::<T>(lhs, rhs, dst)?;
    for_each_batch(p, |[l, r, d], par, _: &mut ()| {
        // SAFETY: each batch's matrices are elements of layouts checked in
        // bounds of their storages; `gemm` reads lhs and rhs at
        // `i * row + j * col` within them and writes each dst element of this
        // batch once. Batches run in parallel only when dst does not overlap
        // itself, so they write disjoint elements; the inputs are shared
        // borrows, the output a unique one.
        unsafe {
            gemm_at::run(
                Product {
                    m: p.m,
                    n: p.n,
                    k: p.k,
                    dst: (pd.get().wrapping_offset(d), p.dst.col, p.dst.row),
                    read_dst: accumulate,
                    lhs: (
                        pl.get().cast_const().wrapping_offset(l),
                        p.lhs.col,
                        p.lhs.row,
                    ),
                    rhs: (
                        pr.get().cast_const().wrapping_offset(r),
                        p.rhs.col,
                        p.rhs.row,
                    ),
                    alpha: if accumulate { T::ONE } else { T::ZERO },
                    beta: T::ONE,
                },
                par,
            )
        }
    });
    Ok(())
}

/// f32 copies of one batch's operands and result.
#[derive(Default)]
struct Widened {
    lhs: Vec<f32>,
    rhs: Vec<f32>,
    dst: Vec<f32>,
}

/// f16, bf16 and the float8s: widen both operands (and `dst` when accumulating) to
/// contiguous f32, multiply, round once.
fn widened<T: Element + Half>(
    p: &Problem,
    lhs: &Input<'_, Cpu>,
    rhs: &Input<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    accumulate: bool,
) -> Result<()> {
    let (pl, pr, pd) = pointers::<T>(lhs, rhs, dst)?;
    let (m, k, n) = (p.m, p.k, p.n);
    for_each_batch(p, |[l, r, d], par, w: &mut Widened| {
        w.lhs.resize(m * k, 0.0);
        w.rhs.resize(k * n, 0.0);
        w.dst.resize(m * n, 0.0);
        // SAFETY: as in `direct`: the batch's matrices lie in bounds, and
        // batches in parallel write disjoint dst elements.
        unsafe {
            load(pl.get().wrapping_offset(l), (m, k), p.lhs, &mut w.lhs);
            load(pr.get().wrapping_offset(r), (k, n), p.rhs, &mut w.rhs);
            if accumulate {
                load(pd.get().wrapping_offset(d), (m, n), p.dst, &mut w.dst);
            }
            gemm_at::run(
                Product {
                    m,
                    n,
                    k,
                    dst: (w.dst.as_mut_ptr(), 1, n as isize),
                    read_dst: accumulate,
                    lhs: (w.lhs.as_ptr(), 1, k as isize),
                    rhs: (w.rhs.as_ptr(), 1, n as isize),
                    alpha: if accumulate { 1.0f32 } else { 0.0 },
                    beta: 1.0f32,
                },
                par,
            );
            store(&w.dst, (m, n), pd.get().wrapping_offset(d), p.dst);
        }
    });
    Ok(())
}

/// Widens a `rows × cols` strided matrix into a row-major f32 buffer.
///
/// # Safety
/// Every element `src + i * row + j * col` is readable.
unsafe fn load<T: Half>(
    src: *const T,
    (rows, cols): (usize, usize),
    st: MatStrides,
    out: &mut [f32],
) {
    for (i, out) in out.chunks_exact_mut(cols.max(1)).take(rows).enumerate() {
        let row = src.wrapping_offset(i as isize * st.row);
        if st.col == 1 {
            // SAFETY: a unit-stride row of `cols` readable elements.
            T::widen_run(unsafe { std::slice::from_raw_parts(row, cols) }, out);
        } else {
            for (j, o) in out.iter_mut().enumerate() {
                // SAFETY: element (i, j), readable by the caller's contract.
                *o = unsafe { *row.wrapping_offset(j as isize * st.col) }.widen();
            }
        }
    }
}

/// Rounds a row-major f32 `rows × cols` matrix into a strided one.
///
/// # Safety
/// Every element `dst + i * row + j * col` is writable and no one else
/// accesses them meanwhile.
unsafe fn store<T: Half>(src: &[f32], (rows, cols): (usize, usize), dst: *mut T, st: MatStrides) {
    for (i, src) in src.chunks_exact(cols.max(1)).take(rows).enumerate() {
        let row = dst.wrapping_offset(i as isize * st.row);
        if st.col == 1 {
            // SAFETY: a unit-stride row of `cols` writable elements.
            T::narrow_run(src, unsafe { std::slice::from_raw_parts_mut(row, cols) });
        } else {
            for (j, &v) in src.iter().enumerate() {
                // SAFETY: element (i, j), writable by the caller's contract.
                unsafe { *row.wrapping_offset(j as isize * st.col) = T::narrow(v) };
            }
        }
    }
}
