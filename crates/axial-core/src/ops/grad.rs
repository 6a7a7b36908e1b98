//! The forward ops the derivatives are written with: each a new tensor on
//! the operands' device, computed by the device's primitives, so that every
//! device that runs the forward ops runs the backward pass too. The
//! formulas themselves sit beside each op's forward rule (`backward` in
//! each family's file); the tape that calls them is [`crate::autograd`].

use std::any::TypeId;

use rayon::prelude::*;

use crate::autograd::Grad;
use crate::{
    Backend, BinaryOp, CmpOp, DType, Device, Error, RawTensor, ReduceOp, Result, Scalar, TensorRef,
    UnaryOp,
};

/// Anything a formula reads as a tensor: an owned tensor, a view, a
/// gradient.
pub(crate) trait AsView<D: Device> {
    /// The elements as a view.
    fn as_view(&self) -> TensorRef<'_, D>;
}

impl<D: Device> AsView<D> for RawTensor<D> {
    fn as_view(&self) -> TensorRef<'_, D> {
        self.view()
    }
}

impl<D: Device> AsView<D> for TensorRef<'_, D> {
    fn as_view(&self) -> TensorRef<'_, D> {
        self.clone()
    }
}

impl<D: Device> AsView<D> for Grad<D> {
    fn as_view(&self) -> TensorRef<'_, D> {
        self.view()
    }
}

/// `op(a, b)`, broadcast.
pub(crate) fn bin<D: Backend>(
    op: BinaryOp,
    a: &impl AsView<D>,
    b: &impl AsView<D>,
) -> Result<RawTensor<D>> {
    a.as_view().binary(op, &b.as_view())
}

/// `a * b`, broadcast.
pub(crate) fn mul<D: Backend>(a: &impl AsView<D>, b: &impl AsView<D>) -> Result<RawTensor<D>> {
    bin(BinaryOp::Mul, a, b)
}

/// `a / b`, broadcast.
pub(crate) fn div<D: Backend>(a: &impl AsView<D>, b: &impl AsView<D>) -> Result<RawTensor<D>> {
    bin(BinaryOp::Div, a, b)
}

/// `a + b`, broadcast.
pub(crate) fn add<D: Backend>(a: &impl AsView<D>, b: &impl AsView<D>) -> Result<RawTensor<D>> {
    bin(BinaryOp::Add, a, b)
}

/// `a - b`, broadcast.
pub(crate) fn sub<D: Backend>(a: &impl AsView<D>, b: &impl AsView<D>) -> Result<RawTensor<D>> {
    bin(BinaryOp::Sub, a, b)
}

/// `a * s`.
pub(crate) fn scale<D: Backend>(a: &impl AsView<D>, s: f64) -> Result<RawTensor<D>> {
    a.as_view().binary_scalar(BinaryOp::Mul, Scalar::Float(s))
}

/// `a + s`.
pub(crate) fn add_scalar<D: Backend>(a: &impl AsView<D>, s: f64) -> Result<RawTensor<D>> {
    a.as_view().binary_scalar(BinaryOp::Add, Scalar::Float(s))
}

/// `s - a`.
pub(crate) fn rsub_scalar<D: Backend>(s: f64, a: &impl AsView<D>) -> Result<RawTensor<D>> {
    a.as_view().scalar_binary(BinaryOp::Sub, Scalar::Float(s))
}

/// `op(a)`.
pub(crate) fn un<D: Backend>(op: UnaryOp, a: &impl AsView<D>) -> Result<RawTensor<D>> {
    a.as_view().unary(op)
}

/// `t = op(t)` in `t`'s own elements: a formula's chain of elementwise
/// steps in one buffer instead of one new tensor per step (a backward
/// pass's peak memory is its saved tensors and such temporaries).
pub(crate) fn un_<D: Backend>(mut t: RawTensor<D>, op: UnaryOp) -> Result<RawTensor<D>> {
    t.view_mut().unary_(op)?;
    Ok(t)
}

