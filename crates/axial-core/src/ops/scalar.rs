//! Scalar arguments of ops (a clamp's bounds, an exponent, a fill value)
//! converted to an element type as PyTorch converts them.

use crate::{DType, Element, Error, Result, with_dtype};

/// A scalar converted to `dtype` as `c10::Scalar::to<T>()` does: refused
/// when out of the type's range (infinities and NaN allowed for floats),
/// else converted as a cast. The result is exactly representable in `dtype`.
///
/// # Errors
/// The value does not fit.
///
/// ```
/// # use axial_core::{DType, ops::checked_scalar};
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
pub(crate) fn limits(dtype: DType) -> (f64, f64, &'static str) {
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
        DType::U16 => (0.0, u16::MAX as f64, "uint16_t"),
        DType::U32 => (0.0, u32::MAX as f64, "uint32_t"),
        DType::U64 => (0.0, u64::MAX as f64, "uint64_t"),
        DType::C64 => (f32::MIN as f64, f32::MAX as f64, "c10::complex<float>"),
        DType::C128 => (f64::MIN, f64::MAX, "c10::complex<double>"),
        DType::F8E4M3Fn => (-448.0, 448.0, "c10::Float8_e4m3fn"),
        DType::F8E5M2 => (-57344.0, 57344.0, "c10::Float8_e5m2"),
        DType::F8E4M3FnUz => (-240.0, 240.0, "c10::Float8_e4m3fnuz"),
        DType::F8E5M2FnUz => (-57344.0, 57344.0, "c10::Float8_e5m2fnuz"),
    }
}
