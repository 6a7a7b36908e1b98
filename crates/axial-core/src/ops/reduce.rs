//! Reductions over dims ([`ReduceOp`]) and along one dim ([`ArgReduceOp`]):
//! the output dtypes, the dims a tensor accepts, the shapes of the result,
//! and the checks every device makes of its operands. The CUDA kernels are
//! `reduce_<name>_<dtype>` (and `_finish`, which combines the partial
//! results of a reduction split across blocks).

use super::grad::{
    AsView, cmp, cmp_scalar, div, kept_shape, mean_keep, mul, reduced_count, scale, sub, sum_keep,
    to_dtype, un, unreduce, zero_where,
};
use super::scatter::scattered;
use super::unary::{no_derivative, unsaved};
use super::{Derivative, Lowering, Op, OpInfo, Saves};
use crate::autograd::Grad;
use crate::layout::{repeated_dim, wrap_dim};
use crate::plan::{DimVec, ReducePlan};
use crate::{
    Backend, CmpOp, DType, Device, Error, Input, MaybeOwned, Output, Result, TensorRef, UnaryOp,
};

/// Reductions over one or several dims.
///
/// # Example
/// ```
/// use axial_core::{RawTensor, ReduceOp};
/// let x = RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?;
/// let var = x.view().reduce(ReduceOp::Var { correction: 1.0 }, &[1], false)?;
/// assert_eq!(var.to_vec::<f64>()?, vec![0.5, 0.5]);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ReduceOp {
    /// Sum (integers and bool give i64).
    Sum,
    /// Product (integers and bool give i64).
    Prod,
    /// Mean (floats and complex numbers).
    Mean,
    /// Largest value (`amax`; NaN propagates).
    Max,
    /// Smallest value (`amin`; NaN propagates).
    Min,
    /// True when every element is non-zero (bool; u8 stays u8).
    All,
    /// True when some element is non-zero (bool; u8 stays u8).
    Any,
    /// Variance with `correction` (1 is Bessel's; floats, and complex
    /// numbers, whose variance is real: the variances of the real and the
    /// imaginary parts added).
    Var {
        /// Subtracted from the count in the divisor.
        correction: f64,
    },
    /// Standard deviation with `correction` (floats and complex numbers:
    /// the square root of the variance).
    Std {
        /// Subtracted from the count in the divisor.
        correction: f64,
    },
}