/// `t = t op b` in `t`'s own elements, `b` broadcast to `t`'s shape.
pub(crate) fn bin_<D: Backend>(
    mut t: RawTensor<D>,
    op: BinaryOp,
    b: &impl AsView<D>,
) -> Result<RawTensor<D>> {
    t.view_mut().binary_(op, &b.as_view())?;
    Ok(t)
}

/// `t = t op s` in `t`'s own elements.
pub(crate) fn bin_scalar_<D: Backend>(
    mut t: RawTensor<D>,
    op: BinaryOp,
    s: f64,
) -> Result<RawTensor<D>> {
    t.view_mut().binary_scalar_(op, Scalar::Float(s))?;
    Ok(t)
}

/// Elements per piece of [`piecewise`]: 64 Ki (256 KiB of f32), so that a
/// piece and the formula's temporaries of it stay in the L2 cache.
const PIECE: usize = 1 << 16;

/// `f(x, g)` for an elementwise formula of two tensors of one shape,
/// computed a piece at a time into one output: the formula's temporaries
/// are pieces, so it holds one tensor of the input's size (its result), as
/// PyTorch's fused backward kernels do, instead of one per step. The
/// result's elements are those of `f` on the whole tensors (an elementwise
/// formula computes each element alone; the pieces are whole multiples of
/// every vector width). Tensors that are small or not both contiguous go
/// to `f` whole.
///
/// On the CPU, as many pieces as there are threads are computed at once,
/// one per thread: a piece's cheap steps are too small to be split among
/// threads, so one piece at a time left the other threads idle (the exact
/// GELU's derivative ran mostly on one core), while the memory held stays
/// a piece per thread. Each element is computed alone, so the bits do not
/// depend on the thread count.
pub(crate) fn piecewise<D: Backend>(
    x: &TensorRef<'_, D>,
    g: &TensorRef<'_, D>,
    f: impl Fn(&TensorRef<'_, D>, &TensorRef<'_, D>) -> Result<RawTensor<D>> + Sync,
) -> Result<RawTensor<D>> {
    let n = x.numel();
    if n <= PIECE || x.shape() != g.shape() || !x.is_contiguous() || !g.is_contiguous() {
        return f(x, g);
    }
    let (flat_x, flat_g) = (x.view(&[-1])?, g.view(&[-1])?);
    let piece = |start: usize| -> Result<(isize, usize, RawTensor<D>)> {
        let len = PIECE.min(n - start);
        let at = start as isize;
        let value = f(&flat_x.narrow(0, at, len)?, &flat_g.narrow(0, at, len)?)?;
        Ok((at, len, value))
    };
    let first = piece(0)?;
    let layout = crate::Layout::contiguous(x.shape());
    let mut out = crate::tensor::alloc_output(x.storage().device(), layout, first.2.dtype())?;
    let mut write = |(at, len, value): (isize, usize, RawTensor<D>)| -> Result<()> {
        let mut flat = out.view_mut().view(&[-1])?.narrow(0, at, len)?;
        flat.copy_(&value.view())
    };
    write(first)?;
    let threads = match TypeId::of::<D>() == TypeId::of::<crate::Cpu>() {
        true => rayon::current_num_threads().max(1),
        // A device's kernels run on its own stream: one host thread.
        false => 1,
    };
    for batch in (PIECE..n).step_by(PIECE * threads) {
        let end = n.min(batch + PIECE * threads);
        if threads == 1 {
            write(piece(batch)?)?;
            continue;
        }
        let starts: Vec<usize> = (batch..end).step_by(PIECE).collect();
        let pieces: Vec<Result<_>> = starts.into_par_iter().map(&piece).collect();
        for p in pieces {
            write(p?)?;
        }
    }
    Ok(out)
}

/// `-a`.
pub(crate) fn neg<D: Backend>(a: &impl AsView<D>) -> Result<RawTensor<D>> {
    un(UnaryOp::Neg, a)
}

