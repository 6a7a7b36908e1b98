//! Quantize, dequantize and `int_repr`, with PyTorch's arithmetic
//! (`AffineQuantizerBase.cpp::quantize_val`, `fbgemm::Quantize` and
//! `fbgemm::Dequantize`, `dequantize_per_channel_affine_kernel`).

use rayon::prelude::*;

use super::{QDType, QuantizedRef, QuantizedTensor, Quantizer};
use crate::generalized::host;
use crate::{Cpu, DType, Element, Error, Layout, RawTensor, Result, Storage, TensorRef};

/// Elements past which quantizing and dequantizing run on several threads.
const PARALLEL: usize = 1 << 16;

/// The `f32` reciprocal PyTorch multiplies by, after checking the scale
/// PyTorch never checks.
pub(super) fn inverse_scale(op: &'static str, scale: f64) -> Result<f32> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(Error::invalid(
            op,
            format!(
                "scale must be finite and greater than zero, got {scale} (PyTorch accepts it and quantizes garbage)"
            ),
        ));
    }
    let inv = 1.0f32 / scale as f32;
    if !(inv.is_finite() && inv > 0.0) {
        return Err(Error::invalid(
            op,
            format!("scale {scale} is outside float32's range: its float32 reciprocal is {inv}"),
        ));
    }
    Ok(inv)
}

/// Checks a zero point against the dtype's range, in PyTorch's words
/// (`what` is the function PyTorch names).
pub(super) fn check_zero_point(
    op: &'static str,
    what: &str,
    zero_point: i64,
    dtype: QDType,
) -> Result<()> {
    let side = if zero_point > dtype.qmax() {
        "above upper"
    } else if zero_point < dtype.qmin() {
        "below lower"
    } else {
        return Ok(());
    };
    Err(Error::invalid(
        op,
        format!("{what} zero_point {zero_point} is {side} bound."),
    ))
}

/// `x` rounded to the nearest integer, halves to even (C's `nearbyint` in
/// the default rounding mode), without a call: below 2^23 in magnitude,
/// adding and subtracting 2^23 rounds in the FPU's own mode; from 2^23 every
/// `f32` is an integer. The sign of a zero is kept. It vectorises, where
/// `f32::round_ties_even` becomes a call to `rintf` on baseline x86-64.
#[inline(always)]
pub(crate) fn round_half_even(x: f32) -> f32 {
    const TWO_23: f32 = 8_388_608.0;
    let m = TWO_23.copysign(x);
    let r = if x.abs() < TWO_23 { (x + m) - m } else { x };
    r.copysign(x)
}

/// One quantized value before the cast: `zero_point + nearbyint(x * inv)`
/// summed in `f32` as PyTorch sums it, clamped to `[qmin, qmax]` (given as
/// `f32`: the clamp of an `f32` in `f64` and the cast give the same
/// integer). NaN stays NaN (the callers refuse it).
#[inline(always)]
pub(super) fn quantize_one(x: f32, inv: f32, zero_point: f32, qmin: f32, qmax: f32) -> f32 {
    (zero_point + round_half_even(x * inv)).clamp(qmin, qmax)
}

/// Quantizes `src` into `out` (equal lengths) with one scale and zero point;
/// the index of the first NaN, if any.
#[inline(always)]
fn quantize_run<Q: QInt>(
    out: &mut [Q],
    src: &[f32],
    inv: f32,
    zero_point: f32,
    dtype: QDType,
) -> Option<usize> {
    let (qmin, qmax) = (dtype.qmin() as f32, dtype.qmax() as f32);
    for (o, &x) in out.iter_mut().zip(src) {
        *o = Q::saturate(quantize_one(x, inv, zero_point, qmin, qmax));
    }
    src.iter().position(|x| x.is_nan())
}

/// The integer element types of the three quantized dtypes.
pub(super) trait QInt: Element + Copy {
    /// An integral `f32` in range (or past it: saturated), as this type.
    fn saturate(v: f32) -> Self;
    /// The value as `i64`.
    fn widen(self) -> i64;
}

