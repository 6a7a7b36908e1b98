//! Matrix products: `matmul` (a primitive: the CPU's `cpu/matmul.rs` through
//! the `gemm` crate, CUDA's cuBLAS), `addmm` (fused: the bias is the
//! product's starting value on the CPU and CUDA; the default adds it after)
//! and `linear` (written with those by the core).

use super::compose::in_place;
use super::grad::sum_to;
use super::{Derivative, Keep, Lowering, Op, OpInfo, Saves};
use crate::autograd::Grad;
use crate::layout::broadcast_shapes;
use crate::plan::MatmulPlan;
use crate::tensor::alloc_output;
use crate::{Backend, BinaryOp, DType, Device, Error, Input, Layout, Output, Result, TensorRef};

/// `torch.matmul(a, b)`: dot for 1-D·1-D, matrix products over the last two
/// dims with the batch dims broadcast; a 1-D operand gets a unit dim that
/// is dropped from the result.
///
/// # Example
/// ```
/// use axial_core::{DType, ops::Matmul};
/// let s = Matmul::shapes(&[5, 2, 3], &[3], [DType::F32; 2])?;
/// assert_eq!((s.lhs, s.rhs, s.out, s.result), (vec![5, 2, 3], vec![5, 3, 1], vec![5, 2, 1], vec![5, 2]));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Matmul;

/// The shapes of a product as the tensor layer runs it: both operands
/// expanded to `[batch..., m, k]` and `[batch..., k, n]`, the output
/// `[batch..., m, n]`, and the result's shape (the output without the
/// unit dims of 1-D operands).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatmulShapes {
    /// The left operand's shape, expanded.
    pub lhs: Vec<usize>,
    /// The right operand's shape, expanded.
    pub rhs: Vec<usize>,
    /// The output the device writes.
    pub out: Vec<usize>,
    /// The result's shape.
    pub result: Vec<usize>,
}

impl Op for Matmul {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "matmul",
            lowering: Lowering::Primitive,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::IfGradOf(1), Keep::IfGradOf(0)],
                output: false,
            }),
        }
    }
}

/// PyTorch's error for operands of two dtypes.
fn dtypes_differ(op: &'static str, a: DType, b: DType) -> Error {
    Error::invalid(
        op,
        format!(
            "expected m1 and m2 to have the same dtype, but got: {} != {}",
            a.name(),
            b.name()
        ),
    )
}

/// PyTorch's matrix-product kernel of `matmul` on operands of ranks `a`
/// and `b` (`mm`'s for a right operand of rank 2), the name its refusals
/// give.
fn kernel(a: usize, b: usize) -> &'static str {
    match (a, b) {
        (1, 1) => "dot",
        (_, 1) => "addmv_impl_cpu",
        (_, 2) => MM,
        _ => "bmm",
    }
}

/// PyTorch's CPU kernel of `mm`, `addmm` and `linear`.
const MM: &str = "addmm_impl_cpu_";

/// The dtype of a product of operands of dtypes `a` and `b` by PyTorch's
/// `kernel`: the floats, the complex dtypes and the integers but the wide
/// unsigned ones; the float8s by `mm`'s kernel only.
fn product_dtype(op: &'static str, a: DType, b: DType, kernel: &'static str) -> Result<DType> {
    if a != b {
        return Err(dtypes_differ(op, a, b));
    }
    let computed = a.is_float()
        || a.is_complex()
        || (a.is_int() && !a.is_wide_unsigned())
        || (a.is_float8() && kernel == MM);
    if !computed {
        return Err(Error::Unsupported {
            op: kernel,
            dtype: a,
        });
    }
    Ok(a)
}