/// `a op b`, a bool tensor.
pub(crate) fn cmp<D: Backend>(
    op: CmpOp,
    a: &impl AsView<D>,
    b: &impl AsView<D>,
) -> Result<RawTensor<D>> {
    a.as_view().compare(op, &b.as_view())
}

/// `a op s`, a bool tensor.
pub(crate) fn cmp_scalar<D: Backend>(
    op: CmpOp,
    a: &impl AsView<D>,
    s: f64,
) -> Result<RawTensor<D>> {
    a.as_view().compare_scalar(op, Scalar::Float(s))
}

/// `a` with zeros where the bool `mask` (broadcast to `a`) is true.
pub(crate) fn zero_where<D: Backend>(
    mask: &impl AsView<D>,
    a: &impl AsView<D>,
) -> Result<RawTensor<D>> {
    a.as_view().masked_fill(&mask.as_view(), Scalar::Float(0.0))
}

/// `a` where the bool `cond` is true, zero elsewhere, broadcast to both.
pub(crate) fn keep_where<D: Backend>(
    cond: &impl AsView<D>,
    a: &impl AsView<D>,
) -> Result<RawTensor<D>> {
    let a = a.as_view();
    let zero = RawTensor::full_on(a.storage().device(), &[], Scalar::Float(0.0), a.dtype())?;
    cond.as_view().where_(&a, &zero.view())
}

/// `a` in `dtype`: a view when it already is, else a copy.
pub(crate) fn as_dtype<'a, D: Backend>(
    a: TensorRef<'a, D>,
    dtype: DType,
) -> Result<crate::MaybeOwned<'a, D>> {
    if a.dtype() == dtype {
        return Ok(crate::MaybeOwned::View(a));
    }
    Ok(crate::MaybeOwned::Owned(a.to_dtype(dtype)?))
}

/// A bool tensor as numbers of `dtype` (1 and 0).
pub(crate) fn to_dtype<D: Backend>(a: &impl AsView<D>, dtype: DType) -> Result<RawTensor<D>> {
    a.as_view().to_dtype(dtype)
}

/// Zeros of `shape` and `dtype` on `a`'s device.
pub(crate) fn zeros_on<D: Backend>(
    a: &impl AsView<D>,
    shape: &[usize],
    dtype: DType,
) -> Result<RawTensor<D>> {
    RawTensor::zeros_on(a.as_view().storage().device(), shape, dtype)
}

/// Zeros of `a`'s shape and dtype.
pub(crate) fn zeros_like<D: Backend>(a: &impl AsView<D>) -> Result<RawTensor<D>> {
    let v = a.as_view();
    zeros_on(a, v.shape(), v.dtype())
}

/// The sum over `dims`, kept as size 1.
pub(crate) fn sum_keep<D: Backend>(a: &impl AsView<D>, dims: &[usize]) -> Result<RawTensor<D>> {
    let dims: Vec<isize> = dims.iter().map(|&d| d as isize).collect();
    a.as_view().reduce(ReduceOp::Sum, &dims, true)
}

/// The mean over `dims`, kept as size 1.
pub(crate) fn mean_keep<D: Backend>(a: &impl AsView<D>, dims: &[usize]) -> Result<RawTensor<D>> {
    let dims: Vec<isize> = dims.iter().map(|&d| d as isize).collect();
    a.as_view().reduce(ReduceOp::Mean, &dims, true)
}

/// The dims a gradient of `from` shape sums over to reach `to`, the shape
/// it was broadcast from (PyTorch's `sum_to`): the leading dims `to` lacks,
/// and those `to` has of size 1 where `from`'s are not.
///
/// # Errors
/// `to` does not broadcast to `from`.
pub(crate) fn broadcast_dims(from: &[usize], to: &[usize]) -> Result<Vec<usize>> {
    let unreachable = || {
        Error::invalid(
            "backward",
            format!("a gradient of shape {from:?} cannot be summed to shape {to:?}"),
        )
    };
    let lead = from.len().checked_sub(to.len()).ok_or_else(unreachable)?;
    let mut dims: Vec<usize> = (0..lead).collect();
    for (d, (&f, &t)) in from[lead..].iter().zip(to).enumerate() {
        if t == 1 && f != 1 {
            dims.push(lead + d);
        } else if t != f {
            return Err(unreachable());
        }
    }
    Ok(dims)
}