macro_rules! qint {
    ($($t:ty),*) => {$(
        impl QInt for $t {
            #[inline(always)]
            fn saturate(v: f32) -> Self {
                v as $t
            }
            #[inline(always)]
            fn widen(self) -> i64 {
                self as i64
            }
        }
    )*};
}
qint!(u8, i8, i32);

/// Calls `$body` with `$Q` the storage type of a quantized dtype.
macro_rules! with_qdtype {
    ($qdtype:expr, $Q:ident => $body:expr) => {
        match $qdtype {
            QDType::QUInt8 => {
                type $Q = u8;
                $body
            }
            QDType::QInt8 => {
                type $Q = i8;
                $body
            }
            QDType::QInt32 => {
                type $Q = i32;
                $body
            }
        }
    };
}

/// The error for a NaN input.
fn nan_error(op: &'static str, index: usize) -> Error {
    Error::invalid(
        op,
        format!(
            "input has a NaN at element {index} (row-major), which has no quantized value (PyTorch stores whatever the conversion instruction gives)"
        ),
    )
}

/// The layout a new tensor like `l` gets (PyTorch's suggested memory
/// format): channels-last when `l` is, else row-major.
fn suggested(l: &Layout) -> Layout {
    if l.rank() == 4 && l.is_channels_last() && !l.is_contiguous() {
        let s = l.shape();
        let (c, h, w) = (s[1], s[2], s[3]);
        let strides = [(h * w * c) as isize, 1, (w * c) as isize, c as isize];
        return Layout::from_parts(s, &strides, 0);
    }
    Layout::contiguous(l.shape())
}

/// The elements of `x` in the order of `layout` (row-major, or
/// channels-last).
fn ordered(op: &'static str, x: &TensorRef<'_, Cpu>, layout: &Layout) -> Result<Vec<f32>> {
    if layout.is_contiguous() {
        return host::elements::<f32>(op, x).map(|c| c.into_owned());
    }
    // Channels-last: N, H, W, C order, i.e. the permuted view made contiguous.
    x.clone().permute(&[0, 2, 3, 1])?.to_vec::<f32>()
}

/// Checks that `x` is an `f32` tensor, as PyTorch does.
fn check_float(x: &TensorRef<'_, Cpu>) -> Result<()> {
    if x.dtype() != DType::F32 {
        return Err(Error::invalid(
            "quantize",
            format!(
                "Quantize only works on Float Tensor, got {}",
                x.dtype().scalar_type_name()
            ),
        ));
    }
    Ok(())
}

/// `torch.quantize_per_tensor(x, scale, zero_point, dtype)`.
///
/// `x` must be `f32`; the result is row-major (channels-last when `x` is).
///
/// # Errors
/// `x` is not `f32` or holds a NaN; the zero point is outside the dtype's
/// range; the scale is zero, negative, not finite or has no finite `f32`
/// reciprocal (PyTorch accepts those and quantizes garbage).
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{QDType, quantize_per_tensor};
/// // Half-way cases round to even, and the zero point is added after rounding.
/// let h = RawTensor::from_vec(vec![0.5f32, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, -3.5], &[8])?;
/// let q = quantize_per_tensor(&h.view(), 1.0, 127, QDType::QUInt8)?;
/// assert_eq!(q.int_repr()?.to_vec::<u8>()?, vec![127, 129, 129, 131, 127, 125, 125, 123]);
/// let bad = quantize_per_tensor(&h.view(), 0.1, 256, QDType::QUInt8).unwrap_err();
/// assert_eq!(
///     bad.to_string(),
///     "quantize_per_tensor: quantize_tensor_per_tensor_affine zero_point 256 is above upper bound."
/// );
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn quantize_per_tensor(
    x: &TensorRef<'_, Cpu>,
    scale: f64,
    zero_point: i64,
    dtype: QDType,
) -> Result<QuantizedTensor> {
    check_float(x)?;
    check_zero_point(
        "quantize_per_tensor",
        "quantize_tensor_per_tensor_affine",
        zero_point,
        dtype,
    )?;
    let inv = inverse_scale("quantize_per_tensor", scale)?;
    let layout = suggested(x.layout());
    let src = ordered("quantize_per_tensor", x, &layout)?;
    let zp = zero_point as f32;
    let storage = with_qdtype!(dtype, Q => {
        let mut out = vec![Q::ZERO; src.len()];
        let chunk = PARALLEL.max(src.len().div_ceil(rayon::current_num_threads().max(1)));
        let first_nan = out
            .par_chunks_mut(chunk)
            .zip(src.par_chunks(chunk))
            .enumerate()
            .filter_map(|(c, (o, s))| quantize_run(o, s, inv, zp, dtype).map(|i| c * chunk + i))
            .min();
        if let Some(at) = first_nan {
            return Err(nan_error("quantize_per_tensor", at));
        }
        Storage::from_slice(&out)
    });
    let repr = RawTensor::from_parts(storage, layout, dtype.repr())?;
    Ok(QuantizedTensor::new(
        repr,
        dtype,
        Quantizer::PerTensor { scale, zero_point },
    ))
}