impl Matmul {
    /// The shapes of `a @ b` for operands of shapes `a` and `b` and the
    /// dtypes given.
    ///
    /// # Errors
    /// A 0-dim operand, dtypes that differ or that PyTorch's kernel for
    /// these ranks lacks (bool and the wide unsigned integers; the float8s
    /// but for a right operand of rank 2), contracted sizes that differ
    /// ([`Error::Contraction`]), or batch dims that do not broadcast.
    ///
    /// ```
    /// # use axial_core::{DType, ops::Matmul};
    /// let e = Matmul::shapes(&[2, 3], &[4, 5], [DType::F32; 2]).unwrap_err();
    /// assert_eq!(e.to_string(), "matmul: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
    /// assert!(Matmul::shapes(&[2, 3], &[3], [DType::I64; 2]).is_ok());
    /// let e = Matmul::shapes(&[2, 3], &[3], [DType::F8E4M3Fn; 2]).unwrap_err();
    /// assert_eq!(e.to_string(), "\"addmv_impl_cpu\" not implemented for 'Float8_e4m3fn'");
    /// let e = Matmul::shapes(&[3], &[3], [DType::U16; 2]).unwrap_err();
    /// assert_eq!(e.to_string(), "\"dot\" not implemented for 'UInt16'");
    /// ```
    pub fn shapes(a: &[usize], b: &[usize], [da, db]: [DType; 2]) -> Result<MatmulShapes> {
        let op = Matmul.name();
        if a.is_empty() || b.is_empty() {
            return Err(Error::invalid(
                op,
                format!(
                    "both arguments to matmul need to be at least 1D, but they are {}D and {}D",
                    a.len(),
                    b.len()
                ),
            ));
        }
        product_dtype(op, da, db, kernel(a.len(), b.len()))?;
        let lhs: Vec<usize> = if a.len() == 1 {
            [&[1], a].concat()
        } else {
            a.to_vec()
        };
        let rhs: Vec<usize> = if b.len() == 1 {
            [b, &[1]].concat()
        } else {
            b.to_vec()
        };
        let (ra, rb) = (lhs.len(), rhs.len());
        let (m, k) = (lhs[ra - 2], lhs[ra - 1]);
        let (k2, n) = (rhs[rb - 2], rhs[rb - 1]);
        if k != k2 {
            return Err(Error::Contraction {
                op,
                m,
                k,
                k2,
                n,
                vectors: a.len() == 1 && b.len() == 1,
            });
        }
        let batch = broadcast_shapes(&lhs[..ra - 2], &rhs[..rb - 2])?;
        let full = |x: usize, y: usize| batch.iter().copied().chain([x, y]).collect::<Vec<_>>();
        let mut result = batch.to_vec();
        if a.len() > 1 {
            result.push(m);
        }
        if b.len() > 1 {
            result.push(n);
        }
        Ok(MatmulShapes {
            lhs: full(m, k),
            rhs: full(k, n),
            out: full(m, n),
            result,
        })
    }

    /// Checks the operands a device is handed (one dtype throughout, of
    /// those `mm` computes, `[..., m, k] @ [..., k, n] -> [..., m, n]` with the
    /// batch dims equal) and plans the product.
    ///
    /// # Errors
    /// Dtypes that differ or that `mm` lacks, or shapes that do not chain.
    ///
    /// ```
    /// use axial_core::{DType, Layout, Output, RawTensor, Storage, ops::Matmul};
    /// let a = RawTensor::from_vec(vec![1.0f32; 6], &[2, 3])?;
    /// let b = RawTensor::from_vec(vec![1.0f64; 6], &[3, 2])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::F32 };
    /// let err = Matmul::plan(&a.view().input(), &b.view().input(), &dst).unwrap_err();
    /// assert!(err.to_string().ends_with("but got: float32 != float64"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn plan<D: Device>(
        lhs: &Input<'_, D>,
        rhs: &Input<'_, D>,
        dst: &Output<'_, D>,
    ) -> Result<MatmulPlan> {
        let op = Matmul.name();
        for (dtype, other) in [(lhs.dtype, rhs.dtype), (lhs.dtype, dst.dtype)] {
            if dtype != other {
                return Err(dtypes_differ(op, dtype, other));
            }
        }
        let plan = MatmulPlan::new(&lhs.layout, &rhs.layout, &dst.layout)?;
        product_dtype(op, dst.dtype, dst.dtype, MM)?;
        Ok(plan)
    }
}

/// `torch.addmm(bias, a, b)`, batched: `bias + a @ b`, `bias` broadcast to
/// the result's shape.
///
/// # Example
/// ```
/// use axial_core::ops::{Addmm, Lowering, Op};
/// assert_eq!(Addmm.info().lowering, Lowering::Fused);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Addmm;

impl Op for Addmm {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "addmm",
            lowering: Lowering::Fused,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::Never, Keep::IfGradOf(2), Keep::IfGradOf(1)],
                output: false,
            }),
        }
    }
}

