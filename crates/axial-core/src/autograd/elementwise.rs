//! Elementwise ops on tracked tensors: unary math, activations, binary
//! arithmetic with broadcasting (each gradient summed back to its
//! operand's shape), scalars on either side, `masked_fill`, `where`,
//! casts, and the in-place twins.

use std::rc::Rc;
use std::sync::Arc;

use super::grad::Grad;
use super::is_grad_enabled;
use super::node::{BackwardFn, Saved};
use super::var::{Data, Var};
use crate::ops::binary::BinaryGrad;
use crate::ops::grad::{cmp_scalar, keep_where, mul, neg, scale, sum_to, zero_where};
use crate::ops::select::{MaskedFill, Where};
use crate::ops::unary::{UnaryGrad, no_derivative};
use crate::ops::{Derivative, Saves};
use crate::{
    Backend, BinaryOp, CmpOp, DType, Error, Layout, Result, Scalar, Storage, TensorMut, TensorRef,
    UnaryOp,
};

/// The refusal of an in-place op whose derivative would need the operand
/// it overwrites.
const KEEPS_OPERANDS: &str = "the op keeps its operands: pass the tensor as a constant `Var`";

/// The kept tensors, read back (each checked against its version).
pub(crate) fn read<'a, D: Backend>(
    saved: &'a Option<Saved<'_, D>>,
) -> Result<Option<TensorRef<'a, D>>> {
    saved.as_ref().map(Saved::get).transpose()
}

/// `g` summed to `shape` and converted to `dtype`: an operand's gradient
/// from one of the broadcast, promoted output.
pub(crate) fn fit<D: Backend>(g: Grad<D>, shape: &[usize], dtype: DType) -> Result<Grad<D>> {
    let g = sum_to(g, shape)?;
    if g.dtype() == dtype {
        return Ok(g);
    }
    Ok(Grad::new(g.view().to_dtype(dtype)?))
}

/// PyTorch's class name of an op's backward node, from the op's name.
pub(crate) fn node_name(op: &'static str) -> &'static str {
    match op {
        "neg" => "Neg",
        "abs" => "Abs",
        "sqrt" => "Sqrt",
        "rsqrt" => "Rsqrt",
        "exp" => "Exp",
        "log" => "Log",
        "log1p" => "Log1P",
        "expm1" => "Expm1",
        "sin" => "Sin",
        "cos" => "Cos",
        "tan" => "Tan",
        "tanh" => "Tanh",
        "sigmoid" => "Sigmoid",
        "relu" => "Relu",
        "gelu" => "Gelu",
        "silu" => "Silu",
        "erf" => "Erf",
        "floor" => "Floor",
        "ceil" => "Ceil",
        "round" => "Round",
        "trunc" => "Trunc",
        "sign" => "Sign",
        "reciprocal" => "Reciprocal",
        "square" | "pow" => "Pow",
        "clamp" => "Clamp",
        "add" => "Add",
        "sub" => "Sub",
        "mul" => "Mul",
        "div" => "Div",
        "remainder" => "Remainder",
        "maximum" => "Maximum",
        "minimum" => "Minimum",
        "atan2" => "Atan2",
        other => other,
    }
}

/// The backward function of `op(x)`, given what it kept.
fn unary_backward<'g, D: Backend>(
    op: UnaryOp,
    x: Option<Saved<'g, D>>,
    y: Option<Saved<'g, D>>,
) -> BackwardFn<'g, D> {
    Box::new(move |g, _| {
        let ctx = UnaryGrad {
            op,
            g,
            x: read(&x)?,
            y: read(&y)?,
        };
        Ok(vec![Some(Grad::new(op.backward(&ctx)?))])
    })
}

/// The backward function of `op(a, b)` (or its in-place twin), given what
/// it kept and the operands' shapes and dtypes.
fn binary_backward<'g, D: Backend>(
    op: BinaryOp,
    kept: [Option<Saved<'g, D>>; 3],
    operands: [(Vec<usize>, DType); 2],
) -> BackwardFn<'g, D> {
    let [a, b, y] = kept;
    Box::new(move |g, needs| {
        let ctx = BinaryGrad {
            op,
            g,
            a: read(&a)?,
            b: read(&b)?,
            y: read(&y)?,
            needs: [needs[0], needs[1]],
        };
        let grads = op.backward(&ctx)?;
        let mut out = Vec::with_capacity(2);
        for (gi, (shape, dtype)) in grads.into_iter().zip(&operands) {
            out.push(gi.map(|gi| fit(gi, shape, *dtype)).transpose()?);
        }
        Ok(out)
    })
}