impl ReduceOp {
    /// PyTorch's name of the op.
    ///
    /// ```
    /// # use axial_core::ReduceOp;
    /// assert_eq!(ReduceOp::Max.name(), "amax");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Prod => "prod",
            ReduceOp::Mean => "mean",
            ReduceOp::Max => "amax",
            ReduceOp::Min => "amin",
            ReduceOp::All => "all",
            ReduceOp::Any => "any",
            ReduceOp::Var { .. } => "var",
            ReduceOp::Std { .. } => "std",
        }
    }

    /// The dtype of the result, or PyTorch's error.
    ///
    /// ```
    /// # use axial_core::{DType, ReduceOp};
    /// assert_eq!(ReduceOp::Sum.output_dtype(DType::I32)?, DType::I64);
    /// assert_eq!(ReduceOp::All.output_dtype(DType::U8)?, DType::U8);
    /// assert_eq!(
    ///     ReduceOp::Mean.output_dtype(DType::I64).unwrap_err().to_string(),
    ///     "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    /// );
    /// assert_eq!(ReduceOp::Sum.output_dtype(DType::U32)?, DType::I64);
    /// assert_eq!(ReduceOp::Mean.output_dtype(DType::C64)?, DType::C64);
    /// assert_eq!(ReduceOp::Std { correction: 1.0 }.output_dtype(DType::C128)?, DType::F64);
    /// assert_eq!(
    ///     ReduceOp::Max.output_dtype(DType::C64).unwrap_err().to_string(),
    ///     "\"max_values_cpu\" not implemented for 'ComplexFloat'"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn output_dtype(self, dtype: DType) -> Result<DType> {
        if let Some(op) = self.missing_kernel(dtype) {
            return Err(Error::Unsupported { op, dtype });
        }
        match self {
            ReduceOp::Sum | ReduceOp::Prod => Ok(dtype.sum_dtype()),
            ReduceOp::Max | ReduceOp::Min => Ok(dtype),
            ReduceOp::All | ReduceOp::Any if dtype == DType::U8 => Ok(DType::U8),
            ReduceOp::All | ReduceOp::Any => Ok(DType::Bool),
            ReduceOp::Mean if dtype.is_complex() => Ok(dtype),
            // The mean of |x − mean|², a real number.
            ReduceOp::Var { .. } | ReduceOp::Std { .. } if dtype.is_complex() => {
                Ok(dtype.to_real())
            }
            ReduceOp::Mean if !dtype.is_float() => Err(Error::Invalid {
                // PyTorch's own spelling of mean's name here.
                op: "mean()",
                message: format!(
                    "could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                    dtype.scalar_type_name()
                ),
            }),
            // PyTorch's kernel over several output elements; over one, its
            // `std_var_all` refuses ([`ReduceOp::check_moments`]).
            ReduceOp::Var { .. } | ReduceOp::Std { .. } if dtype.is_float8() => {
                Err(Error::Unsupported {
                    op: "std_cpu",
                    dtype,
                })
            }
            ReduceOp::Var { .. } | ReduceOp::Std { .. } if !dtype.is_float() => Err(
                Error::Refused("std and var only support floating point and complex dtypes"),
            ),
            _ => Ok(dtype),
        }
    }

    /// PyTorch's kernel that a reduction lacks for a dtype with few kernels
    /// (`max` of complex numbers or unsigned integers, `sum` of a float8).
    fn missing_kernel(self, dtype: DType) -> Option<&'static str> {
        match self {
            ReduceOp::Max if !dtype.is_basic() => Some("max_values_cpu"),
            ReduceOp::Min if !dtype.is_basic() => Some("min_values_cpu"),
            ReduceOp::Sum | ReduceOp::Mean if dtype.is_float8() => Some("sum_cpu"),
            ReduceOp::Prod if dtype.is_float8() => Some("prod_out_cpu"),
            _ => None,
        }
    }

    /// PyTorch's refusal of `var`/`std` of a float8 of `shape` over `dims`:
    /// its kernel for a single output element has its own message.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, ReduceOp};
    /// let x = RawTensor::zeros(&[2, 3], DType::F8E5M2)?;
    /// let var = ReduceOp::Var { correction: 1.0 };
    /// assert_eq!(
    ///     x.view().reduce(var, &[], false).err().unwrap().to_string(),
    ///     "std_var_all: Unsupported dtype Float8_e5m2"
    /// );
    /// assert_eq!(
    ///     x.view().reduce(var, &[1], false).err().unwrap().to_string(),
    ///     "\"std_cpu\" not implemented for 'Float8_e5m2'"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub(crate) fn check_moments(self, dtype: DType, shape: &[usize], dims: &[isize]) -> Result<()> {
        let moments = matches!(self, ReduceOp::Var { .. } | ReduceOp::Std { .. });
        if !moments || !dtype.is_float8() {
            return Ok(());
        }
        let dims = reduced_dims(self.name(), dims, shape.len())?;
        let outputs: usize = (shape.iter().enumerate())
            .filter(|(d, _)| !dims.contains(d))
            .map(|(_, &n)| n)
            .product();
        if outputs <= 1 {
            return Err(Error::invalid(
                "std_var_all",
                format!("Unsupported dtype {}", dtype.scalar_type_name()),
            ));
        }
        Ok(())
    }

    /// True when an empty reduction has no value (max, min): PyTorch errors.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, ReduceOp};
    /// assert!(ReduceOp::Max.needs_elements() && !ReduceOp::Sum.needs_elements());
    /// let empty = RawTensor::zeros(&[0], DType::F32)?;
    /// assert_eq!(empty.view().reduce(ReduceOp::Sum, &[0], false)?.to_vec::<f32>()?, vec![0.0]);
    /// assert!(empty.view().reduce(ReduceOp::Max, &[0], false).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn needs_elements(self) -> bool {
        matches!(self, ReduceOp::Max | ReduceOp::Min)
    }
}

