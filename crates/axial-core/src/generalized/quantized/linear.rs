//! The quantized linear layer (`torch.ops.quantized.linear`, x86/fbgemm
//! engines: `qlinear.cpp` and `fbgemm::ReQuantizeOutput`) and the quantized
//! matmul (`torch.ops.quantized.matmul`).
//!
//! ```text
//! acc[m,n] = Σ_k (xq[m,k] - zx) (wq[n,k] - zw[n])        exact integers
//! atw[n]   = f32(f32(sx) * f32(sw[n]))
//! mult[n]  = f32(atw[n] / f32(out_scale))
//! raw      = f32(acc) + f32(bias[n] / atw[n])             (no bias: f32(acc))
//! y        = clamp(round_half_even(f32(raw * mult[n])) + out_zp, relu ? out_zp : 0, 255)
//! ```

use super::gemm::{self, PackedB};
use super::quantize::{check_zero_point, inverse_scale, quantize_per_tensor, round_half_even};
use super::{QDType, QuantizedRef, QuantizedTensor, Quantizer};
use crate::generalized::host;
use crate::{Cpu, DType, Error, Layout, RawTensor, Result, Storage, TensorRef};

/// The longest contracted axis whose products cannot overflow the `i32`
/// accumulator (`65793 × 255 × 128 < 2^31`).
const MAX_K: usize = 65793;
/// The longest contracted axis whose zero-point-corrected sums fit in `i32`
/// (`33025 × 255 × 255 < 2^31`).
const I32_EXACT_K: usize = 33025;

/// A `qint8` weight (`out_features × in_features`, per tensor or per
/// channel along axis 0) and an optional `f32` bias, packed once for
/// [`linear`] (`torch.ops.quantized.linear_prepack`).
///
/// # Example
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{PackedLinearWeight, QDType, quantize_per_tensor};
/// let w = RawTensor::from_vec(vec![1.0f32, 0.5, -0.5, -1.0, 2.0, 0.25], &[2, 3])?;
/// let qw = quantize_per_tensor(&w.view(), 0.02, 0, QDType::QInt8)?;
/// let packed = PackedLinearWeight::new(&qw.view(), None)?;
/// assert_eq!((packed.out_features(), packed.in_features()), (2, 3));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct PackedLinearWeight {
    packed: PackedB,
    /// `f32(sw[n])`, per output column.
    scales: Vec<f32>,
    /// `zw[n]`, per output column.
    zero_points: Vec<i64>,
    bias: Option<Vec<f32>>,
}