/// What `op` keeps, or PyTorch's error for an op without a derivative.
fn saves(name: &'static str, derivative: Derivative) -> Result<Saves> {
    match derivative {
        Derivative::Written(saves) => Ok(saves),
        _ => Err(no_derivative(name)),
    }
}

/// The error for a write into a storage other tensors view.
fn shared_write(op: &'static str) -> Error {
    Error::invalid(
        op,
        "cannot write in place into a tensor whose storage another tensor views (a view made with `&self`): the write could not show through every alias; write before taking views, or into a copy",
    )
}

impl<'g, D: Backend> Var<'g, D> {
    /// `op(x)` elementwise, with its derivative from the op table.
    ///
    /// # Errors
    /// As [`TensorRef::unary`]; an op without a derivative
    /// ([`UnaryOp::derivative`]) on a tensor that needs a gradient.
    ///
    /// ```
    /// use axial_core::autograd::Var;
    /// use axial_core::{RawTensor, UnaryOp};
    /// let x = Var::leaf(RawTensor::from_vec(vec![0.5f64], &[1])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.unary(UnaryOp::Tanh)?.sum(&[], false)?;
    /// let g = y.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert!((g[0] - (1.0 - 0.5f64.tanh().powi(2))).abs() < 1e-15);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unary(&self, op: UnaryOp) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().unary(op)?);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let saves = saves(op.name(), op.derivative())?;
        let x = saves.keeps(0, &[true]).then(|| self.save());
        let y = saves.keeps_output(&[true]).then(|| out.save());
        out.attach(node_name(op.name()), &[self], unary_backward(op, x, y));
        Ok(out)
    }

    /// `eˣ`.
    ///
    /// # Errors
    /// As [`Var::unary`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![0.0f32], &[1])?)?;
    /// assert_eq!(x.exp()?.value().to_vec::<f32>()?, vec![1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn exp(&self) -> Result<Var<'g, D>> {
        self.unary(UnaryOp::Exp)
    }

    /// `op(self, other)` elementwise, broadcast, with its derivative from
    /// the op table: each operand's gradient is summed over the axes it was
    /// broadcast along.
    ///
    /// # Errors
    /// As [`TensorRef::binary`]; an op without a derivative on tensors that
    /// need a gradient.
    ///
    /// ```
    /// use axial_core::autograd::Var;
    /// use axial_core::{BinaryOp, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?)?;
    /// let b = Var::leaf(RawTensor::from_vec(vec![10.0f64, 20.0], &[2])?)?;
    /// let (ix, ib) = (x.leaf_id().unwrap(), b.leaf_id().unwrap());
    /// let grads = x.binary(BinaryOp::Mul, &b)?.sum(&[], false)?.backward()?;
    /// assert_eq!(grads.get(ib).unwrap().to_vec::<f64>()?, vec![4.0, 6.0]); // summed over rows
    /// assert_eq!(grads.get(ix).unwrap().to_vec::<f64>()?, vec![10.0, 20.0, 10.0, 20.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary(&self, op: BinaryOp, other: &Var<'g, D>) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().binary(op, &other.value())?);
        if !Var::tracks(&[self, other]) {
            return Ok(out);
        }
        let saves = saves(op.name(), op.derivative())?;
        let needs = Var::needs(&[self, other]);
        let kept = [
            saves.keeps(0, &needs).then(|| self.save()),
            saves.keeps(1, &needs).then(|| other.save()),
            saves.keeps_output(&needs).then(|| out.save()),
        ];
        let operands = [
            (self.shape().to_vec(), self.dtype),
            (other.shape().to_vec(), other.dtype),
        ];
        let backward = binary_backward(op, kept, operands);
        out.attach(node_name(op.name()), &[self, other], backward);
        Ok(out)
    }

    /// `op(self, other)` (or `op(other, self)` when `other_first`) with an
    /// operand that needs no gradient and that the op does not keep (`add`,
    /// `sub`), so the result does not borrow it.
    ///
    /// # Errors
    /// As [`TensorRef::binary`]; an op that would keep `other`.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, BinaryOp, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = {
    ///     let c = RawTensor::from_vec(vec![10.0f64], &[1])?; // gone before y is used
    ///     x.binary_untracked(BinaryOp::Sub, &c.view(), true)? // 10 - x
    /// };
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![9.0, 8.0]);
    /// assert_eq!(y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![-1.0, -1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_untracked(
        &self,
        op: BinaryOp,
        other: &TensorRef<'_, D>,
        other_first: bool,
    ) -> Result<Var<'g, D>> {
        // This tensor's position among the operands.
        let me = usize::from(other_first);
        let mut needs = [false; 2];
        needs[me] = true;
        let saves = saves(op.name(), op.derivative())?;
        if saves.keeps(1 - me, &needs) || saves.keeps_output(&needs) {
            return Err(Error::invalid(op.name(), KEEPS_OPERANDS));
        }
        let x = self.value();
        let value = match other_first {
            true => other.binary(op, &x)?,
            false => x.binary(op, other)?,
        };
        let mut out = Var::fresh(value);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let mut kept = [None, None, None];
        if saves.keeps(me, &needs) {
            kept[me] = Some(self.save());
        }
        let mut operands = [
            (other.shape().to_vec(), other.dtype()),
            (other.shape().to_vec(), other.dtype()),
        ];
        operands[me] = (self.shape().to_vec(), self.dtype);
        let inner = binary_backward(op, kept, operands);
        out.attach(
            node_name(op.name()),
            &[self],
            Box::new(move |g, _| {
                let grads = inner(g, &needs)?;
                Ok(vec![grads.into_iter().nth(me).flatten()])
            }),
        );
        Ok(out)
    }

    /// `self + other`, broadcast.
    ///
    /// # Errors
    /// As [`Var::binary`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// assert_eq!(x.add(&x)?.value().to_vec::<f32>()?, vec![2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn add(&self, other: &Var<'g, D>) -> Result<Var<'g, D>> {
        self.binary(BinaryOp::Add, other)
    }

    /// `self * other`, broadcast.
    ///
    /// # Errors
    /// As [`Var::binary`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![3.0f32], &[1])?)?;
    /// assert_eq!(x.mul(&x)?.value().to_vec::<f32>()?, vec![9.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn mul(&self, other: &Var<'g, D>) -> Result<Var<'g, D>> {
        self.binary(BinaryOp::Mul, other)
    }

    /// `self op s` with a scalar on the right: `add`, `sub`, `mul`, `div`,
    /// `remainder` and `pow` have derivatives.
    ///
    /// # Errors
    /// As [`TensorRef::binary_scalar`]; another op on a tensor that needs a
    /// gradient.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, BinaryOp, RawTensor, Scalar};
    /// let x = Var::leaf(RawTensor::from_vec(vec![2.0f64], &[1])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.binary_scalar(BinaryOp::Pow, Scalar::Float(3.0))?; // x³
    /// assert_eq!(y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![12.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_scalar(&self, op: BinaryOp, s: Scalar) -> Result<Var<'g, D>> {
        if op == BinaryOp::Pow && self.dtype.is_float() {
            return self.unary(UnaryOp::PowScalar(s.to_f64()));
        }
        let mut out = Var::fresh(self.value().binary_scalar(op, s)?);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let (shape, dtype) = (self.shape().to_vec(), self.dtype);
        let v = s.to_f64();
        let backward: BackwardFn<'g, D> = match op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Rem => {
                Box::new(move |g, _| Ok(vec![Some(fit(g, &shape, dtype)?)]))
            }
            BinaryOp::Mul => {
                Box::new(move |g, _| Ok(vec![Some(fit(Grad::new(scale(&g, v)?), &shape, dtype)?)]))
            }
            BinaryOp::Div => Box::new(move |g, _| {
                Ok(vec![Some(fit(
                    Grad::new(scale(&g, 1.0 / v)?),
                    &shape,
                    dtype,
                )?)])
            }),
            other => return Err(no_derivative(other.name())),
        };
        out.attach(node_name(op.name()), &[self], backward);
        Ok(out)
    }

    /// `s op self` with a scalar on the left: `add`, `sub`, `mul`, `div`
    /// (PyTorch's `s / x`, `reciprocal(x) · s`) and `pow` (`sˣ`) have
    /// derivatives.
    ///
    /// # Errors
    /// As [`TensorRef::scalar_binary`]; another op on a tensor that needs a
    /// gradient.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, BinaryOp, RawTensor, Scalar};
    /// let x = Var::leaf(RawTensor::from_vec(vec![2.0f64], &[1])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.scalar_binary(BinaryOp::Div, Scalar::Float(1.0))?; // 1/x
    /// assert_eq!(y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![-0.25]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn scalar_binary(&self, op: BinaryOp, s: Scalar) -> Result<Var<'g, D>> {
        if op == BinaryOp::Div && self.dtype.is_float() && Var::tracks(&[self]) {
            let r = self.unary(UnaryOp::Reciprocal)?;
            return r.binary_scalar(BinaryOp::Mul, s);
        }
        let mut out = Var::fresh(self.value().scalar_binary(op, s)?);
        if !Var::tracks(&[self]) {
            return Ok(out);
        }
        let (shape, dtype) = (self.shape().to_vec(), self.dtype);
        let v = s.to_f64();
        let backward: BackwardFn<'g, D> = match op {
            BinaryOp::Add => Box::new(move |g, _| Ok(vec![Some(fit(g, &shape, dtype)?)])),
            BinaryOp::Sub => {
                Box::new(move |g, _| Ok(vec![Some(fit(Grad::new(neg(&g)?), &shape, dtype)?)]))
            }
            BinaryOp::Mul => {
                Box::new(move |g, _| Ok(vec![Some(fit(Grad::new(scale(&g, v)?), &shape, dtype)?)]))
            }
            BinaryOp::Pow => {
                // d/dx sˣ = sˣ · ln s, the output kept.
                let y = out.save();
                Box::new(move |g, _| {
                    let y = y.get()?;
                    let d = scale(&mul(&g, &y)?, v.ln())?;
                    Ok(vec![Some(fit(Grad::new(d), &shape, dtype)?)])
                })
            }
            other => return Err(no_derivative(other.name())),
        };
        let name = if op == BinaryOp::Sub {
            "Rsub"
        } else {
            node_name(op.name())
        };
        out.attach(name, &[self], backward);
        Ok(out)
    }

    /// `hardtanh(x, min, max)`: `x` clamped to `[min, max]`, whose
    /// gradient is zero at the bounds themselves (PyTorch's rule; `clamp`
    /// passes it there). Keeps its input.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![-1.0f64, 0.0, 3.0, 6.0, 7.0], &[5])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.hardtanh(0.0, 6.0)?; // relu6
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![0.0, 0.0, 3.0, 6.0, 6.0]);
    /// let g = y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![0.0, 0.0, 1.0, 0.0, 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn hardtanh(&self, min: f64, max: f64) -> Result<Var<'g, D>> {
        let op = UnaryOp::Clamp {
            min: Some(min),
            max: Some(max),
        };
        let mut out = Var::fresh(self.value().unary(op)?);
        if Var::tracks(&[self]) {
            let x = self.save();
            out.attach(
                "Hardtanh",
                &[self],
                Box::new(move |g, _| {
                    let x = x.get()?;
                    let above = cmp_scalar(CmpOp::Gt, &x, min)?;
                    let below = cmp_scalar(CmpOp::Lt, &x, max)?;
                    let inside = above.view().binary(BinaryOp::LogicalAnd, &below.view())?;
                    Ok(vec![Some(Grad::new(keep_where(&inside, &g)?))])
                }),
            );
        }
        Ok(out)
    }

    /// `leaky_relu(x, slope)`: `x` where positive, `slope · x` elsewhere.
    /// Keeps its input.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![-2.0f64, 3.0], &[2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let y = x.leaky_relu(0.1)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![-0.2, 3.0]);
    /// assert_eq!(y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![0.1, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn leaky_relu(&self, slope: f64) -> Result<Var<'g, D>> {
        let x = self.value();
        let positive = cmp_scalar(CmpOp::Gt, &x, 0.0)?;
        let scaled = scale(&x, slope)?;
        let mut out = Var::fresh(positive.view().where_(&x, &scaled.view())?);
        if Var::tracks(&[self]) {
            let x = self.save();
            out.attach(
                "LeakyRelu",
                &[self],
                Box::new(move |g, _| {
                    let positive = cmp_scalar(CmpOp::Gt, &x.get()?, 0.0)?;
                    let scaled = scale(&g, slope)?;
                    Ok(vec![Some(Grad::new(
                        positive.view().where_(&g.view(), &scaled.view())?,
                    ))])
                }),
            );
        }
        Ok(out)
    }

    /// `prelu(x, weight)`: `x` where positive, `weight · x` elsewhere, the
    /// weight one value or one per channel (dim 1), as PyTorch's. Keeps
    /// both.
    ///
    /// # Errors
    /// A weight that is neither one value nor one per channel; a failure of
    /// the device.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![-2.0f64, 3.0, -1.0, -4.0], &[2, 2])?)?;
    /// let w = Var::leaf(RawTensor::from_vec(vec![0.5f64, 0.25], &[2])?)?;
    /// let iw = w.leaf_id().unwrap();
    /// let y = x.prelu(&w)?;
    /// assert_eq!(y.value().to_vec::<f64>()?, vec![-1.0, 3.0, -0.5, -1.0]);
    /// let g = y.sum(&[], false)?.backward()?.get(iw).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![-3.0, -4.0]); // Σ x over the negative ones of each channel
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn prelu(&self, weight: &Var<'g, D>) -> Result<Var<'g, D>> {
        let wsizes: Vec<isize> = prelu_shape(self.shape(), weight.shape())?
            .iter()
            .map(|&n| n as isize)
            .collect();
        let w = weight.value().reshape(&wsizes)?;
        let positive = self.value().compare_scalar(CmpOp::Gt, Scalar::Float(0.0))?;
        let scaled = self.value().binary(BinaryOp::Mul, &w.as_ref())?;
        let mut out = Var::fresh(positive.view().where_(&self.value(), &scaled.view())?);
        if Var::tracks(&[self, weight]) {
            let (x, wk) = (self.save(), weight.save());
            let w_shape = weight.shape().to_vec();
            out.attach(
                "PreluKernel",
                &[self, weight],
                Box::new(move |g, needs| {
                    let x = x.get()?;
                    let w = wk.get()?.reshape(&wsizes)?;
                    let w = w.as_ref();
                    let positive = cmp_scalar(CmpOp::Gt, &x, 0.0)?;
                    let gx = match needs[0] {
                        true => Some(Grad::new(
                            positive.view().where_(&g.view(), &mul(&g, &w)?.view())?,
                        )),
                        false => None,
                    };
                    let gw = match needs[1] {
                        true => {
                            let gw = zero_where(&positive, &mul(&g, &x)?)?;
                            Some(sum_to(Grad::new(gw), w.shape())?.reshaped(&w_shape)?)
                        }
                        false => None,
                    };
                    Ok(vec![gx, gw])
                }),
            );
        }
        Ok(out)
    }

    /// `x` converted to `dtype` (PyTorch's `x.to(dtype)`): the gradient is
    /// converted back, so f16 or bf16 activations can flow from f32 master
    /// weights. Between floats only on tensors that need a gradient.
    ///
    /// # Errors
    /// A non-float `dtype` for a tensor that needs a gradient; a failure of
    /// the device.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let w = Var::leaf(RawTensor::from_vec(vec![1.5f32], &[1])?)?;
    /// let id = w.leaf_id().unwrap();
    /// let h = w.to_dtype(DType::BF16)?;
    /// let grads = h.sum(&[], false)?.to_dtype(DType::F32)?.backward()?;
    /// assert_eq!(grads.get(id).unwrap().dtype(), DType::F32);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_dtype(&self, dtype: DType) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().to_dtype(dtype)?);
        if Var::tracks(&[self]) {
            if !dtype.is_float() {
                return Err(Error::invalid(
                    "to",
                    format!(
                        "only tensors of floating point dtype can require gradients, not {}",
                        dtype.name()
                    ),
                ));
            }
            let from = self.dtype;
            out.attach(
                "ToCopy",
                &[self],
                Box::new(move |g, _| Ok(vec![Some(Grad::new(g.view().to_dtype(from)?))])),
            );
        }
        Ok(out)
    }

    /// A copy of the elements with this tensor's history (PyTorch's
    /// `x.clone()`), laid out densely.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// let c = x.copied()?;
    /// assert!(c.requires_grad() && !c.is_leaf());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn copied(&self) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().to_owned()?);
        if Var::tracks(&[self]) {
            out.attach("Clone", &[self], Box::new(|g, _| Ok(vec![Some(g)])));
        }
        Ok(out)
    }

    /// `x.masked_fill(mask, value)`: `value` where the bool `mask`
    /// (broadcast to `x`) is true; the gradient is zero there. Keeps the
    /// mask.
    ///
    /// # Errors
    /// As [`TensorRef::masked_fill`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, Bool, RawTensor, Scalar};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let m = Var::constant(RawTensor::from_vec(vec![Bool::TRUE, Bool::FALSE], &[2])?);
    /// let id = x.leaf_id().unwrap();
    /// let y = x.masked_fill(&m, Scalar::Float(0.0))?;
    /// assert_eq!(y.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![0.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn masked_fill(&self, mask: &Var<'g, D>, value: Scalar) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(self.value().masked_fill(&mask.value(), value)?);
        if Var::tracks(&[self]) {
            let m = mask.save();
            out.attach(
                "MaskedFill",
                &[self],
                Box::new(move |g, _| Ok(vec![Some(MaskedFill::backward(&m.get()?, &g)?)])),
            );
        }
        Ok(out)
    }

    /// `torch.where(cond, a, b)`: `a` where the bool `cond` is true, else
    /// `b`, all broadcast; each gradient goes where its operand was chosen.
    /// Keeps the condition.
    ///
    /// # Errors
    /// As [`TensorRef::where_`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, Bool, RawTensor};
    /// let c = Var::constant(RawTensor::from_vec(vec![Bool::TRUE, Bool::FALSE], &[2])?);
    /// let a = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let b = Var::leaf(RawTensor::from_vec(vec![5.0f64], &[1])?)?;
    /// let (ia, ib) = (a.leaf_id().unwrap(), b.leaf_id().unwrap());
    /// let grads = Var::where_(&c, &a, &b)?.sum(&[], false)?.backward()?;
    /// assert_eq!(grads.get(ia).unwrap().to_vec::<f64>()?, vec![1.0, 0.0]);
    /// assert_eq!(grads.get(ib).unwrap().to_vec::<f64>()?, vec![1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn where_(cond: &Var<'g, D>, a: &Var<'g, D>, b: &Var<'g, D>) -> Result<Var<'g, D>> {
        let mut out = Var::fresh(cond.value().where_(&a.value(), &b.value())?);
        if Var::tracks(&[a, b]) {
            let c = cond.save();
            let operands = [(a.shape().to_vec(), a.dtype), (b.shape().to_vec(), b.dtype)];
            out.attach(
                "Where",
                &[a, b],
                Box::new(move |g, needs| {
                    let grads = Where::backward(&c.get()?, &g, [needs[0], needs[1]])?;
                    let mut out = Vec::with_capacity(2);
                    for (gi, (shape, dtype)) in grads.into_iter().zip(&operands) {
                        out.push(gi.map(|gi| fit(gi, shape, *dtype)).transpose()?);
                    }
                    Ok(out)
                }),
            );
        }
        Ok(out)
    }

    /// The storage to write in place: refused for a leaf that needs a
    /// gradient (PyTorch's error) and for a storage this tensor borrows or
    /// shares with other tensors; a storage only the graph shares is
    /// copied first, and the graph finds out at `backward` (the version
    /// it kept is behind), as PyTorch's version counter does.
    fn writable(&mut self, op: &'static str) -> Result<&mut Storage<D>> {
        if self.is_leaf() && is_grad_enabled() {
            return Err(Error::invalid(
                op,
                "a leaf Variable that requires grad is being used in an in-place operation.",
            ));
        }
        let views = Rc::strong_count(&self.family);
        match &mut self.data {
            Data::Borrowed(_) => Err(Error::invalid(
                op,
                "cannot write in place into a tensor read in place from its owner (a leaf or constant made with `_ref`)",
            )),
            Data::Shared(arc) => {
                if Arc::get_mut(arc).is_none() {
                    if views > 1 {
                        return Err(shared_write(op));
                    }
                    let bytes = arc.nbytes();
                    let whole = TensorRef::new(arc, Layout::contiguous(&[bytes]), DType::U8)?;
                    let (copy, _, _) = whole.to_owned()?.into_parts();
                    *arc = Arc::new(copy);
                }
                Arc::get_mut(arc).ok_or_else(|| shared_write(op))
            }
        }
    }

    /// Writes through `write` (given this tensor's storage, layout and
    /// dtype) and bumps the version.
    fn write_in_place(
        &mut self,
        op: &'static str,
        write: impl FnOnce(TensorMut<'_, D>) -> Result<()>,
    ) -> Result<()> {
        let (layout, dtype) = (self.layout.clone(), self.dtype);
        let storage = self.writable(op)?;
        write(TensorMut::new(storage, layout, dtype)?)?;
        let meta = &self.family.meta;
        meta.version.set(meta.version.get() + 1);
        Ok(())
    }

    /// The history after an in-place op: its node, whose first input is
    /// this tensor as it was.
    fn rebase(&mut self, name: &'static str, others: &[&Var<'g, D>], backward: BackwardFn<'g, D>) {
        let mut next = vec![self.node.take()];
        next.extend(others.iter().map(|v| v.node.clone()));
        self.attach_edges(name, next, backward);
    }

    /// `self = op(self, other)` in place (PyTorch's `add_`, `mul_`, ...),
    /// recorded: a tensor the op's derivative needs as it was before the
    /// write is kept as a copy (PyTorch's `original_self`).
    ///
    /// # Errors
    /// As [`TensorMut::binary_`]; a leaf that needs a gradient (PyTorch's
    /// error); a storage this tensor borrows or shares with other tensors.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, BinaryOp, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let mut h = x.mul(&x)?;
    /// h.binary_(BinaryOp::Add, &x)?; // h = x² + x
    /// let g = h.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![3.0, 5.0]);
    ///
    /// // exp keeps its output: writing into it is PyTorch's error at backward.
    /// let mut e = x.exp()?;
    /// e.binary_(BinaryOp::Add, &x)?;
    /// let err = e.sum(&[], false)?.backward().err().unwrap();
    /// assert!(err.to_string().starts_with(
    ///     "one of the variables needed for gradient computation has been modified by an inplace operation: [torch.DoubleTensor [2]], which is output 0 of Add, is at version 1; expected version 0 instead."
    /// ));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_(&mut self, op: BinaryOp, other: &Var<'g, D>) -> Result<()> {
        let tracks = Var::tracks(&[self, other]);
        let kept_before = if tracks {
            let saves = saves(op.name(), op.derivative())?;
            let needs = Var::needs(&[self, other]);
            let a = match saves.keeps(0, &needs) {
                true => Some(Saved::own(self.value().to_owned()?)),
                false => None,
            };
            let b = saves.keeps(1, &needs).then(|| other.save());
            Some((saves, needs, a, b))
        } else {
            None
        };
        let value = other.value();
        self.write_in_place(op.name(), |mut dst| dst.binary_(op, &value))?;
        if let Some((saves, needs, a, b)) = kept_before {
            let y = saves.keeps_output(&needs).then(|| self.save());
            let operands = [
                (self.shape().to_vec(), self.dtype),
                (other.shape().to_vec(), other.dtype),
            ];
            let backward = binary_backward(op, [a, b, y], operands);
            self.rebase(node_name(op.name()), &[other], backward);
        }
        Ok(())
    }

    /// `self = op(self, other)` in place with an operand that needs no
    /// gradient and that the op does not keep (`add_`, `sub_`), so this
    /// tensor does not borrow it.
    ///
    /// # Errors
    /// As [`Var::binary_`]; an op that would keep `other`.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, BinaryOp, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let mut h = x.mul(&x)?;
    /// {
    ///     let bias = RawTensor::from_vec(vec![0.5f64], &[1])?;
    ///     h.binary_untracked_(BinaryOp::Add, &bias.view())?;
    /// }
    /// assert_eq!(h.value().to_vec::<f64>()?, vec![1.5, 4.5]);
    /// assert_eq!(h.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?, vec![2.0, 4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_untracked_(&mut self, op: BinaryOp, other: &TensorRef<'_, D>) -> Result<()> {
        let tracks = Var::tracks(&[self]);
        let saves = saves(op.name(), op.derivative())?;
        if tracks && (saves.keeps(0, &[true, false]) || saves.keeps(1, &[true, false])) {
            return Err(Error::invalid(op.name(), KEEPS_OPERANDS));
        }
        self.write_in_place(op.name(), |mut dst| dst.binary_(op, other))?;
        if tracks {
            let operands = [
                (self.shape().to_vec(), self.dtype),
                (other.shape().to_vec(), other.dtype()),
            ];
            let inner = binary_backward(op, [None, None, None], operands);
            self.rebase(
                node_name(op.name()),
                &[],
                Box::new(move |g, _| {
                    let grads = inner(g, &[true, false])?;
                    Ok(vec![grads.into_iter().next().flatten()])
                }),
            );
        }
        Ok(())
    }

    /// `self = self op s` in place with a scalar (`add_`, `sub_`, `mul_`,
    /// `div_`, `pow_` of a number).
    ///
    /// # Errors
    /// As [`Var::binary_`] and [`Var::binary_scalar`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, BinaryOp, RawTensor, Scalar};
    /// let x = Var::leaf(RawTensor::from_vec(vec![3.0f64], &[1])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let mut h = x.mul(&x)?;
    /// h.binary_scalar_(BinaryOp::Mul, Scalar::Float(2.0))?; // 2x²
    /// let g = h.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![12.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn binary_scalar_(&mut self, op: BinaryOp, s: Scalar) -> Result<()> {
        if op == BinaryOp::Pow && self.dtype.is_float() {
            return self.unary_(UnaryOp::PowScalar(s.to_f64()));
        }
        let tracks = Var::tracks(&[self]);
        if tracks
            && !matches!(
                op,
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
            )
        {
            return Err(no_derivative(op.name()));
        }
        self.write_in_place(op.name(), |mut dst| dst.binary_scalar_(op, s))?;
        if tracks {
            let v = s.to_f64();
            let factor = match op {
                BinaryOp::Mul => v,
                BinaryOp::Div => 1.0 / v,
                _ => 1.0,
            };
            let backward: BackwardFn<'g, D> = match factor == 1.0 {
                true => Box::new(|g, _| Ok(vec![Some(g)])),
                false => Box::new(move |g, _| Ok(vec![Some(Grad::new(scale(&g, factor)?))])),
            };
            self.rebase(node_name(op.name()), &[], backward);
        }
        Ok(())
    }

    /// `self = op(self)` in place (PyTorch's `exp_`, `relu_`, ...),
    /// recorded; an op whose derivative reads its input keeps a copy of it
    /// (PyTorch's `original_self`).
    ///
    /// # Errors
    /// As [`Var::binary_`] and [`Var::unary`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor, UnaryOp};
    /// let x = Var::leaf(RawTensor::from_vec(vec![-1.0f64, 2.0], &[2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let mut h = x.copied()?;
    /// h.unary_(UnaryOp::Relu)?;
    /// let g = h.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![0.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unary_(&mut self, op: UnaryOp) -> Result<()> {
        let tracks = Var::tracks(&[self]);
        let before = if tracks {
            let saves = saves(op.name(), op.derivative())?;
            let x = match saves.keeps(0, &[true]) {
                true => Some(Saved::own(self.value().to_owned()?)),
                false => None,
            };
            Some((saves, x))
        } else {
            None
        };
        self.write_in_place(op.name(), |mut dst| dst.unary_(op))?;
        if let Some((saves, x)) = before {
            let y = saves.keeps_output(&[true]).then(|| self.save());
            self.rebase(node_name(op.name()), &[], unary_backward(op, x, y));
        }
        Ok(())
    }

    /// `x.masked_fill_(mask, value)` in place, recorded.
    ///
    /// # Errors
    /// As [`Var::binary_`] and [`Var::masked_fill`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, Bool, RawTensor, Scalar};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let m = Var::constant(RawTensor::from_vec(vec![Bool::FALSE, Bool::TRUE], &[2])?);
    /// let id = x.leaf_id().unwrap();
    /// let mut h = x.copied()?;
    /// h.masked_fill_(&m, Scalar::Float(f64::NEG_INFINITY))?;
    /// let g = h.exp()?.sum(&[], false)?.backward()?.get(id).unwrap().to_vec::<f64>()?;
    /// assert_eq!(g, vec![1f64.exp(), 0.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn masked_fill_(&mut self, mask: &Var<'g, D>, value: Scalar) -> Result<()> {
        let tracks = Var::tracks(&[self]);
        let filled = self.value().masked_fill(&mask.value(), value)?;
        self.write_in_place("masked_fill_", |mut dst| dst.copy_(&filled.view()))?;
        if tracks {
            let m = mask.save();
            self.rebase(
                "MaskedFill",
                &[],
                Box::new(move |g, _| Ok(vec![Some(MaskedFill::backward(&m.get()?, &g)?)])),
            );
        }
        Ok(())
    }

    /// `x.fill_(value)` in place: the elements no longer depend on what
    /// they were (a zero gradient to the old ones).
    ///
    /// # Errors
    /// As [`Var::binary_`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor, Scalar};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let mut h = x.copied()?;
    /// h.fill_(Scalar::Float(7.0))?;
    /// assert_eq!(h.value().to_vec::<f64>()?, vec![7.0, 7.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn fill_(&mut self, value: Scalar) -> Result<()> {
        let tracks = Var::tracks(&[self]);
        self.write_in_place("fill_", |mut dst| dst.fill_(value))?;
        if tracks {
            self.rebase(
                "Fill",
                &[],
                Box::new(|g, _| Ok(vec![Some(Grad::new(crate::ops::grad::zeros_like(&g)?))])),
            );
        }
        Ok(())
    }

    /// `x.copy_(src)` in place: the elements are `src`'s (broadcast), and
    /// so is the gradient; the old ones get zero.
    ///
    /// # Errors
    /// As [`Var::binary_`] and [`TensorMut::copy_`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let s = Var::leaf(RawTensor::from_vec(vec![5.0f64], &[1])?)?;
    /// let is = s.leaf_id().unwrap();
    /// let mut h = x.copied()?;
    /// h.copy_(&s)?;
    /// assert_eq!(h.sum(&[], false)?.backward()?.get(is).unwrap().to_vec::<f64>()?, vec![2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn copy_(&mut self, src: &Var<'g, D>) -> Result<()> {
        let tracks = Var::tracks(&[self, src]);
        let value = src.value();
        self.write_in_place("copy_", |mut dst| dst.copy_(&value))?;
        if tracks {
            let (shape, dtype) = (src.shape().to_vec(), src.dtype);
            self.rebase(
                "Copy",
                &[src],
                Box::new(move |g, needs| {
                    let old = match needs[0] {
                        true => Some(Grad::new(crate::ops::grad::zeros_like(&g)?)),
                        false => None,
                    };
                    let new = needs[1].then(|| fit(g, &shape, dtype)).transpose()?;
                    Ok(vec![old, new])
                }),
            );
        }
        Ok(())
    }
}

/// The shape a `prelu` weight of `weight` shape broadcasts as against an
/// input of `shape`: one value, or one per channel along dim 1.
fn prelu_shape(shape: &[usize], weight: &[usize]) -> Result<Vec<usize>> {
    let count: usize = weight.iter().product();
    let channels = shape.get(1).copied().unwrap_or(1);
    if count == 1 {
        return Ok(vec![1; shape.len()]);
    }
    if weight.len() != 1 || count != channels {
        return Err(crate::nn::prelu_mismatch(count, channels));
    }
    let mut out = vec![1; shape.len()];
    out[1] = channels;
    Ok(out)
}