/// Index reductions; the result is i64.
///
/// # Example
/// ```
/// use axial_core::{ArgReduceOp, RawTensor};
/// let x = RawTensor::from_vec(vec![2i32, 7, 7, 1], &[4])?;
/// let i = x.view().arg_reduce(ArgReduceOp::ArgMax, Some(0), false)?;
/// assert_eq!(i.to_vec::<i64>()?, vec![1]); // the first of the ties
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArgReduceOp {
    /// Index of the largest value (first on ties; NaN wins).
    ArgMax,
    /// Index of the smallest value (first on ties; NaN wins).
    ArgMin,
}

impl ArgReduceOp {
    /// PyTorch's name of the op.
    ///
    /// ```
    /// # use axial_core::ArgReduceOp;
    /// assert_eq!(ArgReduceOp::ArgMin.name(), "argmin");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ArgReduceOp::ArgMax => "argmax",
            ArgReduceOp::ArgMin => "argmin",
        }
    }
}

impl ReduceOp {
    /// Checks a reduction's operands as every device must before it
    /// reduces (the output's dtype, the dims, the output's shape, the
    /// strides, an empty max/min), and plans the walk.
    ///
    /// # Errors
    /// Any of those checks.
    ///
    /// ```
    /// use axial_core::{DType, Layout, Output, RawTensor, ReduceOp, Storage};
    /// let x = RawTensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2])?;
    /// let mut s = Storage::from_slice(&[0i32; 2]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 1]), dtype: DType::I32 };
    /// let err = ReduceOp::Sum.checked_plan(&x.view().input(), &[1], &dst).unwrap_err();
    /// assert_eq!(err.to_string(), "sum: expected dtype torch.int64, got torch.int32"); // sums of i32 are i64
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn checked_plan<D: Device>(
        self,
        src: &Input<'_, D>,
        dims: &[usize],
        dst: &Output<'_, D>,
    ) -> Result<ReducePlan> {
        let name = self.name();
        let out_dtype = self.output_dtype(src.dtype)?;
        if dst.dtype != out_dtype {
            return Err(Error::DTypeMismatch {
                op: name,
                expected: out_dtype,
                got: dst.dtype,
            });
        }
        let plan = ReducePlan::checked(name, &src.layout, dims, &dst.layout)?;
        if self.needs_elements() {
            plan.check_nonempty(name, src.layout.shape(), dims)?;
        }
        Ok(plan)
    }
}

impl ArgReduceOp {
    /// Checks an arg reduction's operands as every device must (an i64
    /// output, the dim, the output's shape, a non-empty dim) and plans the
    /// walk. A 0-dim source accepts dim 0 and has nothing to reduce.
    ///
    /// # Errors
    /// Any of those checks.
    ///
    /// ```
    /// use axial_core::{ArgReduceOp, DType, Layout, Output, RawTensor, Storage};
    /// let x = RawTensor::from_vec(vec![3.0f32, 1.0, 2.0], &[3])?;
    /// let mut s = Storage::from_slice(&[0i64; 1]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[1]), dtype: DType::I64 };
    /// let plan = ArgReduceOp::ArgMin.checked_plan(&x.view().input(), 0, &dst)?;
    /// assert_eq!(plan.reduced.numel(), 3);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn checked_plan<D: Device>(
        self,
        src: &Input<'_, D>,
        dim: usize,
        dst: &Output<'_, D>,
    ) -> Result<ReducePlan> {
        let name = self.name();
        if dst.dtype != DType::I64 {
            return Err(Error::DTypeMismatch {
                op: name,
                expected: DType::I64,
                got: dst.dtype,
            });
        }
        let dims: &[usize] = if src.layout.rank() == 0 && dim == 0 {
            &[]
        } else {
            &[dim]
        };
        let plan = ReducePlan::checked(name, &src.layout, dims, &dst.layout)?;
        plan.check_nonempty(name, src.layout.shape(), dims)?;
        Ok(plan)
    }
}

/// PyTorch's words for a reduction of an empty tensor without a dim.
const NO_DIM: &str = "Expected reduction dim to be specified for input.numel() == 0.";