/// `torch.quantize_per_channel(x, scales, zero_points, axis, dtype)`:
/// channel `c` (the index along `axis`) uses `scales[c]` and
/// `zero_points[c]` with [`quantize_per_tensor`]'s arithmetic.
///
/// # Errors
/// As [`quantize_per_tensor`], for each channel; `axis` outside the rank;
/// `scales` not one per channel, or `zero_points` not one per scale
/// (PyTorch's messages).
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{QDType, quantize_per_channel};
/// let x = RawTensor::from_vec(vec![-1.0f32, 0.0, 0.5, 1.0, 2.0, 3.0], &[2, 3])?;
/// let q = quantize_per_channel(&x.view(), &[0.1, 0.5], &[0, 10], 0, QDType::QUInt8)?;
/// assert_eq!(q.int_repr()?.to_vec::<u8>()?, vec![0, 0, 5, 12, 14, 16]); // -10 clamps to 0
/// let e = quantize_per_channel(&x.view(), &[0.1, 0.5], &[0, 0], 1, QDType::QInt8).unwrap_err();
/// assert_eq!(e.to_string(), "quantize_per_channel: length of scales must equal to channel, expected 3 got, 2");
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn quantize_per_channel(
    x: &TensorRef<'_, Cpu>,
    scales: &[f64],
    zero_points: &[i64],
    axis: usize,
    dtype: QDType,
) -> Result<QuantizedTensor> {
    const OP: &str = "quantize_per_channel";
    check_float(x)?;
    let quantizer = per_channel(OP, x.shape(), scales, zero_points, axis, dtype)?;
    let inverses = scales
        .iter()
        .map(|&s| inverse_scale(OP, s))
        .collect::<Result<Vec<f32>>>()?;
    // Row-major always: the channel of an element is then `(i / inner) % C`.
    let src = host::elements::<f32>(OP, x)?;
    let shape = x.shape();
    let channels = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let storage = with_qdtype!(dtype, Q => {
        let mut out = vec![Q::ZERO; src.len()];
        let row = (channels * inner).max(1);
        let first_nan = out
            .par_chunks_mut(row)
            .zip(src.par_chunks(row))
            .enumerate()
            .filter_map(|(r, (o, s))| {
                // One run of `inner` elements per channel.
                let runs = o.chunks_mut(inner.max(1)).zip(s.chunks(inner.max(1)));
                runs.enumerate().find_map(|(c, (o, s))| {
                    let zp = zero_points[c] as f32;
                    quantize_run(o, s, inverses[c], zp, dtype).map(|i| r * row + c * inner + i)
                })
            })
            .min();
        if let Some(at) = first_nan {
            return Err(nan_error(OP, at));
        }
        Storage::from_slice(&out)
    });
    let repr = RawTensor::from_parts(storage, Layout::contiguous(shape), dtype.repr())?;
    Ok(QuantizedTensor::new(repr, dtype, quantizer))
}