impl Addmm {
    /// Checks the operands a device is handed: a bias of the output's
    /// shape (stride 0 where it repeats) and dtype, and the product's
    /// operands as [`Matmul::plan`]; plans the product.
    ///
    /// # Errors
    /// Any of those.
    ///
    /// ```
    /// use axial_core::{DType, Layout, Output, RawTensor, Storage, ops::Addmm};
    /// let a = RawTensor::from_vec(vec![1.0f32; 4], &[2, 2])?;
    /// let b = RawTensor::from_vec(vec![1.0f32; 3], &[3])?;
    /// let mut s = Storage::from_slice(&[0.0f32; 4]);
    /// let dst = Output { storage: &mut s, layout: Layout::contiguous(&[2, 2]), dtype: DType::F32 };
    /// let x = a.view().input();
    /// assert!(Addmm::plan(&b.view().input(), &x, &a.view().input(), &dst).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn plan<D: Device>(
        bias: &Input<'_, D>,
        lhs: &Input<'_, D>,
        rhs: &Input<'_, D>,
        dst: &Output<'_, D>,
    ) -> Result<MatmulPlan> {
        if bias.dtype != dst.dtype || bias.layout.shape() != dst.layout.shape() {
            return Err(Error::invalid(
                Addmm.name(),
                format!(
                    "a bias of shape {:?} ({}) for a result of shape {:?} ({})",
                    bias.layout.shape(),
                    bias.dtype.name(),
                    dst.layout.shape(),
                    dst.dtype.name()
                ),
            ));
        }
        Matmul::plan(lhs, rhs, dst)
    }

    /// The op written with primitives, for a device without a kernel of
    /// its own: the product, then the bias added (a second pass over the
    /// output).
    ///
    /// # Errors
    /// As [`Addmm::plan`], or a device failure.
    pub fn composite<D: Backend>(
        &self,
        device: &D,
        bias: Input<'_, D>,
        lhs: Input<'_, D>,
        rhs: Input<'_, D>,
        dst: Output<'_, D>,
    ) -> Result<()> {
        Addmm::plan(&bias, &lhs, &rhs, &dst)?;
        let mut product = alloc_output(device, Layout::contiguous(dst.layout.shape()), dst.dtype)?;
        device.matmul(lhs, rhs, product.output())?;
        let storage = bias.storage.unwrap_or(&*dst.storage);
        let bias = TensorRef::new(storage, bias.layout, bias.dtype)?;
        in_place(device, BinaryOp::Add, &mut product, &bias)?;
        device.copy(product.view().input(), dst)
    }
}

/// `torch.nn.functional.linear(x, weight, bias)`: `x` of shape `[..., In]`,
/// `weight` `[Out, In]` (read transposed where it lies), `bias` `[Out]`;
/// an [`Addmm`] (a [`Matmul`] without a bias) of `x`'s rows.
///
/// # Example
/// ```
/// use axial_core::{DType, ops::Linear};
/// assert_eq!(Linear::rows(&[2, 5, 3], &[4, 3], Some(&[4]), [DType::F32; 3])?, (10, 3, 4));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Linear;

impl Op for Linear {
    fn info(&self) -> OpInfo {
        OpInfo {
            name: "linear",
            lowering: Lowering::Composite,
            derivative: Derivative::Written(Saves {
                inputs: &[Keep::IfGradOf(1), Keep::IfGradOf(0), Keep::Never],
                output: false,
            }),
        }
    }
}

impl Linear {
    /// `(rows, in, out)` of `x` (shape `x`) by a weight and a bias of the
    /// shapes given, the dtypes of `[x, weight, bias]`.
    ///
    /// # Errors
    /// Sizes that do not chain ([`Error::Contraction`]), a bias of another
    /// length, or dtypes that differ or are not float.
    pub fn rows(
        x: &[usize],
        weight: &[usize],
        bias: Option<&[usize]>,
        [dx, dw, db]: [DType; 3],
    ) -> Result<(usize, usize, usize)> {
        let op = Linear.name();
        if weight.len() != 2 || x.is_empty() {
            return Err(Error::invalid(
                op,
                format!(
                    "expected an input of at least 1 dim and a 2-D weight, got shapes {x:?} and {weight:?}"
                ),
            ));
        }
        let (out_f, in_f) = (weight[0], weight[1]);
        let k = x[x.len() - 1];
        let rows: usize = x[..x.len() - 1].iter().product();
        if k != in_f {
            return Err(Error::Contraction {
                op,
                m: rows,
                k,
                k2: in_f,
                n: out_f,
                vectors: false,
            });
        }
        product_dtype(op, dx, dw, MM)?;
        if let Some(b) = bias {
            product_dtype(op, dx, db, MM)?;
            if b != [out_f] {
                return Err(Error::invalid(
                    op,
                    format!("expected a bias of shape [{out_f}], got {b:?}"),
                ));
            }
        }
        Ok((rows, k, out_f))
    }
}

