//! Printing like PyTorch: the dequantized values, then the size, dtype,
//! scheme and parameters.

use std::fmt;

use super::{QuantizedRef, QuantizedTensor, Quantizer};
use crate::print::{python_tuple, unprintable, with_suffixes};

/// Python's `repr` of a float: the shortest digits that round-trip, with
/// `.0` on integral values and scientific notation below 1e-4 or from 1e16.
pub(crate) fn py_float(v: f64) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "nan".into()
        } else if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let a = v.abs();
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        let s = format!("{v:e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let (sign, digits) = match exp.strip_prefix('-') {
            Some(d) => ('-', d),
            None => ('+', exp),
        };
        return format!("{mantissa}e{sign}{digits:0>2}");
    }
    if v.fract() == 0.0 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

impl fmt::Display for QuantizedRef<'_> {
    /// PyTorch's `repr` of a quantized tensor.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_tensor};
    /// let x = RawTensor::from_vec(vec![-1.0f32, 0.0, 0.5, 1.0, 2.0], &[5])?;
    /// let q = quantize_per_tensor(&x.view(), 0.1, 10, QDType::QUInt8)?;
    /// assert_eq!(
    ///     q.view().to_string(),
    ///     "tensor([-1.0000,  0.0000,  0.5000,  1.0000,  2.0000], size=(5,),\n       \
    ///      dtype=torch.quint8, quantization_scheme=torch.per_tensor_affine,\n       \
    ///      scale=0.1, zero_point=10)"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values = match self.dequantize() {
            Ok(v) => v,
            Err(e) => return f.write_str(&unprintable(&e)),
        };
        let mut suffixes = Vec::new();
        if self.numel() != 0 || self.shape().len() == 1 {
            // The core names the size of an empty tensor itself.
            suffixes.push(format!("size={}", python_tuple(self.shape())));
        }
        suffixes.push(format!("dtype={}", self.qdtype));
        suffixes.push(format!("quantization_scheme={}", self.qscheme()));
        match &self.quantizer {
            Quantizer::PerTensor { scale, zero_point } => {
                suffixes.push(format!("scale={}", py_float(*scale)));
                suffixes.push(format!("zero_point={zero_point}"));
            }
            Quantizer::PerChannel { axis, .. } => {
                let scales = self.q_per_channel_scales();
                let zps = self.q_per_channel_zero_points();
                if let (Ok(s), Ok(z)) = (scales, zps) {
                    suffixes.push(format!("scale={s}"));
                    suffixes.push(format!("zero_point={z}"));
                }
                suffixes.push(format!("axis={axis}"));
            }
        }
        f.write_str(&with_suffixes(&values.view(), &suffixes))
    }
}

impl fmt::Display for QuantizedTensor {
    /// As the view's (see [`QuantizedRef`]'s `Display`).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_channel};
    /// let x = RawTensor::from_vec(vec![-1.0f32, 0.0, 0.5, 1.0, 2.0, 3.0], &[2, 3])?;
    /// let q = quantize_per_channel(&x.view(), &[0.1, 0.5], &[0, 10], 0, QDType::QUInt8)?;
    /// assert!(q.to_string().ends_with(
    ///     "scale=tensor([0.1000, 0.5000], dtype=torch.float64),\n       zero_point=tensor([ 0, 10]), axis=0)"
    /// ));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.view(), f)
    }
}

impl fmt::Debug for QuantizedRef<'_> {
    /// The dtype, shape, strides, offset and parameters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QuantizedRef")
            .field("qdtype", &self.qdtype)
            .field("shape", &self.shape())
            .field("strides", &self.strides())
            .field("offset", &self.offset())
            .field("quantizer", &self.quantizer)
            .finish()
    }
}

impl fmt::Debug for QuantizedTensor {
    /// As the view's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.view(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::py_float;

    #[test]
    fn floats_print_as_python_repr() {
        assert_eq!(py_float(0.1), "0.1");
        assert_eq!(py_float(1.0), "1.0");
        assert_eq!(py_float(1e-5), "1e-05");
        assert_eq!(py_float(0.00214854861), "0.00214854861");
        assert_eq!(py_float(2.5e20), "2.5e+20");
        assert_eq!(py_float(1234.5), "1234.5");
    }
}