/// The per-channel parameters, checked as PyTorch checks them (and the
/// scales, which PyTorch does not check).
fn per_channel(
    op: &'static str,
    shape: &[usize],
    scales: &[f64],
    zero_points: &[i64],
    axis: usize,
    dtype: QDType,
) -> Result<Quantizer> {
    if axis >= shape.len() {
        return Err(Error::invalid(
            op,
            format!(
                "Channel axis out of range in per channel affine quantization. Got: {axis}Expected: [0, {})",
                shape.len()
            ),
        ));
    }
    if scales.len() != shape[axis] {
        return Err(Error::invalid(
            op,
            format!(
                "length of scales must equal to channel, expected {} got, {}",
                shape[axis],
                scales.len()
            ),
        ));
    }
    if zero_points.len() != scales.len() {
        return Err(Error::invalid(
            op,
            "number of elements in scales and zero_points must match",
        ));
    }
    for &zp in zero_points {
        check_zero_point(op, "quantize_tensor_per_channel_affine", zp, dtype)?;
    }
    for &s in scales {
        inverse_scale(op, s)?;
    }
    Ok(Quantizer::PerChannel {
        scales: scales.into(),
        zero_points: zero_points.into(),
        axis,
    })
}

/// `torch._make_per_tensor_quantized_tensor(repr, scale, zero_point)`: a
/// quantized tensor over integers already quantized (`u8`, `i8` or `i32`
/// for `quint8`, `qint8`, `qint32`), sharing their storage and layout.
///
/// # Errors
/// `repr`'s dtype is not one of those three; the scale or the zero point is
/// invalid (as [`quantize_per_tensor`]).
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{QDType, from_int_repr};
/// let ints = RawTensor::from_vec(vec![0u8, 5, 10], &[3])?;
/// let q = from_int_repr(ints, 0.5, 5, QDType::QUInt8)?;
/// assert_eq!(q.dequantize()?.to_vec::<f32>()?, vec![-2.5, 0.0, 2.5]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn from_int_repr(
    repr: RawTensor,
    scale: f64,
    zero_point: i64,
    dtype: QDType,
) -> Result<QuantizedTensor> {
    check_repr("_make_per_tensor_quantized_tensor", &repr, dtype)?;
    check_zero_point(
        "_make_per_tensor_quantized_tensor",
        "_make_per_tensor_quantized_tensor",
        zero_point,
        dtype,
    )?;
    inverse_scale("_make_per_tensor_quantized_tensor", scale)?;
    Ok(QuantizedTensor::new(
        repr,
        dtype,
        Quantizer::PerTensor { scale, zero_point },
    ))
}

/// `torch._make_per_channel_quantized_tensor(repr, scales, zero_points,
/// axis)`: a quantized tensor over integers already quantized per channel
/// along `axis` (`u8`, `i8` or `i32` for `quint8`, `qint8`, `qint32`),
/// sharing their storage and layout.
///
/// # Errors
/// `repr`'s dtype is not `dtype`'s; the axis, scales or zero points are
/// invalid (as [`quantize_per_channel`], where PyTorch checks them only when
/// it dequantizes, and accepts a scale `<= 0`).
///
/// ```
/// use axial_core::RawTensor;
/// use axial_core::quantized::{QDType, from_int_repr_per_channel};
/// let ints = RawTensor::from_vec(vec![1i8, 2, 3, 4], &[2, 2])?;
/// let q = from_int_repr_per_channel(ints, &[0.5, 0.25], &[0, 2], 0, QDType::QInt8)?;
/// assert_eq!(q.dequantize()?.to_vec::<f32>()?, vec![0.5, 1.0, 0.25, 0.5]);
/// let ints = RawTensor::from_vec(vec![1i8, 2], &[2])?;
/// assert!(from_int_repr_per_channel(ints, &[0.5], &[0], 0, QDType::QInt8).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn from_int_repr_per_channel(
    repr: RawTensor,
    scales: &[f64],
    zero_points: &[i64],
    axis: usize,
    dtype: QDType,
) -> Result<QuantizedTensor> {
    const OP: &str = "_make_per_channel_quantized_tensor";
    check_repr(OP, &repr, dtype)?;
    let quantizer = per_channel(OP, repr.shape(), scales, zero_points, axis, dtype)?;
    Ok(QuantizedTensor::new(repr, dtype, quantizer))
}

