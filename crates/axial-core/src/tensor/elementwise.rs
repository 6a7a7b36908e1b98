//! Elementwise ops: casts, copies, fills, unary, binary, comparisons, `where`,
//! with broadcasting and type promotion done here, once, for every device.

use super::{RawTensor, TensorMut, TensorRef, alloc_output};
use crate::layout::broadcast_shapes;
use crate::ops::{Where, can_cast};
use crate::{
    Arg, Backend, BinaryOp, CmpOp, DType, Error, Input, Layout, Result, Scalar, UnaryOp, with_dtype,
};

/// A tensor converted to `dtype`, or `None` when it already is.
fn converted<D: Backend>(t: &TensorRef<'_, D>, dtype: DType) -> Result<Option<RawTensor<D>>> {
    if t.dtype == dtype {
        return Ok(None);
    }
    t.to_dtype(dtype).map(Some)
}

/// `t`'s elements as an input of `dtype`, expanded to `shape`.
fn expanded_input<'b, D: Backend>(
    t: &'b TensorRef<'_, D>,
    converted: &'b Option<RawTensor<D>>,
    shape: &[usize],
) -> Result<Input<'b, D>> {
    let view = converted.as_ref().map_or_else(|| t.clone(), |c| c.view());
    let sizes: crate::layout::Strides = shape.iter().map(|&n| n as isize).collect();
    let layout = view.layout.expand(&sizes)?;
    Ok(Input {
        storage: Some(view.storage),
        layout,
        dtype: view.dtype,
    })
}

/// The layout of `t` as an operand: of its converted copy when it has one.
fn operand_layout<'b, D: Backend>(
    t: &'b TensorRef<'_, D>,
    converted: &'b Option<RawTensor<D>>,
) -> &'b Layout {
    converted.as_ref().map_or(&t.layout, |c| &c.layout)
}

/// The layout of a new result of an op between `x` and a scalar: the scalar
/// takes part as the 0-dim operand it is in PyTorch.
fn scalar_op_output(x: &Layout, shape: &[usize]) -> Layout {
    Layout::elementwise_output(&[x, &Layout::contiguous(&[])], shape)
}