impl ArgReduceOp {
    /// Refuses what PyTorch's `argmax`/`argmin` refuse before any dim: a
    /// bool tensor, and an empty one without a dim.
    pub(crate) fn check(self, dtype: DType, numel: usize, dim: Option<isize>) -> Result<()> {
        if dtype == DType::Bool {
            return Err(Error::invalid(self.name(), "does not support bool input"));
        }
        if dtype.is_complex() {
            return Err(Error::Refused(match self {
                ArgReduceOp::ArgMax => "argmax(): does not support complex input",
                ArgReduceOp::ArgMin => "argmin(): does not support complex input",
            }));
        }
        if !dtype.is_basic() {
            let op = match self {
                ArgReduceOp::ArgMax => "argmax_cpu",
                ArgReduceOp::ArgMin => "argmin_cpu",
            };
            return Err(Error::Unsupported { op, dtype });
        }
        self.check_any(numel, dim)
    }

    /// [`ArgReduceOp::check`] for every dtype (`max(dim)` takes bool).
    pub(crate) fn check_any(self, numel: usize, dim: Option<isize>) -> Result<()> {
        if numel == 0 && dim.is_none() {
            return Err(Error::invalid(self.name(), NO_DIM));
        }
        Ok(())
    }
}

/// Wraps `dims` for a tensor of `rank`; an empty list means every dim. A
/// 0-dim tensor accepts dim 0 and -1 and has no dim to reduce. As PyTorch's
/// `resize_reduction`, every dim is wrapped before any repeat is looked for.
pub(crate) fn reduced_dims(op: &'static str, dims: &[isize], rank: usize) -> Result<DimVec<usize>> {
    if dims.is_empty() {
        return Ok((0..rank).collect());
    }
    let mut out: DimVec<usize> = (dims.iter())
        .map(|&d| wrap_dim(d, rank))
        .collect::<Result<_>>()?;
    for (i, &w) in out.iter().enumerate() {
        if out[..i].contains(&w) {
            return Err(repeated_dim(op, w));
        }
    }
    if rank == 0 {
        out.clear();
    }
    Ok(out)
}

/// The shape with `dims` set to 1 (kept) or removed.
pub(crate) fn reduced_shape(shape: &[usize], dims: &[usize], keepdim: bool) -> DimVec<usize> {
    shape
        .iter()
        .enumerate()
        .filter_map(|(d, &n)| match (dims.contains(&d), keepdim) {
            (false, _) => Some(n),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// PyTorch's `zero_numel_check_dims` for `amax`/`amin` of an empty tensor:
/// a dim list is required, and each dim, in order, must be in range and of
/// non-zero size (named as it was given).
pub(crate) fn check_dims_nonempty(op: &'static str, shape: &[usize], dims: &[isize]) -> Result<()> {
    if dims.is_empty() {
        return Err(Error::invalid(
            op,
            format!("{NO_DIM} Specify the reduction dim with the 'dim' argument."),
        ));
    }
    for &d in dims {
        if shape[wrap_dim(d, shape.len())?] == 0 {
            return Err(empty_dim(op, d));
        }
    }
    Ok(())
}

/// The error for reducing a dim of size 0 with an op that has no identity.
pub(crate) fn empty_dim(op: &'static str, dim: isize) -> Error {
    Error::invalid(
        op,
        format!("Expected reduction dim {dim} to have non-zero size."),
    )
}

impl Op for ReduceOp {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: ReduceOp::name(*self),
            lowering: Lowering::Primitive,
            derivative: self.derivative(),
        }
    }
}

impl Op for ArgReduceOp {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: ArgReduceOp::name(*self),
            lowering: Lowering::Primitive,
            derivative: Derivative::None,
        }
    }
}

impl ReduceOp {
    /// The op's derivative: what its backward pass keeps, or none.
    ///
    /// ```
    /// use axial_core::ops::{Derivative, Saves};
    /// use axial_core::ReduceOp;
    /// assert_eq!(ReduceOp::Sum.derivative(), Derivative::Written(Saves::NOTHING));
    /// assert_eq!(ReduceOp::Max.derivative(), Derivative::Written(Saves::BOTH)); // amax
    /// assert_eq!(ReduceOp::Var { correction: 1.0 }.derivative(), Derivative::Written(Saves::INPUT));
    /// assert_eq!(ReduceOp::Any.derivative(), Derivative::None);
    /// ```
    pub fn derivative(self) -> Derivative {
        match self {
            ReduceOp::Sum | ReduceOp::Mean => Derivative::Written(Saves::NOTHING),
            ReduceOp::Var { .. } => Derivative::Written(Saves::INPUT),
            ReduceOp::Std { .. } | ReduceOp::Max | ReduceOp::Min | ReduceOp::Prod => {
                Derivative::Written(Saves::BOTH)
            }
            ReduceOp::All | ReduceOp::Any => Derivative::None,
        }
    }