impl PackedLinearWeight {
    /// Packs `weight` (and `bias`, `out_features` `f32`s).
    ///
    /// # Errors
    /// `weight` is not `qint8` (PyTorch's message), not 2-D, or per channel
    /// along another axis than 0; `bias` is not `f32` of `out_features`
    /// elements; `in_features` is past 65793 (where `i32` sums could overflow).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{PackedLinearWeight, QDType, quantize_per_tensor};
    /// let w = RawTensor::zeros(&[2, 3], axial_core::DType::F32)?;
    /// let quint = quantize_per_tensor(&w.view(), 0.02, 0, QDType::QUInt8)?;
    /// let e = PackedLinearWeight::new(&quint.view(), None).unwrap_err();
    /// assert_eq!(e.to_string(), "quantized::linear_prepack: expected scalar type QInt8 but found QUInt8");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(weight: &QuantizedRef<'_>, bias: Option<&TensorRef<'_, Cpu>>) -> Result<Self> {
        const OP: &str = "quantized::linear_prepack";
        if weight.qdtype() != QDType::QInt8 {
            return Err(Error::invalid(
                OP,
                format!(
                    "expected scalar type QInt8 but found {}",
                    weight.qdtype().scalar_type_name()
                ),
            ));
        }
        let &[n, k] = weight.shape() else {
            return Err(Error::weight_not_2d(OP, weight.shape()));
        };
        if k > MAX_K {
            return Err(Error::invalid(
                OP,
                format!(
                    "in_features {k} is past {MAX_K}, where int32 sums of int8 products could overflow"
                ),
            ));
        }
        let (scales, zero_points) = match weight.quantizer() {
            Quantizer::PerTensor { scale, zero_point } => {
                (vec![*scale as f32; n], vec![*zero_point; n])
            }
            Quantizer::PerChannel {
                scales,
                zero_points,
                axis: 0,
            } => (
                scales.iter().map(|&s| s as f32).collect(),
                zero_points.to_vec(),
            ),
            Quantizer::PerChannel { axis, .. } => {
                return Err(Error::invalid(
                    OP,
                    format!(
                        "a per-channel weight must be quantized along axis 0 (out_features), not {axis}"
                    ),
                ));
            }
        };
        let bias = match bias {
            None => None,
            Some(b) => {
                if b.dtype() != DType::F32 || b.shape() != [n] {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "bias must be a float32 tensor of shape [{n}], got {} of shape {:?}",
                            b.dtype(),
                            b.shape()
                        ),
                    ));
                }
                Some(host::elements::<f32>(OP, b)?.into_owned())
            }
        };
        let w = weight.int_repr()?;
        let w = host::elements::<i8>(OP, &w.view())?;
        Ok(PackedLinearWeight {
            packed: gemm::pack_b(&w, n, k),
            scales,
            zero_points,
            bias,
        })
    }

    /// The rows of the weight: the output's last size.
    ///
    /// ```
    /// # use axial_core::{RawTensor, quantized::{PackedLinearWeight, QDType, quantize_per_tensor}};
    /// let w = quantize_per_tensor(&RawTensor::zeros(&[4, 3], axial_core::DType::F32)?.view(), 0.1, 0, QDType::QInt8)?;
    /// assert_eq!(PackedLinearWeight::new(&w.view(), None)?.out_features(), 4);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn out_features(&self) -> usize {
        self.packed.n
    }

    /// The columns of the weight: the input's last size.
    ///
    /// ```
    /// # use axial_core::{RawTensor, quantized::{PackedLinearWeight, QDType, quantize_per_tensor}};
    /// let w = quantize_per_tensor(&RawTensor::zeros(&[4, 3], axial_core::DType::F32)?.view(), 0.1, 0, QDType::QInt8)?;
    /// assert_eq!(PackedLinearWeight::new(&w.view(), None)?.in_features(), 3);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn in_features(&self) -> usize {
        self.packed.k
    }
}

/// `torch.ops.quantized.linear(x, packed, out_scale, out_zero_point)`:
/// `x @ w.T + bias` with `quint8` activations (`[..., in_features]`, per
/// tensor), the products summed exactly in integers and requantized to
/// `quint8` at `(out_scale, out_zero_point)`, bit for bit as PyTorch's x86
/// and fbgemm engines:
///
/// ```text
/// acc[m,n] = Σ_k (xq[m,k] - zx) (wq[n,k] - zw[n])        exact integers
/// atw[n]   = f32(f32(sx) * f32(sw[n]))
/// mult[n]  = f32(atw[n] / f32(out_scale))
/// raw      = f32(acc) + f32(bias[n] / atw[n])             (no bias: f32(acc))
/// y        = clamp(round_half_even(f32(raw * mult[n])) + out_zp, relu ? out_zp : 0, 255)
/// ```
///
/// Faster than dequantizing to `f32` first: the products run on `u8 × i8`
/// (AVX-512 VNNI where the CPU has it).
///
/// # Errors
/// `x` is not `quint8` (PyTorch's message) or not per tensor; its last size
/// is not `in_features`; the output scale or zero point is invalid.
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{PackedLinearWeight, QDType, linear, quantize_per_tensor};
/// let x = RawTensor::from_vec(vec![0.5f32, -1.0, 2.0, 1.5, 0.25, -0.75], &[2, 3])?;
/// let w = RawTensor::from_vec(vec![1.0f32, 0.5, -0.5, -1.0, 2.0, 0.25], &[2, 3])?;
/// let b = RawTensor::from_vec(vec![0.1f32, -0.2], &[2])?;
/// let qx = quantize_per_tensor(&x.view(), 0.05, 64, QDType::QUInt8)?;
/// let qw = quantize_per_tensor(&w.view(), 0.02, 0, QDType::QInt8)?;
/// let packed = PackedLinearWeight::new(&qw.view(), Some(&b.view()))?;
/// let y = linear(&qx.view(), &packed, 0.1, 10)?;
/// assert_eq!(y.int_repr()?.to_vec::<u8>()?, vec![1, 0, 31, 0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn linear(
    x: &QuantizedRef<'_>,
    weight: &PackedLinearWeight,
    out_scale: f64,
    out_zero_point: i64,
) -> Result<QuantizedTensor> {
    run_linear(x, weight, out_scale, out_zero_point, false)
}

