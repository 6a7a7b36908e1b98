//! The integer types an element's coordinates may have: `usize`, as
//! `shape()` gives sizes, or a signed type, negative counting from the end
//! as PyTorch's indexing does.

mod sealed {
    pub trait Sealed {}
}

/// An integer that indexes an axis: unsigned (`usize`, `u32`, `u64`, as
/// sizes and loop counters are) or signed (`isize`, `i32`, `i64`; a
/// negative coordinate counts from the end). Sealed.
///
/// ```
/// use axial_core::{DType, RawTensor};
/// let m = RawTensor::arange(0.0, 6.0, 1.0, DType::F32)?;
/// let m = m.view().view(&[2, 3])?;
/// let (rows, cols) = (m.shape()[0], m.shape()[1]);
/// assert_eq!(m.get::<f32>(&[rows - 1, cols - 1])?, 5.0); // usize, from the shape
/// assert_eq!(m.get::<f32>(&[-1, -1])?, 5.0); // from the end
/// # Ok::<(), axial_core::Error>(())
/// ```
pub trait AxisIndex: Copy + sealed::Sealed {
    /// The coordinate in `0..size`, or `None` outside the axis.
    fn resolve(self, size: usize) -> Option<usize>;
    /// The coordinate as an error reports it (saturated at `isize`'s ends).
    fn reported(self) -> isize;
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl AxisIndex for $t {
            #[inline]
            fn resolve(self, size: usize) -> Option<usize> {
                usize::try_from(self).ok().filter(|&i| i < size)
            }
            fn reported(self) -> isize {
                isize::try_from(self).unwrap_or(isize::MAX)
            }
        }
    )*};
}
unsigned!(usize, u32, u64);

macro_rules! signed {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl AxisIndex for $t {
            #[inline]
            fn resolve(self, size: usize) -> Option<usize> {
                let i = self as i128;
                let n = size as i128;
                let i = if i < 0 { i + n } else { i };
                (0..n).contains(&i).then_some(i as usize)
            }
            fn reported(self) -> isize {
                let i = self as i128;
                i.clamp(isize::MIN as i128, isize::MAX as i128) as isize
            }
        }
    )*};
}
signed!(isize, i32, i64);
