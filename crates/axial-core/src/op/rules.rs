//! PyTorch's rules for each op and dtype, checked once for every device: which
//! (op, dtype) pairs have a kernel, how scalar arguments convert to the
//! element type, and which operands a kernel entry point accepts. A device
//! resolves an op here, then runs the kernel of what comes back; it never
//! repeats these checks.

use super::{ArgReduceOp, BinaryOp, ReduceOp, UnaryOp};
use crate::plan::{MatmulPlan, ReducePlan};
use crate::{DType, Device, Element, Error, Input, Output, Result, Scalar, with_dtype};

/// What a kernel computes for a unary op on one dtype, after PyTorch's checks.
///
/// # Example
/// ```
/// use axial_core::{DType, UnaryOp, op::Resolved};
/// assert_eq!(UnaryOp::Floor.resolve(DType::I32)?, Resolved::Identity); // floor of an integer
/// assert_eq!(UnaryOp::Exp.resolve(DType::F32)?, Resolved::Op(UnaryOp::Exp));
/// // A clamp's bounds come back rounded to the element type.
/// let clamp = UnaryOp::Clamp { min: Some(0.1), max: None }.resolve(DType::F16)?;
/// assert_eq!(clamp, Resolved::Op(UnaryOp::Clamp { min: Some(0.0999755859375), max: None }));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Resolved {
    /// The op's own element kernel for the dtype. A `Clamp` has at least one
    /// bound, each exactly representable in the dtype (an integer dtype's
    /// bounds that cannot bind are dropped); a `PowScalar` of an integer
    /// dtype has a non-negative integer exponent that fits the dtype.
    Op(UnaryOp),
    /// The input unchanged (`floor` of an integer, `sign` of a bool).
    Identity,
    /// Every element this value (`x ** 0` of a bool, a clamp to a NaN bound).
    Fill(Scalar),
}

/// A value of the right operand that an integer op refuses before it writes
/// anything (PyTorch raises on it).
///
/// # Example
/// ```
/// use axial_core::{BinaryOp, DType, op::RhsRule};
/// assert_eq!(BinaryOp::FloorDiv.rhs_rule(DType::I64), Some(RhsRule::NonZero));
/// assert_eq!(BinaryOp::FloorDiv.rhs_rule(DType::F32), None); // floats divide by zero
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RhsRule {
    /// No element may be 0 (integer `%` and `//`).
    NonZero,
    /// No element may be negative (integer `**`).
    NonNegative,
}

impl RhsRule {
    /// True when `v` breaks the rule.
    ///
    /// ```
    /// # use axial_core::op::RhsRule;
    /// assert!(RhsRule::NonZero.breaks(0) && !RhsRule::NonZero.breaks(-3));
    /// assert!(RhsRule::NonNegative.breaks(-1));
    /// ```
    pub fn breaks(self, v: i64) -> bool {
        match self {
            RhsRule::NonZero => v == 0,
            RhsRule::NonNegative => v < 0,
        }
    }

    /// PyTorch's error when an element breaks the rule.
    ///
    /// ```
    /// # use axial_core::op::RhsRule;
    /// assert_eq!(RhsRule::NonZero.error("remainder").to_string(), "remainder: ZeroDivisionError");
    /// ```
    pub fn error(self, op: &'static str) -> Error {
        match self {
            RhsRule::NonZero => Error::invalid(op, "ZeroDivisionError"),
            RhsRule::NonNegative => negative_power(op),
        }
    }
}

/// How PyTorch computes `x ** p` for a scalar `p` on a float dtype: 0 and 1
/// exactly for every dtype; for f32, f64 and bf16, ½ and −½ as `sqrt` and
/// `1/sqrt`, −1 as a reciprocal, 2, 3 and −2 as products (bf16 rounding the
/// square first, as its own arithmetic does); else `pow`, in f64 for f32 and
/// f64, in f32 with the exponent rounded to the dtype for f16 and bf16.
///
/// # Example
/// ```
/// use axial_core::{DType, op::PowScalarKind};
/// assert_eq!(PowScalarKind::of(0.5, DType::F32), PowScalarKind::Sqrt);
/// assert_eq!(PowScalarKind::of(0.5, DType::F16), PowScalarKind::InF32(0.5)); // no special cases
/// assert_eq!(PowScalarKind::of(1.5, DType::F64), PowScalarKind::InF64(1.5));
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum PowScalarKind {
    /// 1.
    One,
    /// `x`.
    Identity,
    /// `√x`.
    Sqrt,
    /// `1/√x`.
    Rsqrt,
    /// `1/x`.
    Reciprocal,
    /// `x·x`.
    Square,
    /// `(x·x)·x`, the square rounded to the dtype first.
    Cube,
    /// `1/(x·x)`, the square rounded to the dtype first.
    InverseSquare,
    /// `pow(x, p)` in f64.
    InF64(f64),
    /// `pow(x, p)` in f32.
    InF32(f32),
}