/// `torch.ops.quantized.linear_relu`: [`linear`] with the output clamped
/// below at the output zero point (the quantized 0).
///
/// # Errors
/// As [`linear`].
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{PackedLinearWeight, QDType, linear_relu, quantize_per_tensor};
/// let x = RawTensor::from_vec(vec![0.5f32, -1.0, 2.0, 1.5, 0.25, -0.75], &[2, 3])?;
/// let w = RawTensor::from_vec(vec![1.0f32, 0.5, -0.5, -1.0, 2.0, 0.25], &[2, 3])?;
/// let b = RawTensor::from_vec(vec![0.1f32, -0.2], &[2])?;
/// let qx = quantize_per_tensor(&x.view(), 0.05, 64, QDType::QUInt8)?;
/// let qw = quantize_per_tensor(&w.view(), 0.02, 0, QDType::QInt8)?;
/// let packed = PackedLinearWeight::new(&qw.view(), Some(&b.view()))?;
/// let y = linear_relu(&qx.view(), &packed, 0.1, 10)?;
/// assert_eq!(y.int_repr()?.to_vec::<u8>()?, vec![10, 10, 31, 10]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn linear_relu(
    x: &QuantizedRef<'_>,
    weight: &PackedLinearWeight,
    out_scale: f64,
    out_zero_point: i64,
) -> Result<QuantizedTensor> {
    run_linear(x, weight, out_scale, out_zero_point, true)
}

fn run_linear(
    x: &QuantizedRef<'_>,
    w: &PackedLinearWeight,
    out_scale: f64,
    out_zero_point: i64,
    relu: bool,
) -> Result<QuantizedTensor> {
    const OP: &str = "quantized::linear";
    if x.qdtype() != QDType::QUInt8 {
        return Err(Error::invalid(
            OP,
            format!(
                "Expected input data type QUInt8 but got {}",
                x.qdtype().scalar_type_name()
            ),
        ));
    }
    let (sx, zx) = match x.quantizer() {
        Quantizer::PerTensor { scale, zero_point } => (*scale, *zero_point),
        Quantizer::PerChannel { .. } => {
            return Err(Error::invalid(OP, "the input must be quantized per tensor"));
        }
    };
    let (n, k) = (w.packed.n, w.packed.k);
    let shape = x.shape();
    if shape.last() != Some(&k) {
        let rows: usize = shape[..shape.len().saturating_sub(1)].iter().product();
        return Err(Error::Contraction {
            op: OP,
            m: rows,
            k: shape.last().copied().unwrap_or(0),
            k2: k,
            n,
            vectors: false,
        });
    }
    check_zero_point(OP, "output", out_zero_point, QDType::QUInt8)?;
    inverse_scale(OP, out_scale)?;
    let m = x.numel() / k.max(1);
    let xr = x.int_repr()?;
    let a = host::elements::<u8>(OP, &xr.view())?;
    let a = if k == 0 { &[][..] } else { &a[..] };

    // The requantization constants, per output column, in PyTorch's order.
    let out_s = out_scale as f32;
    let atw: Vec<f32> = w.scales.iter().map(|&sw| sx as f32 * sw).collect();
    let mult: Vec<f32> = atw.iter().map(|&a| a / out_s).collect();
    let bias: Vec<f32> = match &w.bias {
        Some(b) => b.iter().zip(&atw).map(|(&b, &a)| b / a).collect(),
        // `f32(acc) + 0.0` is `f32(acc)`: the sums are integers.
        None => vec![0.0; n],
    };
    let low = if relu { out_zero_point } else { 0 } as f32;
    let zo = out_zero_point as f32;
    // The zero points' terms: acc = dot - zw[j]·Σx - zx·Σw[j] + k·zx·zw[j].
    let zw: Vec<i64> = w.zero_points.clone();
    let col: Vec<i64> = w.packed.sums.iter().map(|&s| zx * s as i64).collect();
    let kz: Vec<i64> = zw.iter().map(|&z| k as i64 * zx * z).collect();
    // Up to this length every sum of products fits in i32, so the terms may
    // wrap in i32 on the way and the result is still exact.
    let narrow = k <= I32_EXACT_K;
    let (zw32, col32, kz32): (Vec<i32>, Vec<i32>, Vec<i32>) = (
        zw.iter().map(|&v| v as i32).collect(),
        col.iter().map(|&v| v as i32).collect(),
        kz.iter().map(|&v| v as i32).collect(),
    );

    let mut out = vec![0u8; m * n];
    gemm::gemm(a, m, &w.packed, &mut out, n, |_, dot, ld, sums, out| {
        for (r, row) in out.chunks_mut(n.max(1)).enumerate() {
            let dot = &dot[r * ld..r * ld + n];
            let xs = sums[r];
            // `clamp(round_half_even(raw · mult) + zo, low, 255)`, in f32:
            // the rounded value is an integer, so adding the zero point and
            // clamping in f32 gives PyTorch's integer result.
            let finish = |acc: f32, j: usize| {
                let q = round_half_even((acc + bias[j]) * mult[j]) + zo;
                q.clamp(low, 255.0) as u8
            };
            if narrow {
                host::vectorized(|| {
                    for (j, y) in row.iter_mut().enumerate() {
                        let acc = dot[j]
                            .wrapping_sub(zw32[j].wrapping_mul(xs))
                            .wrapping_sub(col32[j])
                            .wrapping_add(kz32[j]);
                        *y = finish(acc as f32, j);
                    }
                });
            } else {
                for (j, y) in row.iter_mut().enumerate() {
                    let acc = dot[j] as i64 - zw[j] * xs as i64 - col[j] + kz[j];
                    *y = finish(acc as f32, j);
                }
            }
        }
    });
    let mut out_shape = shape.to_vec();
    if let Some(last) = out_shape.last_mut() {
        *last = n;
    }
    let repr = RawTensor::from_parts(
        Storage::from_slice(&out),
        Layout::contiguous(&out_shape),
        DType::U8,
    )?;
    Ok(QuantizedTensor::new(
        repr,
        QDType::QUInt8,
        Quantizer::PerTensor {
            scale: out_scale,
            zero_point: out_zero_point,
        },
    ))
}

