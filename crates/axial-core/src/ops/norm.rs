//! `layer_norm` over the trailing dims: a fused op. The CPU and CUDA run
//! kernels of their own over `[rows, n]` rows (in f32 for f16 and bf16,
//! converting inside the kernel: the CPU's `cpu/norm.rs`, CUDA's
//! `layer_norm_<dtype>`); another device gets [`LayerNorm::composite`]:
//! mean, biased variance, then `(x − mean)/√(var + eps) · weight + bias`.

use super::compose::{elementwise, in_place, own, reduced, unary, wide};
use super::grad::{AsView, add_scalar, as_dtype, bin_, mean_keep, mul, sub, sum_keep, un};
use super::{Derivative, Keep, Lowering, Op, OpInfo, Saves};
use crate::autograd::Grad;
use crate::{
    Arg, Backend, BinaryOp, DType, Error, Input, Layout, Output, RawTensor, ReduceOp, Result,
    Scalar, TensorRef, UnaryOp,
};

/// `layer_norm(x, normalized_shape, weight, bias, eps)` of rows: a device
/// is handed `[rows, n]` operands, the weight and bias (when given) `[n]`.
///
/// # Example
/// ```
/// use axial_core::ops::{LayerNorm, Op};
/// assert_eq!(LayerNorm { eps: 1e-5 }.name(), "layer_norm");
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LayerNorm {
    /// Added to the variance.
    pub eps: f64,
}

impl Op for LayerNorm {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "layer_norm",
            lowering: Lowering::Fused,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Always; 3],
                output: false,
            }),
        }
    }
}

impl LayerNorm {
    /// The CUDA kernel (`layer_norm_<dtype>`): one block per row.
    pub const CUDA_KERNEL: &'static str = "layer_norm";