impl PowScalarKind {
    /// The kind for exponent `p` on float `dtype`.
    ///
    /// ```
    /// # use axial_core::{DType, op::PowScalarKind};
    /// assert_eq!(PowScalarKind::of(-2.0, DType::BF16), PowScalarKind::InverseSquare);
    /// ```
    pub fn of(p: f64, dtype: DType) -> Self {
        let specialised = dtype != DType::F16;
        match p {
            0.0 => PowScalarKind::One,
            1.0 => PowScalarKind::Identity,
            0.5 if specialised => PowScalarKind::Sqrt,
            -0.5 if specialised => PowScalarKind::Rsqrt,
            -1.0 if specialised => PowScalarKind::Reciprocal,
            2.0 if specialised => PowScalarKind::Square,
            3.0 if specialised => PowScalarKind::Cube,
            -2.0 if specialised => PowScalarKind::InverseSquare,
            _ if dtype.size() == 2 => {
                PowScalarKind::InF32(with_dtype!(dtype, T => T::from_f64(p).to_f32()))
            }
            _ => PowScalarKind::InF64(p),
        }
    }
}

impl UnaryOp {
    /// The kernel a device runs for this op on `dtype` (the dtype of both
    /// input and output, bool output for `logical_not`), or PyTorch's error.
    ///
    /// # Errors
    /// The op has no kernel for the dtype, or a scalar argument does not fit
    /// it (a clamp bound, an exponent).
    ///
    /// ```
    /// # use axial_core::{DType, Scalar, UnaryOp, op::Resolved};
    /// assert_eq!(UnaryOp::PowScalar(0.0).resolve(DType::Bool)?, Resolved::Fill(Scalar::Bool(true)));
    /// let err = UnaryOp::Abs.resolve(DType::Bool).unwrap_err();
    /// assert_eq!(err.to_string(), "\"abs_cpu\" not implemented for 'Bool'");
    /// let below = UnaryOp::Clamp { min: Some(-1.0), max: None }.resolve(DType::U8)?;
    /// assert_eq!(below, Resolved::Identity); // a lower bound below 0 cannot bind on u8
    /// assert!(UnaryOp::Clamp { min: None, max: Some(300.0) }.resolve(DType::U8).is_ok());
    /// assert!(UnaryOp::Clamp { min: Some(300.0), max: None }.resolve(DType::U8).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn resolve(self, dtype: DType) -> Result<Resolved> {
        use UnaryOp::*;
        if self == LogicalNot {
            return Ok(Resolved::Op(self));
        }
        match dtype {
            d if d.is_float() => float_unary(self, d),
            DType::Bool => bool_unary(self),
            d => int_unary(self, d),
        }
    }
}

fn float_unary(op: UnaryOp, dtype: DType) -> Result<Resolved> {
    let UnaryOp::Clamp { min, max } = op else {
        return Ok(Resolved::Op(op));
    };
    let name = op.name();
    let bound = |v: Option<f64>| v.map(|v| checked_scalar(name, dtype, v)).transpose();
    let (lo, hi) = (bound(min)?, bound(max)?);
    if min.is_some_and(f64::is_nan) || max.is_some_and(f64::is_nan) {
        return Ok(Resolved::Fill(Scalar::Float(f64::NAN)));
    }
    if lo.is_none() && hi.is_none() {
        return Err(no_clamp_bounds());
    }
    Ok(Resolved::Op(UnaryOp::Clamp { min: lo, max: hi }))
}

fn int_unary(op: UnaryOp, dtype: DType) -> Result<Resolved> {
    use UnaryOp::*;
    let name = op.name();
    match op {
        Neg | Abs | Relu | Sign | Square => Ok(Resolved::Op(op)),
        Floor | Ceil | Round | Trunc => Ok(Resolved::Identity),
        PowScalar(p) if p.fract() != 0.0 || p.is_nan() => Err(unsupported(name, dtype)),
        PowScalar(p) if p < 0.0 => Err(negative_power("pow")),
        PowScalar(p) => Ok(Resolved::Op(PowScalar(checked_scalar(name, dtype, p)?))),
        Clamp { min, max } => int_clamp(dtype, min, max),
        _ => Err(unsupported(name, dtype)),
    }
}