    /// The input's gradient from `c`, written with forward ops.
    pub(crate) fn backward<D: Backend>(self, c: &ReduceGrad<'_, D>) -> Result<Grad<D>> {
        let count = reduced_count(&c.shape, &c.dims);
        let spread = |g: &Grad<D>| unreduce(g, &c.dims, c.keepdim, &c.shape);
        match self {
            ReduceOp::Sum => spread(&c.g),
            ReduceOp::Mean => spread(&Grad::new(scale(&c.g, 1.0 / count as f64)?)),
            ReduceOp::Var { correction } => var_backward(c, &c.kept_grad()?, correction, count),
            ReduceOp::Std { correction } => {
                let y = c.kept_output()?;
                let half = div(&c.kept_grad()?, &scale(&y, 2.0)?)?;
                let g = zero_where(&cmp_scalar(CmpOp::Eq, &y, 0.0)?, &half)?;
                var_backward(c, &Grad::new(g), correction, count)
            }
            ReduceOp::Max | ReduceOp::Min => {
                let x = c.x()?;
                let y = c.kept_output()?;
                let chosen = to_dtype(&cmp(CmpOp::Eq, x, &y)?, x.dtype())?;
                let ties = sum_keep(&chosen, &c.dims)?;
                let g = spread(&c.g)?;
                let share = div(&g, &ties)?;
                Ok(Grad::new(mul(&share, &chosen)?))
            }
            ReduceOp::Prod => prod_backward(c, &spread(&c.g)?),
            ReduceOp::All | ReduceOp::Any => Err(no_derivative(self.name())),
        }
    }
}

/// The gradient of a product, `g` spread to the input: PyTorch's
/// `prod_backward`, `g · y / x` when no element is zero; where some are, the
/// product of the other elements of each reduced slice (PyTorch's
/// `prod_safe_zeros_backward`): a slice with one zero gives the product of
/// its other elements at the zero and 0 elsewhere, one with two or more
/// zeros 0 everywhere.
fn prod_backward<D: Backend>(c: &ReduceGrad<'_, D>, g: &Grad<D>) -> Result<Grad<D>> {
    let x = c.x()?;
    let y = c.kept_output()?;
    let is_zero = cmp_scalar(CmpOp::Eq, x, 0.0)?;
    let any = is_zero.view().reduce(ReduceOp::Any, &[], false)?;
    let zero = to_dtype(&is_zero, x.dtype())?;
    let nonzero = super::grad::add(x, &zero)?;
    let others = div(&y, &nonzero)?;
    if any.view().item::<crate::Bool>()? == crate::Bool::FALSE {
        return Ok(Grad::new(mul(g, &others)?));
    }
    let zeros = sum_keep(&zero, &c.dims)?;
    let dims: Vec<isize> = c.dims.iter().map(|&d| d as isize).collect();
    let rest = nonzero.view().reduce(ReduceOp::Prod, &dims, true)?;
    let lone = to_dtype(&cmp_scalar(CmpOp::Eq, &zeros, 1.0)?, x.dtype())?;
    let at_zero = mul(&zero, &mul(&lone, &rest)?)?;
    Ok(Grad::new(mul(g, &super::grad::add(&others, &at_zero)?)?))
}

/// `2/(N − correction) · g · (x − mean)` (PyTorch's `var_backward`), `g`
/// with the reduced dims kept as size 1.
fn var_backward<D: Backend>(
    c: &ReduceGrad<'_, D>,
    g: &Grad<D>,
    correction: f64,
    count: usize,
) -> Result<Grad<D>> {
    let x = c.x()?;
    let centred = sub(x, &mean_keep(x, &c.dims)?)?;
    let g = unreduce(g, &c.dims, true, &c.shape)?;
    let factor = 2.0 / (count as f64 - correction);
    Ok(Grad::new(mul(&g, &scale(&centred, factor)?)?))
}