impl<'a, D: Backend> TensorRef<'a, D> {
    /// `x.to(dtype)`: a new tensor of `dtype` laid out like `x` (dense strides
    /// kept), with PyTorch's conversions.
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::from_vec(vec![1.5f32, -2.7], &[2])?;
    /// assert_eq!(x.view().to_dtype(DType::I32)?.to_vec::<i32>()?, vec![1, -2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_dtype(&self, dtype: DType) -> Result<RawTensor<D>> {
        let mut out = alloc_output(self.storage.device(), self.layout.dense_like(), dtype)?;
        self.storage.device().copy(self.input(), out.output())?;
        Ok(out)
    }

    /// `x.clone()`: a new storage, dense strides kept (PyTorch's `preserve_format`).
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::zeros(&[2, 3], DType::F32)?;
    /// let t = x.view().t()?.to_owned()?;
    /// assert_eq!(t.strides(), &[1, 3]); // dense strides kept
    /// assert_ne!(t.storage().data_ptr(), x.storage().data_ptr());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_owned(&self) -> Result<RawTensor<D>> {
        self.to_dtype(self.dtype)
    }

    /// A contiguous copy.
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::from_vec(vec![1u8, 2, 3, 4], &[2, 2])?;
    /// let t = x.view().t()?.to_contiguous()?;
    /// assert_eq!((t.strides(), t.to_vec::<u8>()?), (&[2, 1][..], vec![1, 3, 2, 4]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_contiguous(&self) -> Result<RawTensor<D>> {
        let mut out = alloc_output(
            self.storage.device(),
            Layout::contiguous(self.shape()),
            self.dtype,
        )?;
        self.storage.device().copy(self.input(), out.output())?;
        Ok(out)
    }

    /// `op(x)`; integer input of a float op (`sqrt`, `exp`, ...) gives f32, as PyTorch.
    ///
    /// # Errors
    /// The op does not exist for the dtype.
    ///
    /// ```
    /// # use axial_core::{RawTensor, UnaryOp};
    /// let x = RawTensor::from_vec(vec![4.0f32, 9.0], &[2])?;
    /// assert_eq!(x.view().unary(UnaryOp::Sqrt)?.to_vec::<f32>()?, vec![2.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unary(&self, op: UnaryOp) -> Result<RawTensor<D>> {
        let out_dtype = op.output_dtype(self.dtype)?;
        let compute = op.compute_dtype(self.dtype)?;
        let conv = converted(self, compute)?;
        let src = expanded_input(self, &conv, self.shape())?;
        let layout = Layout::elementwise_output(&[operand_layout(self, &conv)], self.shape());
        let mut out = alloc_output(self.storage.device(), layout, out_dtype)?;
        self.storage.device().unary(op, src, out.output())?;
        Ok(out)
    }

    /// `op(x, y)` with broadcasting and PyTorch's type promotion.
    ///
    /// # Errors
    /// Shapes that do not broadcast, or an op that does not exist for the dtype.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, RawTensor};
    /// let a = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3, 1])?;
    /// let b = RawTensor::from_vec(vec![10.0f32, 20.0], &[1, 2])?;
    /// let c = a.view().binary(BinaryOp::Add, &b.view())?;
    /// assert_eq!(c.shape(), &[3, 2]);
    /// assert_eq!(c.to_vec::<f32>()?, vec![11.0, 21.0, 12.0, 22.0, 13.0, 23.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary(&self, op: BinaryOp, other: &TensorRef<'_, D>) -> Result<RawTensor<D>> {
        let shape = broadcast_shapes(self.shape(), other.shape())?;
        let common = self.dtype.promote(other.dtype)?;
        let out_dtype = op.output_dtype(common)?;
        let compute = if op.is_logical() { common } else { out_dtype };
        let (ca, cb) = (converted(self, compute)?, converted(other, compute)?);
        let lhs = expanded_input(self, &ca, &shape)?;
        let rhs = expanded_input(other, &cb, &shape)?;
        let operands = [operand_layout(self, &ca), operand_layout(other, &cb)];
        let layout = Layout::elementwise_output(&operands, &shape);
        let mut out = alloc_output(self.storage.device(), layout, out_dtype)?;
        self.storage
            .device()
            .binary(op, lhs.into(), rhs.into(), out.output())?;
        Ok(out)
    }

    /// `op(x, s)` for a scalar `s` (a 0-dim operand: PyTorch's wrapped-number
    /// promotion, so `i32 + 5` stays i32 and `i32 + 5.5` is f32).
    ///
    /// # Errors
    /// As [`TensorRef::binary`].
    ///
    /// ```
    /// # use axial_core::{BinaryOp, DType, RawTensor};
    /// let x = RawTensor::from_vec(vec![1i32, 2], &[2])?;
    /// assert_eq!(x.view().binary_scalar(BinaryOp::Add, 5.into())?.dtype(), DType::I32);
    /// assert_eq!(x.view().binary_scalar(BinaryOp::Add, 5.5.into())?.dtype(), DType::F32);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_scalar(&self, op: BinaryOp, s: Scalar) -> Result<RawTensor<D>> {
        let dtype = scalar_result_dtype(self.dtype, s);
        if op == BinaryOp::Pow && dtype.is_float() && !matches!(s, Scalar::Bool(_)) {
            // PyTorch's pow by a scalar has its own special cases (x**0.5 is sqrt, ...).
            let x = converted(self, dtype)?;
            let x = x.as_ref().map_or_else(|| self.clone(), |c| c.view());
            return x.unary(UnaryOp::PowScalar(s.to_f64()));
        }
        self.with_scalar(op, s, dtype, false)
    }

    /// `op(s, x)` for a scalar `s` on the left (`2.0 - x`), promoted as
    /// [`TensorRef::binary_scalar`]; the scalar goes to the kernel as an
    /// argument.
    ///
    /// # Errors
    /// As [`TensorRef::binary`].
    ///
    /// ```
    /// # use axial_core::{BinaryOp, RawTensor};
    /// let x = RawTensor::from_vec(vec![1.0f32, 4.0], &[2])?;
    /// assert_eq!(x.view().scalar_binary(BinaryOp::Div, 2.0.into())?.to_vec::<f32>()?, vec![2.0, 0.5]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn scalar_binary(&self, op: BinaryOp, s: Scalar) -> Result<RawTensor<D>> {
        let dtype = scalar_result_dtype(self.dtype, s);
        self.with_scalar(op, s, dtype, true)
    }

    /// `op(x, s)` (or `op(s, x)` when `scalar_first`) with both operands
    /// of `dtype`, the scalar passed to the kernel as an argument.
    fn with_scalar(
        &self,
        op: BinaryOp,
        s: Scalar,
        dtype: DType,
        scalar_first: bool,
    ) -> Result<RawTensor<D>> {
        let out_dtype = op.output_dtype(dtype)?;
        let compute = if op.is_logical() { dtype } else { out_dtype };
        let conv = converted(self, compute)?;
        let x = expanded_input(self, &conv, self.shape())?;
        let layout = scalar_op_output(operand_layout(self, &conv), self.shape());
        let mut out = alloc_output(self.storage.device(), layout, out_dtype)?;
        let s = Arg::Scalar(rounded(s, dtype));
        let (lhs, rhs) = if scalar_first {
            (s, x.into())
        } else {
            (x.into(), s)
        };
        self.storage.device().binary(op, lhs, rhs, out.output())?;
        Ok(out)
    }

    /// `x op y` for a comparison, with broadcasting and promotion; the result is bool.
    ///
    /// # Errors
    /// Shapes that do not broadcast.
    ///
    /// ```
    /// # use axial_core::{Bool, CmpOp, RawTensor};
    /// let x = RawTensor::from_vec(vec![1i32, 5, 3], &[3])?;
    /// let limit = RawTensor::from_vec(vec![3i64], &[1])?; // broadcast, promoted
    /// let le = x.view().compare(CmpOp::Le, &limit.view())?;
    /// assert_eq!(le.to_vec::<Bool>()?, vec![Bool::TRUE, Bool::FALSE, Bool::TRUE]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn compare(&self, op: CmpOp, other: &TensorRef<'_, D>) -> Result<RawTensor<D>> {
        let shape = broadcast_shapes(self.shape(), other.shape())?;
        let common = self.dtype.promote(other.dtype)?;
        let (ca, cb) = (converted(self, common)?, converted(other, common)?);
        let lhs = expanded_input(self, &ca, &shape)?;
        let rhs = expanded_input(other, &cb, &shape)?;
        let operands = [operand_layout(self, &ca), operand_layout(other, &cb)];
        let layout = Layout::elementwise_output(&operands, &shape);
        let mut out = alloc_output(self.storage.device(), layout, DType::Bool)?;
        self.storage
            .device()
            .compare(op, lhs.into(), rhs.into(), out.output())?;
        Ok(out)
    }

    /// `x op s` for a comparison with a scalar (promoted as
    /// [`TensorRef::binary_scalar`]); the scalar goes to the kernel as an
    /// argument. The result is bool.
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial_core::{Bool, CmpOp, RawTensor};
    /// let x = RawTensor::from_vec(vec![1i32, 5, 3], &[3])?;
    /// let gt = x.view().compare_scalar(CmpOp::Gt, 2.5.into())?; // compared as f32
    /// assert_eq!(gt.to_vec::<Bool>()?, vec![Bool::FALSE, Bool::TRUE, Bool::TRUE]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn compare_scalar(&self, op: CmpOp, s: Scalar) -> Result<RawTensor<D>> {
        let dtype = scalar_result_dtype(self.dtype, s);
        let conv = converted(self, dtype)?;
        let x = expanded_input(self, &conv, self.shape())?;
        let layout = scalar_op_output(operand_layout(self, &conv), self.shape());
        let mut out = alloc_output(self.storage.device(), layout, DType::Bool)?;
        let s = Arg::Scalar(rounded(s, dtype));
        self.storage
            .device()
            .compare(op, x.into(), s, out.output())?;
        Ok(out)
    }

    /// `torch.where(self, a, b)` with `self` as the bool condition; all three broadcast.
    ///
    /// # Errors
    /// A non-bool condition, or shapes that do not broadcast.
    ///
    /// ```
    /// # use axial_core::{Bool, RawTensor};
    /// let cond = RawTensor::from_vec(vec![Bool::TRUE, Bool::FALSE], &[2])?;
    /// let (a, b) = (RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?, RawTensor::from_vec(vec![0.0f32], &[])?);
    /// assert_eq!(cond.view().where_(&a.view(), &b.view())?.to_vec::<f32>()?, vec![1.0, 0.0]);
    /// assert!(a.view().where_(&a.view(), &b.view()).is_err()); // not a bool condition
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn where_(&self, a: &TensorRef<'_, D>, b: &TensorRef<'_, D>) -> Result<RawTensor<D>> {
        let shapes = [self.shape(), a.shape(), b.shape()];
        let (shape, common) = Where::output(shapes, self.dtype, [a.dtype, b.dtype])?;
        let (ca, cb) = (converted(a, common)?, converted(b, common)?);
        let cond = expanded_input(self, &None, &shape)?;
        let (ia, ib) = (
            expanded_input(a, &ca, &shape)?,
            expanded_input(b, &cb, &shape)?,
        );
        let operands = [&self.layout, operand_layout(a, &ca), operand_layout(b, &cb)];
        let layout = Layout::elementwise_output(&operands, &shape);
        let mut out = alloc_output(self.storage.device(), layout, common)?;
        self.storage
            .device()
            .select_where(cond, ia, ib, out.output())?;
        Ok(out)
    }
}

