//! Complex tensors' parts: `view_as_real`, `real` and `imag` (views of the
//! complex storage as its real dtype), and `conj` and `angle`, written with
//! them.

use super::{RawTensor, TensorRef};
use crate::{Backend, BinaryOp, CmpOp, DType, Error, Layout, Result, Scalar, UnaryOp};

impl<'a, D: Backend> TensorRef<'a, D> {
    /// `torch.view_as_real(x)`: a complex tensor as its real dtype with a
    /// last dim of 2 (real, imaginary), over the same storage.
    ///
    /// # Errors
    /// The tensor is not complex (PyTorch's message).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use num_complex::Complex;
    /// let z = RawTensor::from_vec(vec![Complex::new(1.0f32, 2.0), Complex::new(3.0, -4.0)], &[2])?;
    /// let r = z.view().view_as_real()?;
    /// assert_eq!((r.shape(), r.strides()), (&[2, 2][..], &[2, 1][..]));
    /// assert_eq!(r.to_vec::<f32>()?, vec![1.0, 2.0, 3.0, -4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn view_as_real(&self) -> Result<TensorRef<'a, D>> {
        if !self.dtype().is_complex() {
            return Err(Error::invalid(
                "view_as_real",
                "view_as_real is only supported for complex tensors",
            ));
        }
        let mut shape = self.shape().to_vec();
        shape.push(2);
        let mut strides: Vec<isize> = self.strides().iter().map(|s| 2 * s).collect();
        strides.push(1);
        let layout = Layout::from_parts(&shape, &strides, 2 * self.offset());
        TensorRef::new(self.storage(), layout, self.dtype().to_real())
    }

    /// `x.real`: the real parts of a complex tensor (a view), the tensor
    /// itself for a real one.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use num_complex::Complex;
    /// let z = RawTensor::from_vec(vec![Complex::new(1.0f64, 2.0)], &[1])?;
    /// assert_eq!(z.view().real()?.to_vec::<f64>()?, vec![1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn real(&self) -> Result<TensorRef<'a, D>> {
        if !self.dtype().is_complex() {
            return Ok(self.clone());
        }
        self.view_as_real()?.select(-1, 0)
    }

    /// `x.imag`: the imaginary parts of a complex tensor (a view).
    ///
    /// # Errors
    /// The tensor is not complex (PyTorch's message).
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use num_complex::Complex;
    /// let z = RawTensor::from_vec(vec![Complex::new(1.0f64, 2.0)], &[1])?;
    /// assert_eq!(z.view().imag()?.to_vec::<f64>()?, vec![2.0]);
    /// assert!(RawTensor::zeros(&[1], DType::F32)?.view().imag().is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn imag(&self) -> Result<TensorRef<'a, D>> {
        if !self.dtype().is_complex() {
            return Err(Error::invalid(
                "imag",
                "imag is not implemented for tensors with non-complex dtypes.",
            ));
        }
        self.view_as_real()?.select(-1, 1)
    }

    /// `x.conj()` resolved: the complex conjugate (a copy; the values of a
    /// real tensor).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use num_complex::Complex;
    /// let z = RawTensor::from_vec(vec![Complex::new(1.0f32, 2.0)], &[1])?;
    /// assert_eq!(z.view().conj()?.to_vec::<Complex<f32>>()?, vec![Complex::new(1.0, -2.0)]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conj(&self) -> Result<RawTensor<D>> {
        let mut out = self.to_contiguous()?;
        if self.dtype().is_complex() {
            let parts = out.view().view_as_real()?;
            let layout = parts.select(-1, 1)?.layout().clone();
            let dtype = parts.dtype();
            let mut imag = super::TensorMut::new(out.storage_mut(), layout, dtype)?;
            imag.unary_(UnaryOp::Neg)?;
        }
        Ok(out)
    }

    /// `torch.angle(x)`: the argument of complex numbers (`atan2(im, re)`,
    /// of their real dtype); of real numbers, π for the negative ones, 0
    /// for the others and NaN for NaN (integers give f32).
    ///
    /// # Errors
    /// The dtype has no angle (bool, the float8s: PyTorch's message).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use num_complex::Complex;
    /// let z = RawTensor::from_vec(vec![Complex::new(0.0f64, 2.0), Complex::new(-1.0, 0.0)], &[2])?;
    /// let a = z.view().angle()?.to_vec::<f64>()?;
    /// assert_eq!(a, vec![std::f64::consts::FRAC_PI_2, std::f64::consts::PI]);
    /// let x = RawTensor::from_vec(vec![-2i64, 3], &[2])?;
    /// assert_eq!(x.view().angle()?.to_vec::<f32>()?, vec![std::f32::consts::PI, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn angle(&self) -> Result<RawTensor<D>> {
        let dtype = self.dtype();
        if dtype.is_complex() {
            return self.imag()?.binary(BinaryOp::Atan2, &self.real()?);
        }
        if dtype == DType::Bool || dtype.is_float8() {
            return Err(Error::Unsupported {
                op: "angle_cpu",
                dtype,
            });
        }
        let x = if dtype.is_float() {
            self.to_contiguous()?
        } else {
            self.to_dtype(DType::F32)?
        };
        let x = x.view();
        // π where x < 0, else 0; NaN (x itself) where x is NaN.
        let device = x.storage().device();
        let negative = x.compare_scalar(CmpOp::Lt, Scalar::Float(0.0))?;
        let pi = RawTensor::full_on(device, &[], Scalar::Float(std::f64::consts::PI), x.dtype())?;
        let zero = RawTensor::full_on(device, &[], Scalar::Float(0.0), x.dtype())?;
        let angle = negative.view().where_(&pi.view(), &zero.view())?;
        let nan = x.compare(CmpOp::Ne, &x)?;
        nan.view().where_(&x, &angle.view())
    }
}