/// `torch.ops.quantized.matmul(a, b, out_scale, out_zero_point)`: the
/// product of the dequantized operands, quantized per tensor at the output
/// parameters in `a`'s dtype (what PyTorch computes without RUY).
///
/// # Errors
/// The operands' dtypes differ or are `qint32`, an operand is not per
/// tensor, the shapes do not multiply, or the output parameters are invalid.
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{QDType, matmul, quantize_per_tensor};
/// let a = RawTensor::from_vec(vec![0.5f32, -1.0, 2.0, 1.5, 0.25, -0.75], &[2, 3])?;
/// let b = RawTensor::from_vec(vec![1.0f32, -1.0, 0.5, 2.0, -0.5, 0.25], &[3, 2])?;
/// let qa = quantize_per_tensor(&a.view(), 0.05, 64, QDType::QUInt8)?;
/// let qb = quantize_per_tensor(&b.view(), 0.02, 128, QDType::QUInt8)?;
/// let y = matmul(&qa.view(), &qb.view(), 0.1, 10)?;
/// assert_eq!(y.int_repr()?.to_vec::<u8>()?, vec![0, 0, 30, 0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn matmul(
    a: &QuantizedRef<'_>,
    b: &QuantizedRef<'_>,
    out_scale: f64,
    out_zero_point: i64,
) -> Result<QuantizedTensor> {
    const OP: &str = "quantized::matmul";
    if a.qdtype() != b.qdtype() {
        return Err(Error::invalid(
            OP,
            "MatMul operands should have same data type.",
        ));
    }
    if a.qdtype() == QDType::QInt32 {
        return Err(Error::invalid(
            OP,
            "operands must be quint8 or qint8, got qint32",
        ));
    }
    for q in [a, b] {
        if !matches!(q.quantizer(), Quantizer::PerTensor { .. }) {
            return Err(Error::invalid(
                OP,
                "only per-tensor quantization is supported in Matmul",
            ));
        }
    }
    let product = a.dequantize()?.view().matmul(&b.dequantize()?.view())?;
    quantize_per_tensor(&product.view(), out_scale, out_zero_point, a.qdtype())
}