/// The last two dims swapped (a view).
fn transposed<'a, D: Device>(t: &TensorRef<'a, D>) -> Result<TensorRef<'a, D>> {
    t.transpose(-2, -1)
}

/// A kept operand of a product, reshaped to its 2-D (or batched) `shape`.
fn as_matrix<'a, D: Backend>(
    t: Option<&TensorRef<'a, D>>,
    which: &str,
    shape: &[usize],
) -> Result<crate::MaybeOwned<'a, D>> {
    let t = t.ok_or_else(|| super::unary::unsaved("matmul", which))?;
    let sizes: Vec<isize> = shape.iter().map(|&n| n as isize).collect();
    t.reshape(&sizes)
}

impl Matmul {
    /// The operands' gradients of `torch.matmul(a, b)` given the output's
    /// `g`: `g·bᵀ` and `aᵀ·g` over the operands made 2-D, each summed over
    /// the batch dims it was broadcast along and shaped as its operand.
    /// `a` is kept when `b` needs a gradient and the other way round.
    pub(crate) fn backward<D: Backend>(
        a: Option<&TensorRef<'_, D>>,
        b: Option<&TensorRef<'_, D>>,
        shapes: [&[usize]; 2],
        g: &Grad<D>,
        needs: [bool; 2],
    ) -> Result<[Option<Grad<D>>; 2]> {
        let [sa, sb] = shapes;
        let a2: Vec<usize> = if sa.len() == 1 {
            vec![1, sa[0]]
        } else {
            sa.to_vec()
        };
        let b2: Vec<usize> = if sb.len() == 1 {
            vec![sb[0], 1]
        } else {
            sb.to_vec()
        };
        let dtype = g.dtype();
        let out = Matmul::shapes(sa, sb, [dtype; 2])?.out;
        let g2 = g.clone().reshaped(&out)?;
        let ga = if needs[0] {
            let b = as_matrix(b, "right operand", &b2)?;
            let ga = g2.view().matmul(&transposed(&b.as_ref())?)?;
            Some(sum_to(Grad::new(ga), &a2)?.reshaped(sa)?)
        } else {
            None
        };
        let gb = if needs[1] {
            let a = as_matrix(a, "left operand", &a2)?;
            let gb = transposed(&a.as_ref())?.matmul(&g2.view())?;
            Some(sum_to(Grad::new(gb), &b2)?.reshaped(sb)?)
        } else {
            None
        };
        Ok([ga, gb])
    }
}

impl Linear {
    /// The gradients of `x·Wᵀ + b` (`W` is `[out, in]`): `g·W`, `gᵀ·x` over
    /// the rows, and `g` summed over the rows. `x` is kept when `W` needs a
    /// gradient and the other way round; the bias never is.
    pub(crate) fn backward<D: Backend>(
        x: Option<&TensorRef<'_, D>>,
        w: Option<&TensorRef<'_, D>>,
        x_shape: &[usize],
        g: &Grad<D>,
        needs: [bool; 3],
    ) -> Result<[Option<Grad<D>>; 3]> {
        let out_f = *g.shape().last().unwrap_or(&1);
        let in_f = *x_shape.last().unwrap_or(&1);
        let rows: usize = x_shape[..x_shape.len().saturating_sub(1)].iter().product();
        let g2 = g.clone().reshaped(&[rows, out_f])?;
        let gx = if needs[0] {
            let w = w.ok_or_else(|| super::unary::unsaved("linear", "weight"))?;
            let gx = g2.view().matmul(w)?;
            Some(Grad::new(gx).reshaped(x_shape)?)
        } else {
            None
        };
        let gw = if needs[1] {
            let x = x.ok_or_else(|| super::unary::unsaved("linear", "input"))?;
            let x2 = x.reshape(&[rows as isize, in_f as isize])?;
            Some(Grad::new(transposed(&g2.view())?.matmul(&x2.as_ref())?))
        } else {
            None
        };
        let gb = if needs[2] {
            let summed = g2.view().reduce(crate::ReduceOp::Sum, &[0], false)?;
            Some(Grad::new(summed))
        } else {
            None
        };
        Ok([gx, gw, gb])
    }
}