/// `repr` holds `dtype`'s integers.
fn check_repr(op: &'static str, repr: &RawTensor, dtype: QDType) -> Result<()> {
    if repr.dtype() != dtype.repr() {
        return Err(Error::invalid(
            op,
            format!(
                "expected {} data for {}, got {}",
                dtype.repr(),
                dtype,
                repr.dtype()
            ),
        ));
    }
    Ok(())
}

impl QuantizedRef<'_> {
    /// `dequantize()`: an `f32` tensor of the same shape, row-major.
    ///
    /// Per tensor, `f32(scale) * f32(q - zero_point)` in `f32`; per channel,
    /// `f32((f32(q) - f32(zp_c)) * scale_c)` with the product in `f64` (the
    /// two formulas PyTorch uses; they differ in the last bit for some
    /// inputs).
    ///
    /// `q - zero_point` is exact here (in `i64`). PyTorch computes it in
    /// `int32` per tensor, so for `qint32` near the ends of the range, where
    /// the difference leaves `int32`, it wraps: `q = 2^31 - 1` with zero
    /// point `-1000` and scale `0.5` dequantizes to `-1.07e9` in PyTorch,
    /// `1.07e9` here: a wrapped difference is a value of the wrong sign,
    /// which no quantization produced. PyTorch's per-channel path does not
    /// wrap (it subtracts in `float`), nor does axial's. The bits of every
    /// other input are PyTorch's.
    ///
    /// # Errors
    /// The view does not fit its storage.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_channel};
    /// let x = RawTensor::from_vec(vec![-1.0f32, 0.0, 0.5, 1.0, 2.0, 3.0], &[2, 3])?;
    /// let q = quantize_per_channel(&x.view(), &[0.1, 0.2, 0.5], &[0, 1, -2], 1, QDType::QInt8)?;
    /// assert_eq!(q.view().dequantize()?.to_vec::<f32>()?, vec![-1.0, 0.0, 0.5, 1.0, 2.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dequantize(&self) -> Result<RawTensor> {
        const OP: &str = "dequantize";
        let shape = self.shape().to_vec();
        with_qdtype!(self.qdtype, Q => {
            let q = host::elements::<Q>(OP, &self.repr)?;
            host::build::<f32>(&shape, |out| {
                match &self.quantizer {
                    Quantizer::PerTensor { scale, zero_point } => {
                        let (s, zp) = (*scale as f32, *zero_point);
                        let chunk = PARALLEL;
                        out.par_chunks_mut(chunk).zip(q.par_chunks(chunk)).for_each(|(o, q)| {
                            for (o, &q) in o.iter_mut().zip(q) {
                                // Exact, where PyTorch's int32 wraps.
                                *o = s * (q.widen() - zp) as f32;
                            }
                        });
                    }
                    Quantizer::PerChannel { scales, zero_points, axis } => {
                        let inner: usize = shape[axis + 1..].iter().product();
                        let channels = shape[*axis];
                        for (i, (o, &q)) in out.iter_mut().zip(q.iter()).enumerate() {
                            let c = (i / inner.max(1)) % channels.max(1);
                            let d = q.widen() as f32 - zero_points[c] as f32;
                            *o = (d as f64 * scales[c]) as f32;
                        }
                    }
                }
                Ok(())
            })
        })
    }

    /// `int_repr()`: the stored integers as a **new** tensor (never a view),
    /// row-major (channels-last when the view is), as PyTorch's.
    ///
    /// # Errors
    /// The view does not fit its storage.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_tensor};
    /// let x = RawTensor::arange(0.0, 1.2, 0.1, axial_core::DType::F32)?;
    /// let m = quantize_per_tensor(&x.view().view(&[3, 4])?, 0.1, 3, QDType::QUInt8)?;
    /// let t = m.view().t()?.int_repr()?;
    /// assert_eq!(t.strides(), &[3, 1]);
    /// assert_eq!(t.to_vec::<u8>()?[..3], [3, 7, 11]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn int_repr(&self) -> Result<RawTensor> {
        let layout = suggested(self.layout());
        if layout.is_contiguous() {
            return self.repr.to_contiguous();
        }
        let numel = layout.numel();
        let storage = Storage::zeroed(&Cpu, numel * self.qdtype.repr().size())?;
        let mut out = RawTensor::from_parts(storage, layout, self.qdtype.repr())?;
        out.view_mut().copy_(&self.repr)?;
        Ok(out)
    }

    /// A new quantized tensor of the same values and parameters, row-major
    /// (`clone()` / `contiguous()`).
    ///
    /// # Errors
    /// The view does not fit its storage.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_tensor};
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let q = quantize_per_tensor(&x.view(), 1.0, 0, QDType::QInt8)?;
    /// let c = q.view().t()?.to_owned()?;
    /// assert_eq!((c.strides(), c.q_scale()?), (&[2, 1][..], 1.0));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_owned(&self) -> Result<QuantizedTensor> {
        Ok(QuantizedTensor::new(
            self.int_repr()?,
            self.qdtype,
            self.quantizer.clone(),
        ))
    }
}