/// What a reduction's derivative reads: the gradient of its output, the
/// input and output it kept, the dims it reduced (every dim when empty)
/// and the input's shape.
pub(crate) struct ReduceGrad<'a, D: Device> {
    /// The op's name, for errors.
    pub(crate) name: &'static str,
    /// The gradient of the output.
    pub(crate) g: Grad<D>,
    /// The input, when kept.
    pub(crate) x: Option<TensorRef<'a, D>>,
    /// The output, when kept.
    pub(crate) y: Option<TensorRef<'a, D>>,
    /// The dims reduced (wrapped; empty: every dim).
    pub(crate) dims: Vec<usize>,
    /// Whether the output kept them as size 1.
    pub(crate) keepdim: bool,
    /// The input's shape.
    pub(crate) shape: Vec<usize>,
}

impl<'a, D: Backend> ReduceGrad<'a, D> {
    fn x(&self) -> Result<&TensorRef<'a, D>> {
        self.x.as_ref().ok_or_else(|| unsaved(self.name, "input"))
    }

    /// The output's gradient with the reduced dims as size 1.
    fn kept_grad(&self) -> Result<Grad<D>> {
        self.g
            .clone()
            .reshaped(&kept_shape(&self.shape, &self.dims))
    }

    /// The output with the reduced dims as size 1.
    fn kept_output(&self) -> Result<MaybeOwned<'a, D>> {
        let y = self
            .y
            .as_ref()
            .ok_or_else(|| unsaved(self.name, "output"))?;
        let kept: Vec<isize> = kept_shape(&self.shape, &self.dims)
            .iter()
            .map(|&n| n as isize)
            .collect();
        y.reshape(&kept)
    }
}

impl<D: Backend> AsView<D> for MaybeOwned<'_, D> {
    fn as_view(&self) -> TensorRef<'_, D> {
        self.as_ref()
    }
}

/// `log Σ exp(x)` over dims (PyTorch's `logsumexp`): `m + log Σ exp(x −
/// m)` with `m` the largest element (0 where it is infinite), so that
/// large elements do not overflow. Written with other ops.
///
/// # Example
/// ```
/// use axial_core::ops::{LogSumExp, Op};
/// assert_eq!(LogSumExp.name(), "logsumexp");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LogSumExp;

impl Op for LogSumExp {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "logsumexp",
            lowering: Lowering::Composite,
            derivative: Derivative::Written(Saves::BOTH),
        }
    }
}

impl LogSumExp {
    /// The input's gradient: `g · exp(x − y)` (PyTorch's
    /// `logsumexp_backward`).
    pub(crate) fn backward<D: Backend>(self, c: &ReduceGrad<'_, D>) -> Result<Grad<D>> {
        let x = c.x()?;
        let y = c.kept_output()?;
        let g = unreduce(&c.g, &c.dims, c.keepdim, &c.shape)?;
        let w = un(UnaryOp::Exp, &sub(x, &y)?)?;
        Ok(Grad::new(mul(&g, &w)?))
    }
}

/// The gradient of `max(dim)` and `min(dim)` (values with indices): the
/// output's gradient at the indices chosen, zero elsewhere (PyTorch's
/// `value_selecting_reduction_backward`; the indices are kept, the input
/// is not).
pub(crate) fn selection_backward<D: Backend>(
    g: &Grad<D>,
    indices: &TensorRef<'_, D>,
    dim: usize,
    shape: &[usize],
) -> Result<Grad<D>> {
    let kept: Vec<isize> = kept_shape(shape, &[dim])
        .iter()
        .map(|&n| n as isize)
        .collect();
    let (g, indices) = (g.view().reshape(&kept)?, indices.reshape(&kept)?);
    if shape.is_empty() {
        return Ok(Grad::new(g.as_ref().to_contiguous()?));
    }
    Ok(Grad::new(scattered(
        shape,
        dim,
        &indices.as_ref(),
        &g.as_ref(),
    )?))
}