    /// The rows and their length of a tensor of `shape` and `dtype`
    /// normalised over `normalized_shape`, its trailing sizes, with a
    /// weight and a bias of those shapes and dtypes (when given), as the
    /// tensor layer asks for it.
    ///
    /// # Errors
    /// Trailing sizes other than `normalized_shape`, a weight or bias of
    /// another shape or dtype, or a dtype that is not float.
    ///
    /// ```
    /// # use axial_core::{DType, ops::LayerNorm};
    /// assert_eq!(LayerNorm::rows(&[2, 3, 4], &[3, 4], [None, None], DType::F32)?, (2, 12));
    /// let e = LayerNorm::rows(&[2, 2], &[3], [None, None], DType::F32).unwrap_err();
    /// assert!(e.to_string().contains("expected input with shape [*, 3], but got input of size[2, 2]"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn rows(
        shape: &[usize],
        normalized_shape: &[usize],
        params: [Option<(&[usize], DType)>; 2],
        dtype: DType,
    ) -> Result<(usize, usize)> {
        let op = "layer_norm";
        if !dtype.is_float() {
            return Err(Error::Unsupported { op, dtype });
        }
        let k = normalized_shape.len();
        if k == 0 || k > shape.len() || shape[shape.len() - k..] != *normalized_shape {
            return Err(Error::invalid(
                op,
                format!(
                    "Given normalized_shape={normalized_shape:?}, expected input with shape [*, {}], but got input of size{shape:?}",
                    normalized_shape
                        .iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        for (what, p) in ["weight", "bias"].into_iter().zip(params) {
            if let Some((p_shape, p_dtype)) = p
                && (p_shape != normalized_shape || p_dtype != dtype)
            {
                return Err(Error::invalid(
                    op,
                    format!(
                        "Expected {what} to be of same shape as normalized_shape, but got {what} of shape {p_shape:?} ({}) and normalized_shape = {normalized_shape:?} ({})",
                        p_dtype.name(),
                        dtype.name()
                    ),
                ));
            }
        }
        let n: usize = normalized_shape.iter().product();
        Ok((
            shape.iter().product::<usize>().checked_div(n).unwrap_or(0),
            n,
        ))
    }

    /// Checks the operands a device is handed: `[rows, n]` input and
    /// output of one shape and float dtype, a weight and bias of `[n]`
    /// and that dtype (any layouts); the rows and `n`.
    ///
    /// # Errors
    /// Any of those.
    ///
    /// ```
    /// use axial_core::{DType, Layout, Output, RawTensor, Storage, ops::LayerNorm};
    /// let x = RawTensor::from_vec(vec![0.0f32; 6], &[2, 3])?;
    /// let w = RawTensor::from_vec(vec![1.0f32; 2], &[2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 6]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 3]), dtype: DType::F32 };
    /// let e = LayerNorm { eps: 0.0 }.check(&x.view().input(), [Some(&w.view().input()), None], &dst);
    /// assert!(e.unwrap_err().to_string().contains("weight and bias must be [3]"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn check<D: Backend>(
        &self,
        src: &Input<'_, D>,
        params: [Option<&Input<'_, D>>; 2],
        dst: &Output<'_, D>,
    ) -> Result<(usize, usize)> {
        let op = self.name();
        let shape = dst.layout.shape();
        if shape.len() != 2 || src.layout.shape() != shape {
            return Err(Error::invalid(
                op,
                format!(
                    "expected [rows, n] operands of one shape, got {:?} and {shape:?}",
                    src.layout.shape()
                ),
            ));
        }
        let (rows, n) = (shape[0], shape[1]);
        for p in params.into_iter().flatten() {
            if p.layout.shape() != [n] || p.dtype != dst.dtype {
                return Err(Error::invalid(
                    op,
                    format!(
                        "weight and bias must be [{n}] of {}, got {:?} of {}",
                        dst.dtype.name(),
                        p.layout.shape(),
                        p.dtype.name()
                    ),
                ));
            }
            p.check_source(op, dst.dtype)?;
        }
        if !dst.dtype.is_float() {
            return Err(Error::Unsupported {
                op,
                dtype: dst.dtype,
            });
        }
        dst.check(op, dst.dtype)?;
        src.check_elementwise(op, dst.dtype, dst)?;
        Ok((rows, n))
    }

    /// The op written with primitives, for a device without a kernel of
    /// its own: the mean and the biased variance of each row, then
    /// `(x − mean) · (var + eps)^−½ · weight + bias`, in f32 for f16 and
    /// bf16, rounded once.
    ///
    /// # Errors
    /// As [`LayerNorm::check`], or a device failure.
    pub fn composite<D: Backend>(
        &self,
        device: &D,
        src: Input<'_, D>,
        weight: Option<Input<'_, D>>,
        bias: Option<Input<'_, D>>,
        dst: Output<'_, D>,
    ) -> Result<()> {
        let (rows, n) = self.check(&src, [weight.as_ref(), bias.as_ref()], &dst)?;
        if rows == 0 || n == 0 {
            return Ok(());
        }
        let compute = wide(dst.dtype);
        let x = own(device, &src, &dst, compute)?;
        let mean = reduced(device, ReduceOp::Mean, &x, &[1])?;
        let var = reduced(device, ReduceOp::Var { correction: 0.0 }, &x, &[1])?;
        let mut y = elementwise(device, BinaryOp::Sub, &x, &mean.view())?;
        let mut shifted = var;
        let lhs = Input {
            storage: None,
            layout: shifted.layout().clone(),
            dtype: compute,
        };
        let eps = Arg::Scalar(Scalar::Float(self.eps));
        device.binary(BinaryOp::Add, lhs.into(), eps, shifted.output())?;
        let rstd = unary(device, UnaryOp::Rsqrt, &shifted)?;
        in_place(device, BinaryOp::Mul, &mut y, &rstd.view())?;
        for (op, p) in [(BinaryOp::Mul, weight), (BinaryOp::Add, bias)] {
            if let Some(p) = p {
                let p = own(device, &p, &dst, compute)?;
                in_place(device, op, &mut y, &p.view())?;
            }
        }
        device.copy(y.view().input(), dst)
    }
}

/// The gradients of `layer_norm` over the last `k` dims: of the input, the
/// weight and the bias (PyTorch's `native_layer_norm_backward`), f16 and
/// bf16 computed in f32. The statistics are computed again from the input
/// the op kept. The device's one-pass kernel
/// ([`Backend::layer_norm_backward`]) runs where it has one.
pub(crate) struct LayerNormGrad<'a, D: crate::Device> {
    /// The op.
    pub(crate) op: LayerNorm,
    /// The input.
    pub(crate) x: TensorRef<'a, D>,
    /// The weight, when the op has one.
    pub(crate) weight: Option<TensorRef<'a, D>>,
    /// How many trailing dims are normalised.
    pub(crate) k: usize,
    /// Which of input, weight and bias need a gradient.
    pub(crate) needs: [bool; 3],
}

impl<D: Backend> LayerNormGrad<'_, D> {
    /// The three gradients (`None` where not needed).
    pub(crate) fn backward(&self, g: &Grad<D>) -> Result<[Option<Grad<D>>; 3]> {
        if let Some(grads) = self.fused(g)? {
            return Ok(grads);
        }
        let dtype = self.x.dtype();
        let w = wide(dtype);
        let x = as_dtype(self.x.clone(), w)?;
        let x = x.as_ref();
        let g = as_dtype(g.view(), w)?;
        let g = g.as_ref();
        let rank = x.shape().len();
        let norm_dims: Vec<usize> = (rank - self.k..rank).collect();
        let lead: Vec<usize> = (0..rank - self.k).collect();
        // Steps in place where they can be: at most three buffers of the
        // input's size beside it and `g` (a backward pass's peak memory is
        // its saved tensors and such temporaries).
        let mean = mean_keep(&x, &norm_dims)?;
        let centred = sub(&x, &mean)?;
        let var = mean_keep(&mul(&centred, &centred)?, &norm_dims)?;
        let rstd = un(UnaryOp::Rsqrt, &add_scalar(&var, self.op.eps)?)?;
        let xhat = bin_(centred, BinaryOp::Mul, &rstd)?;
        let back =
            |t: RawTensor<D>| -> Result<Grad<D>> { Ok(Grad::new(t.view().to_dtype(dtype)?)) };
        // A parameter's gradient from one of the input's shape, summed
        // over the leading dims (`g` itself is summed without a copy).
        let param_grad = |t: &dyn AsView<D>| -> Result<Grad<D>> {
            let t = t.as_view();
            let shape = t.shape()[rank - self.k..].to_vec();
            let summed = if lead.is_empty() {
                t.to_contiguous()?
            } else {
                sum_keep(&t, &lead)?
            };
            back(summed)?.reshaped(&shape)
        };
        let gx = if self.needs[0] {
            let gxhat = match &self.weight {
                Some(wt) => mul(&g, &wt.to_dtype(w)?)?,
                None => g.to_contiguous()?,
            };
            let a = mean_keep(&gxhat, &norm_dims)?;
            let b = mul(&xhat, &mean_keep(&mul(&gxhat, &xhat)?, &norm_dims)?)?;
            let centred = bin_(bin_(gxhat, BinaryOp::Sub, &a)?, BinaryOp::Sub, &b)?;
            drop(b);
            Some(back(bin_(centred, BinaryOp::Mul, &rstd)?)?)
        } else {
            None
        };
        let gw = match self.needs[1] {
            true => Some(param_grad(&mul(&g, &xhat)?)?),
            false => None,
        };
        let gb = match self.needs[2] {
            true => Some(param_grad(&g)?),
            false => None,
        };
        Ok([gx, gw, gb])
    }

    /// The three gradients from the device's one-pass kernel
    /// ([`Backend::layer_norm_backward`]), when it has one for these
    /// operands (f32, contiguous); `None` sends the caller to the composed
    /// formula.
    fn fused(&self, g: &Grad<D>) -> Result<Option<[Option<Grad<D>>; 3]>> {
        let (x, g) = (&self.x, g.view());
        let f32s = [Some(x), Some(&g), self.weight.as_ref()]
            .iter()
            .flatten()
            .all(|t| t.dtype() == DType::F32 && t.is_contiguous());
        let shape = x.shape();
        let norm_shape = &shape[shape.len() - self.k..];
        let n: usize = norm_shape.iter().product();
        if !f32s || g.shape() != shape || n == 0 || x.numel() == 0 {
            return Ok(None);
        }
        let rows = x.numel() / n;
        let as_rows = [rows as isize, n as isize];
        let (x2, g2) = (x.view(&as_rows)?, g.view(&as_rows)?);
        let w = self
            .weight
            .as_ref()
            .map(|w| w.view(&[n as isize]))
            .transpose()?;
        let device = x.storage().device();
        let alloc = |need: bool, shape: &[usize]| {
            need.then(|| crate::tensor::alloc_output(device, Layout::contiguous(shape), DType::F32))
                .transpose()
        };
        let [nx, nw, nb] = self.needs;
        let mut grads = [alloc(nx, &[rows, n])?, alloc(nw, &[n])?, alloc(nb, &[n])?];
        let [ox, ow, ob] = &mut grads;
        let outputs = [ox, ow, ob].map(|o| o.as_mut().map(RawTensor::output));
        let done = device.layer_norm_backward(
            self.op,
            x2.input(),
            g2.input(),
            w.as_ref().map(TensorRef::input),
            outputs,
        )?;
        if !done {
            return Ok(None);
        }
        let [gx, gw, gb] = grads;
        let shaped = |t: Option<RawTensor<D>>, to: &[usize]| {
            t.map(|t| Grad::new(t).reshaped(to)).transpose()
        };
        Ok(Some([
            shaped(gx, shape)?,
            shaped(gw, norm_shape)?,
            shaped(gb, norm_shape)?,
        ]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtypes_other_than_float_are_refused() {
        let e = LayerNorm::rows(&[2], &[2], [None, None], DType::I32).unwrap_err();
        assert_eq!(e.to_string(), "\"layer_norm\" not implemented for 'Int'");
    }
}