/// `clamp` on integers: a bound beyond the type's range on the side that
/// cannot bind is dropped; on the other side PyTorch refuses it.
fn int_clamp(dtype: DType, min: Option<f64>, max: Option<f64>) -> Result<Resolved> {
    let name = "clamp";
    let (lowest, highest, _) = limits(dtype);
    let out_of_range = |which: &str, v: f64| {
        Error::invalid(
            name,
            format!(
                "Clamp {which} value {v} is outside the representable range of {}",
                dtype.scalar_type_name()
            ),
        )
    };
    let lo = match min {
        Some(v) if v < lowest => None,
        Some(v) if v > highest => return Err(out_of_range("min", v)),
        Some(v) => Some(checked_scalar(name, dtype, v)?),
        None => None,
    };
    let hi = match max {
        Some(v) if v > highest => None,
        Some(v) if v < lowest => return Err(out_of_range("max", v)),
        Some(v) => Some(checked_scalar(name, dtype, v)?),
        None => None,
    };
    if min.is_none() && max.is_none() {
        return Err(no_clamp_bounds());
    }
    Ok(match (lo, hi) {
        (None, None) => Resolved::Identity,
        (min, max) => Resolved::Op(UnaryOp::Clamp { min, max }),
    })
}

/// The few unary ops bool has: `sign` is the identity, `square` and a
/// positive integer power are the identity too (`x·x = x` for 0 and 1).
fn bool_unary(op: UnaryOp) -> Result<Resolved> {
    use UnaryOp::*;
    match op {
        Sign | Square => Ok(Resolved::Identity),
        PowScalar(p) if p.fract() != 0.0 || p.is_nan() => Err(unsupported(op.name(), DType::Bool)),
        PowScalar(p) if p < 0.0 => Err(negative_power("pow")),
        PowScalar(0.0) => Ok(Resolved::Fill(Scalar::Bool(true))),
        PowScalar(_) => Ok(Resolved::Identity),
        Neg => Err(Error::invalid(
            "neg",
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
        )),
        Relu => Err(Error::invalid(
            "relu",
            "Boolean inputs not supported for relu",
        )),
        _ => Err(unsupported(bool_kernel_name(op), DType::Bool)),
    }
}

/// The name of PyTorch's CPU kernel that refuses bool, as its error gives it.
fn bool_kernel_name(op: UnaryOp) -> &'static str {
    use UnaryOp::*;
    match op {
        Abs => "abs_cpu",
        Floor => "floor_vml_cpu",
        Ceil => "ceil_vml_cpu",
        Round => "round_vml_cpu",
        Trunc => "trunc_vml_cpu",
        Clamp {
            min: Some(_),
            max: None,
        } => "clamp_min_scalar_cpu",
        Clamp {
            min: None,
            max: Some(_),
        } => "clamp_max_scalar_cpu",
        Clamp { .. } => "clamp_scalar_cpu",
        _ => op.name(),
    }
}

impl BinaryOp {
    /// The op a kernel runs on operands of `dtype`, or PyTorch's error. Bool
    /// arithmetic is C++'s on `bool`: `+` and `maximum` come back as
    /// `logical_or`, `*` and `minimum` as `logical_and`; every other op comes
    /// back as itself.
    ///
    /// # Errors
    /// The op has no kernel for the dtype.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, DType};
    /// assert_eq!(BinaryOp::Add.resolve(DType::Bool)?, BinaryOp::LogicalOr);
    /// assert_eq!(BinaryOp::Rem.resolve(DType::I8)?, BinaryOp::Rem);
    /// assert!(BinaryOp::Sub.resolve(DType::Bool).is_err());
    /// assert!(BinaryOp::Atan2.resolve(DType::I32).is_err()); // promoted to f32 first
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn resolve(self, dtype: DType) -> Result<BinaryOp> {
        use BinaryOp::*;
        let name = self.name();
        match (self, dtype) {
            (LogicalAnd | LogicalOr, _) => Ok(self),
            (Add | Maximum, DType::Bool) => Ok(LogicalOr),
            (Mul | Minimum, DType::Bool) => Ok(LogicalAnd),
            (Sub, DType::Bool) => Err(Error::invalid(
                "sub",
                "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.",
            )),
            (FloorDiv, DType::Bool) => Err(unsupported("div_floor_cpu", dtype)),
            (Rem, DType::Bool) => Err(unsupported("remainder_cpu", dtype)),
            (_, DType::Bool) => Err(unsupported(name, dtype)),
            (Div | Atan2, d) if !d.is_float() => Err(unsupported(name, dtype)),
            _ => Ok(self),
        }
    }