/// `g` summed over the dims it was broadcast along, to `shape`: itself
/// when it already has that shape.
///
/// # Errors
/// `shape` does not broadcast to `g`'s.
pub(crate) fn sum_to<D: Backend>(g: Grad<D>, shape: &[usize]) -> Result<Grad<D>> {
    if g.shape() == shape {
        return Ok(g);
    }
    let dims = broadcast_dims(g.shape(), shape)?;
    let summed = sum_keep(&g, &dims)?;
    Grad::new(summed).reshaped(shape)
}

/// `g`, of a reduction's output shape (with the reduced `dims` kept as size
/// 1 or not, `keepdim`), broadcast back to the input's `shape`: a view.
///
/// # Errors
/// Shapes that do not fit.
pub(crate) fn unreduce<D: Backend>(
    g: &Grad<D>,
    dims: &[usize],
    keepdim: bool,
    shape: &[usize],
) -> Result<Grad<D>> {
    let kept = kept_shape(shape, dims);
    let g = if keepdim {
        g.clone()
    } else {
        g.clone().reshaped(&kept)?
    };
    g.expanded(shape)
}

/// `shape` with `dims` of size 1.
pub(crate) fn kept_shape(shape: &[usize], dims: &[usize]) -> Vec<usize> {
    let all = dims.is_empty();
    (shape.iter().enumerate())
        .map(|(d, &n)| if all || dims.contains(&d) { 1 } else { n })
        .collect()
}

/// The number of elements a reduction over `dims` of `shape` combines
/// (every dim when `dims` is empty).
pub(crate) fn reduced_count(shape: &[usize], dims: &[usize]) -> usize {
    if dims.is_empty() {
        return shape.iter().product();
    }
    dims.iter().map(|&d| shape[d]).product()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Generator;

    /// GELU's steps on two tensors, as the derivative writes them.
    fn formula(x: &TensorRef<'_, crate::Cpu>, g: &TensorRef<'_, crate::Cpu>) -> Result<RawTensor> {
        let e = un_(scale(x, std::f64::consts::FRAC_1_SQRT_2)?, UnaryOp::Erf)?;
        bin_(bin_(e, BinaryOp::Add, x)?, BinaryOp::Mul, g)
    }

    fn bits(t: &RawTensor) -> Vec<u32> {
        t.view()
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect()
    }

    #[test]
    fn pieces_give_the_whole_formulas_bits() {
        let mut rng = Generator::seed(3);
        // Three pieces and a tail that is no multiple of a vector.
        let shape = [3, PIECE / 4 + 3, 4];
        let x = RawTensor::randn(&shape, DType::F32, &mut rng).unwrap();
        let g = RawTensor::randn(&shape, DType::F32, &mut rng).unwrap();
        let whole = formula(&x.view(), &g.view()).unwrap();
        let pieces = piecewise(&x.view(), &g.view(), formula).unwrap();
        assert_eq!(pieces.shape(), &shape);
        assert!(pieces.view().is_contiguous());
        assert_eq!(bits(&pieces), bits(&whole));
        // Pieces computed a thread each (1, 2, 3 at once): the same bits.
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let pieces = pool.install(|| piecewise(&x.view(), &g.view(), formula).unwrap());
            assert_eq!(bits(&pieces), bits(&whole), "{threads} threads");
        }
        // A transposed input goes to the formula whole, with its result.
        let xt = x.view().transpose(0, 2).unwrap();
        let gt = g.view().transpose(0, 2).unwrap();
        let want = formula(&xt, &gt).unwrap();
        assert_eq!(bits(&piecewise(&xt, &gt, formula).unwrap()), bits(&want));
    }
}
