//! `as_strided` and the checked constructor (PyTorch's `setStorage` bounds,
//! `aten/src/ATen/native/Resize.h`).

use super::Layout;
use crate::{Error, Result};

impl Layout {
    /// `x.as_strided(size, stride, offset)`: any layout over the same storage,
    /// checked against its `storage_len` elements. `offset` is absolute in the
    /// storage and defaults to this layout's. Overlap is allowed.
    ///
    /// # Errors
    /// Mismatched lengths, a negative stride, or a layout past the end of the
    /// storage ([`Error::OutOfBounds`], worded as PyTorch's `setStorage`).
    ///
    /// ```
    /// # use axial_core::Layout;
    /// let b = Layout::contiguous(&[10]);
    /// let w = b.as_strided(&[7, 4], &[1, 1], None, 10, 4)?;
    /// assert_eq!(w.required_len(), 10);
    /// let err = b.as_strided(&[4], &[3], Some(1), 10, 4).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "setStorage: sizes [4], strides [3], storage offset 1, and itemsize 4 requiring a storage size of 44 are out of bounds for storage of size 40"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn as_strided(
        &self,
        size: &[usize],
        stride: &[isize],
        offset: Option<usize>,
        storage_len: usize,
        itemsize: usize,
    ) -> Result<Layout> {
        let offset = offset.unwrap_or(self.offset());
        Self::checked("as_strided", size, stride, offset, storage_len, itemsize)
    }

    pub(super) fn checked(
        op: &'static str,
        shape: &[usize],
        strides: &[isize],
        offset: usize,
        storage_len: usize,
        itemsize: usize,
    ) -> Result<Layout> {
        if shape.len() != strides.len() {
            return Err(Error::invalid(
                op,
                "mismatch in length of strides and shape",
            ));
        }
        if strides.iter().any(|&s| s < 0) {
            return Err(Error::negative_strides(op, strides));
        }
        let layout = Layout::from_parts(shape, strides, offset);
        layout.check_bounds(storage_len, itemsize)?;
        Ok(layout)
    }
}

#[cfg(test)]
mod tests {
    use crate::Layout;

    #[test]
    fn bounds_follow_pytorch() {
        let b = Layout::contiguous(&[10]);
        assert!(b.as_strided(&[4], &[3], None, 10, 4).is_ok());
        assert!(b.as_strided(&[0, 5], &[100, 100], Some(50), 10, 4).is_ok());
        assert!(b.as_strided(&[3], &[1], Some(8), 10, 4).is_err());
        assert!(b.as_strided(&[2], &[-1], None, 10, 4).is_err());
        assert!(b.as_strided(&[2, 2], &[1], None, 10, 4).is_err());
        let sliced = b.slice(0, Some(2), None, 1).unwrap();
        assert_eq!(
            sliced.as_strided(&[2], &[1], None, 10, 4).unwrap().offset(),
            2
        );
    }

    #[test]
    fn unchecked_layouts_that_fit_no_storage_are_refused() {
        use crate::{Backend, Cpu, DType, Error, Input, Output, RawTensor, Storage};
        let negative = Layout::from_parts(&[2], &[-1], 0);
        assert_eq!(negative.required_len(), usize::MAX);
        assert!(matches!(
            negative.check_bounds(10, 4),
            Err(Error::Invalid { .. })
        ));
        let storage = Storage::from_slice(&[1.0f32, 2.0]);
        assert!(RawTensor::from_parts(storage, negative.clone(), DType::F32).is_err());
        // The span overflows usize: no wrap-around may make it look small.
        let huge = Layout::from_parts(&[2, 2, 2], &[isize::MAX; 3], 0);
        assert_eq!(huge.required_len(), usize::MAX);
        assert!(matches!(
            huge.check_bounds(4, 4),
            Err(Error::OutOfBounds { .. })
        ));
        // A kernel given such a layout refuses it before reading.
        let mut dst = RawTensor::zeros(&[2], DType::F32).unwrap();
        let src = Storage::from_slice(&[1.0f32, 2.0]);
        let (storage, layout, dtype) = (dst.storage_mut(), Layout::contiguous(&[2]), DType::F32);
        let result = Cpu.copy(
            Input {
                storage: Some(&src),
                layout: negative,
                dtype,
            },
            Output {
                storage,
                layout,
                dtype,
            },
        );
        assert!(result.is_err());
    }
}