    /// The values of the right operand the op refuses on `dtype`, if any:
    /// a device checks them before it writes anything.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, DType, op::RhsRule};
    /// assert_eq!(BinaryOp::Pow.rhs_rule(DType::I32), Some(RhsRule::NonNegative));
    /// assert_eq!(BinaryOp::Add.rhs_rule(DType::I32), None);
    /// ```
    pub fn rhs_rule(self, dtype: DType) -> Option<RhsRule> {
        if dtype.is_float() || dtype == DType::Bool {
            return None;
        }
        match self {
            BinaryOp::Rem | BinaryOp::FloorDiv => Some(RhsRule::NonZero),
            BinaryOp::Pow => Some(RhsRule::NonNegative),
            _ => None,
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

/// Checks a matrix product's operands as every device must (one float
/// dtype throughout, shapes that chain) and plans it.
///
/// # Errors
/// Dtypes that differ or are not float, or shapes that do not chain.
///
/// ```
/// use axial_core::{DType, Layout, Output, RawTensor, Storage, op::matmul_plan};
/// let a = RawTensor::from_vec(vec![1.0f32; 6], &[2, 3])?;
/// let b = RawTensor::from_vec(vec![1.0f64; 6], &[3, 2])?;
/// let mut s = Storage::from_slice(&[0.0f32; 4]);
/// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::F32 };
/// let err = matmul_plan(&a.view().input(), &b.view().input(), &dst).unwrap_err();
/// assert!(err.to_string().ends_with("but got: float32 != float64"));
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn matmul_plan<D: Device>(
    lhs: &Input<'_, D>,
    rhs: &Input<'_, D>,
    dst: &Output<'_, D>,
) -> Result<MatmulPlan> {
    for (dtype, other) in [(lhs.dtype, rhs.dtype), (lhs.dtype, dst.dtype)] {
        if dtype != other {
            return Err(Error::invalid(
                "matmul",
                format!(
                    "expected m1 and m2 to have the same dtype, but got: {} != {}",
                    dtype.name(),
                    other.name()
                ),
            ));
        }
    }
    let plan = MatmulPlan::new(&lhs.layout, &rhs.layout, &dst.layout)?;
    if !dst.dtype.is_float() {
        return Err(unsupported("matmul", dst.dtype));
    }
    Ok(plan)
}

/// A scalar converted to `dtype` as `c10::Scalar::to<T>()` does: refused
/// when out of the type's range (infinities and NaN allowed for floats),
/// else converted as a cast. The result is exactly representable in `dtype`.
///
/// # Errors
/// The value does not fit.
///
/// ```
/// # use axial_core::{DType, op::checked_scalar};
/// assert_eq!(checked_scalar("clamp", DType::U8, 255.0)?, 255.0);
/// assert_eq!(
///     checked_scalar("clamp", DType::U8, -1.0).unwrap_err().to_string(),
///     "clamp: value cannot be converted to type uint8_t without overflow"
/// );
/// assert!(checked_scalar("clamp", DType::F16, 1e5).is_err());
/// assert!(checked_scalar("clamp", DType::F32, f64::INFINITY).is_ok());
/// assert!(checked_scalar("clamp", DType::I32, f64::NAN).is_err());
/// assert_eq!(checked_scalar("clamp", DType::I32, 2.7)?, 2.0);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn checked_scalar(op: &'static str, dtype: DType, v: f64) -> Result<f64> {
    let (lowest, highest, c_name) = limits(dtype);
    let fits = if v.is_nan() || v.is_infinite() {
        dtype.is_float()
    } else {
        (lowest..=highest).contains(&v)
    };
    if !fits {
        return Err(Error::invalid(
            op,
            format!("value cannot be converted to type {c_name} without overflow"),
        ));
    }
    Ok(with_dtype!(dtype, T => T::from_f64(v).to_f64()))
}

/// The lowest and largest finite values of a dtype, and its C++ name in
/// PyTorch's messages.
fn limits(dtype: DType) -> (f64, f64, &'static str) {
    match dtype {
        DType::Bool => (0.0, 1.0, "bool"),
        DType::U8 => (0.0, u8::MAX as f64, "uint8_t"),
        DType::I8 => (i8::MIN as f64, i8::MAX as f64, "int8_t"),
        DType::I16 => (i16::MIN as f64, i16::MAX as f64, "int16_t"),
        DType::I32 => (i32::MIN as f64, i32::MAX as f64, "int"),
        DType::I64 => (i64::MIN as f64, i64::MAX as f64, "int64_t"),
        DType::F16 => (-65504.0, 65504.0, "c10::Half"),
        DType::BF16 => (
            -3.3895313892515355e38,
            3.3895313892515355e38,
            "c10::BFloat16",
        ),
        DType::F32 => (f32::MIN as f64, f32::MAX as f64, "float"),
        DType::F64 => (f64::MIN, f64::MAX, "double"),
    }
}

fn unsupported(op: &'static str, dtype: DType) -> Error {
    Error::Unsupported { op, dtype }
}

fn negative_power(op: &'static str) -> Error {
    Error::invalid(op, "Integers to negative integer powers are not allowed.")
}

fn no_clamp_bounds() -> Error {
    Error::invalid(
        "clamp",
        "torch.clamp: At least one of 'min' or 'max' must not be None",
    )
}