/// `s` as a value of `dtype` (what a tensor of `dtype` holding it holds).
fn rounded(s: Scalar, dtype: DType) -> Scalar {
    with_dtype!(dtype, T => Scalar::of(s.to::<T>()))
}

/// PyTorch's result type of a tensor of `dtype` with a wrapped Python number.
fn scalar_result_dtype(dtype: DType, s: Scalar) -> DType {
    match s {
        Scalar::Float(_) if !dtype.is_float() => DType::F32,
        Scalar::Int(_) if dtype == DType::Bool => DType::I64,
        _ => dtype,
    }
}

impl<D: Backend> TensorMut<'_, D> {
    /// `x.fill_(value)` (allowed on broadcast views, as PyTorch's).
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let mut x = RawTensor::zeros(&[2, 2], DType::I64)?;
    /// x.view_mut().select(0, 1)?.fill_(7.into())?;
    /// assert_eq!(x.to_vec::<i64>()?, vec![0, 0, 7, 7]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn fill_(&mut self, value: Scalar) -> Result<()> {
        let device = self.storage_device();
        let out = crate::Output {
            storage: &mut *self.storage,
            layout: self.layout.clone(),
            dtype: self.dtype,
        };
        device.fill(out, value)
    }

    /// `x.zero_()`.
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let mut x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3])?;
    /// x.view_mut().narrow(0, 1, 2)?.zero_()?;
    /// assert_eq!(x.to_vec::<f32>()?, vec![1.0, 0.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn zero_(&mut self) -> Result<()> {
        self.fill_(Scalar::Int(0))
    }

    /// `x.copy_(src)`: `src` broadcast to `x`'s shape and converted to its dtype.
    ///
    /// # Errors
    /// Shapes that do not broadcast to `x`'s, or a write into overlapping memory.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let mut x = RawTensor::zeros(&[2, 2], DType::F32)?;
    /// let row = RawTensor::from_vec(vec![1i64, 2], &[2])?;
    /// x.view_mut().copy_(&row.view())?; // broadcast and converted
    /// assert_eq!(x.to_vec::<f32>()?, vec![1.0, 2.0, 1.0, 2.0]);
    /// // Two elements at one address: the write is refused.
    /// let mut same = x.view_mut().as_strided(&[2], &[0], None)?;
    /// assert_eq!(same.copy_(&row.view()), Err(axial_core::Error::InternalOverlap));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn copy_(&mut self, src: &TensorRef<'_, D>) -> Result<()> {
        let input = expanded_input(src, &None, self.shape())?;
        let device = self.storage_device();
        device.copy(input, self.output()?)
    }

    /// `op_(x)` in place (float ops refuse integer `x`, as PyTorch's cast check).
    ///
    /// # Errors
    /// The result dtype cannot be stored in `x`, or `x` overlaps itself.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, UnaryOp};
    /// let mut x = RawTensor::from_vec(vec![1.0f32, 4.0], &[2])?;
    /// x.view_mut().unary_(UnaryOp::Sqrt)?;
    /// assert_eq!(x.to_vec::<f32>()?, vec![1.0, 2.0]);
    /// let mut n = RawTensor::from_vec(vec![4i32], &[1])?;
    /// assert!(n.view_mut().unary_(UnaryOp::Sqrt).is_err()); // f32 result, i32 storage
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unary_(&mut self, op: UnaryOp) -> Result<()> {
        let out_dtype = op.output_dtype(self.dtype)?;
        if out_dtype != self.dtype {
            return Err(Error::CannotCast {
                from: out_dtype,
                to: self.dtype,
            });
        }
        let input = Input {
            storage: None,
            layout: self.layout.clone(),
            dtype: self.dtype,
        };
        let device = self.storage_device();
        device.unary(op, input, self.output()?)
    }

    /// `x.op_(y)` in place: `y` broadcast to `x`'s shape, converted to `x`'s
    /// dtype when PyTorch allows (`i32 += i64` stays i32; `i32 += f32` is refused).
    ///
    /// # Errors
    /// `y` does not broadcast to `x`'s shape, the cast is refused, or memory overlaps.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, RawTensor};
    /// let mut x = RawTensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2])?;
    /// let col = RawTensor::from_vec(vec![10i64, 20], &[2, 1])?;
    /// x.view_mut().binary_(BinaryOp::Add, &col.view())?; // stays i32
    /// assert_eq!(x.to_vec::<i32>()?, vec![11, 12, 23, 24]);
    /// let half = RawTensor::from_vec(vec![0.5f32], &[])?;
    /// assert!(x.view_mut().binary_(BinaryOp::Mul, &half.view()).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_(&mut self, op: BinaryOp, other: &TensorRef<'_, D>) -> Result<()> {
        let input = self.inplace_operand(op, other)?;
        let shape = crate::layout::Dims::from(self.shape());
        let rhs = expanded_input(other, &input, &shape)?;
        let lhs = Input {
            storage: None,
            layout: self.layout.clone(),
            dtype: self.dtype,
        };
        let device = self.storage_device();
        device.binary(op, lhs.into(), rhs.into(), self.output()?)
    }

    /// `x.op_(y)` where `y` is a layout over `x`'s own storage (`a.add_(a)`,
    /// `a[0:4].add_(a[1:5])`): refused when the two partly overlap, as PyTorch.
    ///
    /// # Errors
    /// [`Error::PartialOverlap`], a shape that does not broadcast, or a write
    /// into overlapping memory.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, DType, Error, RawTensor};
    /// let mut a = RawTensor::arange(0.0, 5.0, 1.0, DType::F32)?;
    /// let shifted = a.view().slice(0, Some(1), Some(5), 1)?.layout().clone();
    /// let mut head = a.view_mut().slice(0, Some(0), Some(4), 1)?;
    /// assert_eq!(head.binary_aliased_(BinaryOp::Add, shifted), Err(Error::PartialOverlap));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_aliased_(&mut self, op: BinaryOp, other: Layout) -> Result<()> {
        self.layout.check_no_partial_overlap(&other, true)?;
        other.check_bounds(self.storage.len_of(self.dtype), self.dtype.size())?;
        let sizes: Vec<isize> = self.shape().iter().map(|&n| n as isize).collect();
        let rhs = Input {
            storage: None,
            layout: other.expand(&sizes)?,
            dtype: self.dtype,
        };
        let lhs = Input {
            storage: None,
            layout: self.layout.clone(),
            dtype: self.dtype,
        };
        op.output_dtype(self.dtype)?;
        let device = self.storage_device();
        device.binary(op, lhs.into(), rhs.into(), self.output()?)
    }

    /// `x.op_(s)` for a scalar, converted to `x`'s dtype when PyTorch allows.
    ///
    /// # Errors
    /// As [`TensorMut::binary_`].
    ///
    /// ```
    /// # use axial_core::{BinaryOp, RawTensor, Scalar};
    /// let mut x = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// x.view_mut().binary_scalar_(BinaryOp::Pow, Scalar::Int(3))?;
    /// assert_eq!(x.to_vec::<f32>()?, vec![1.0, 8.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_scalar_(&mut self, op: BinaryOp, s: Scalar) -> Result<()> {
        let dtype = scalar_result_dtype(self.dtype, s);
        self.check_inplace(op, dtype, &[])?;
        let lhs = Input {
            storage: None,
            layout: self.layout.clone(),
            dtype: self.dtype,
        };
        let s = Arg::Scalar(rounded(rounded(s, dtype), self.dtype));
        let device = self.storage_device();
        device.binary(op, lhs.into(), s, self.output()?)
    }

    fn storage_device(&self) -> D {
        self.storage.device().clone()
    }

    /// Checks PyTorch's in-place rules; the converted operand when needed.
    fn inplace_operand(
        &self,
        op: BinaryOp,
        other: &TensorRef<'_, D>,
    ) -> Result<Option<RawTensor<D>>> {
        self.check_inplace(op, other.dtype, other.shape())?;
        converted(other, self.dtype)
    }

    /// PyTorch's in-place rules for `x.op_(y)` with `y` of `dtype` and `shape`.
    fn check_inplace(&self, op: BinaryOp, dtype: DType, shape: &[usize]) -> Result<()> {
        let computed = op.output_dtype(self.dtype.promote(dtype)?)?;
        if !can_cast(computed, self.dtype) {
            return Err(Error::CannotCast {
                from: computed,
                to: self.dtype,
            });
        }
        if op.output_dtype(self.dtype)? != self.dtype {
            return Err(Error::CannotCast {
                from: op.output_dtype(self.dtype)?,
                to: self.dtype,
            });
        }
        let shape = broadcast_shapes(self.shape(), shape)?;
        if shape.as_slice() != self.shape() {
            return Err(Error::InPlaceShape {
                output: self.shape().to_vec(),
                broadcast: shape.to_vec(),
            });
        }
        Ok(())
    }
}