impl QuantizedTensor {
    /// `dequantize()` (see [`QuantizedRef::dequantize`]).
    ///
    /// # Errors
    /// As [`QuantizedRef::dequantize`].
    ///
    /// ```
    /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
    /// let q = quantize_per_tensor(&RawTensor::from_vec(vec![0.25f32], &[1])?.view(), 0.5, 0, QDType::QInt8)?;
    /// assert_eq!(q.dequantize()?.to_vec::<f32>()?, vec![0.0]); // 0.5 rounds to 0 (even)
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dequantize(&self) -> Result<RawTensor> {
        self.view().dequantize()
    }

    /// `int_repr()` (see [`QuantizedRef::int_repr`]).
    ///
    /// # Errors
    /// As [`QuantizedRef::int_repr`].
    ///
    /// ```
    /// # use axial_core::{RawTensor, quantized::{QDType, quantize_per_tensor}};
    /// let q = quantize_per_tensor(&RawTensor::from_vec(vec![-3e9f32, 3e9], &[2])?.view(), 1.0, 0, QDType::QInt32)?;
    /// assert_eq!(q.int_repr()?.to_vec::<i32>()?, vec![i32::MIN, i32::MAX]); // clamped, not wrapped
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn int_repr(&self) -> Result<RawTensor> {
        self.view().int_repr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::contiguous_strides;

    #[test]
    fn multiplies_by_the_f32_inverse() {
        // fbgemm's own example: x * (1 / s) is 127.5 where x / s is 127.49999.
        let inv = inverse_scale("t", 0.00214854861).unwrap();
        assert_eq!(quantize_one(0.273_939_94, inv, 0.0, 0.0, 255.0), 128.0);
    }

    #[test]
    fn rounding_is_nearbyint() {
        let mut x = -20.0f32;
        while x < 20.0 {
            assert_eq!(
                round_half_even(x).to_bits(),
                x.round_ties_even().to_bits(),
                "{x}"
            );
            x += 0.125;
        }
        for x in [
            4194304.5f32,
            8388607.5,
            8388608.0,
            -8388607.5,
            1e30,
            -0.3,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ] {
            assert_eq!(
                round_half_even(x).to_bits(),
                x.round_ties_even().to_bits(),
                "{x}"
            );
        }
        assert!(round_half_even(f32::NAN).is_nan());
    }

    #[test]
    fn refuses_scales_pytorch_accepts() {
        for s in [0.0, -0.1, f64::NAN, f64::INFINITY, 1e-300, 1e300] {
            assert!(inverse_scale("t", s).is_err(), "{s}");
        }
    }

    #[test]
    fn channels_last_layouts_stay_channels_last() {
        let l = Layout::from_parts(&[2, 3, 4, 5], &[60, 1, 15, 3], 0);
        assert_eq!(suggested(&l).strides(), &[60, 1, 15, 3]);
        let t = Layout::contiguous(&[3, 4]).t().unwrap();
        assert_eq!(
            suggested(&t).strides(),
            contiguous_strides(&[4, 3]).as_slice()
        );
    }
}
