//! To and from a padded dense tensor (`to_padded_tensor`, and items of
//! given lengths cut out of a padded batch).

use super::NestedTensor;
use crate::{Cpu, Error, RawTensor, Result, Scalar, TensorRef};

impl NestedTensor {
    /// The padded size: `(B, longest item, rest...)`, the longest item's
    /// length in every ragged dim.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, nested::NestedTensor};
    /// let nj = NestedTensor::from_jagged(RawTensor::zeros(&[7, 3], DType::F32)?, &[0, 2, 6, 7])?;
    /// assert_eq!(nj.padded_shape(), vec![3, 4, 3]);
    /// assert_eq!(nj.transpose(1, 2)?.padded_shape(), vec![3, 3, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn padded_shape(&self) -> Vec<usize> {
        let mut shape = vec![self.batch_size()];
        shape.extend(self.item_shape(self.lengths().into_iter().max().unwrap_or(0)));
        shape
    }

    /// `to_padded_tensor(pad, output_size)`: a dense `(B, L, rest...)`
    /// tensor, item `i` in its first rows and `pad` elsewhere; `L` the
    /// longest item (in every ragged dim), or the sizes of `output_size`,
    /// which must hold every item.
    ///
    /// # Errors
    /// `output_size` has another rank or batch size, or is smaller than the
    /// padded size in a dim (PyTorch truncates the items silently).
    ///
    /// ```
    /// use axial_core::{DType, RawTensor, Scalar};
    /// use axial_core::nested::NestedTensor;
    /// let nj = NestedTensor::from_jagged(RawTensor::arange(0.0, 3.0, 1.0, DType::F32)?, &[0, 2, 3])?;
    /// let p = nj.to_padded(Scalar::Float(-1.0), None)?;
    /// assert_eq!(p.to_vec::<f32>()?, vec![0.0, 1.0, 2.0, -1.0]);
    /// let e = nj.to_padded(Scalar::Float(0.0), Some(&[2, 1])).err().unwrap();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "to_padded_tensor: output_size [2, 1] is smaller than the padded size [2, 2] at dim 1 (PyTorch would truncate the items)"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_padded(&self, pad: Scalar, output_size: Option<&[usize]>) -> Result<RawTensor> {
        const OP: &str = "to_padded_tensor";
        let needed = self.padded_shape();
        let shape = match output_size {
            None => needed.clone(),
            Some(size) => {
                if size.len() != needed.len() || size[0] != needed[0] {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "output_size {size:?} must have {} dims and a batch size of {}",
                            needed.len(),
                            needed[0]
                        ),
                    ));
                }
                if let Some(d) = (1..size.len()).find(|&d| size[d] < needed[d]) {
                    return Err(Error::invalid(
                        OP,
                        format!(
                            "output_size {size:?} is smaller than the padded size {needed:?} at dim {d} (PyTorch would truncate the items)"
                        ),
                    ));
                }
                size.to_vec()
            }
        };
        let mut out = RawTensor::full_on(&Cpu, &shape, pad, self.dtype())?;
        for (i, item) in self.unbind()?.iter().enumerate() {
            let mut dst = out.view_mut().select(0, i as isize)?;
            for (d, &n) in item.shape().iter().enumerate() {
                dst = dst.narrow(d as isize, 0, n)?;
            }
            dst.copy_(item)?;
        }
        Ok(out)
    }

    /// The items of a padded `(B, L, rest...)` tensor: item `i` is the first
    /// `lengths[i]` rows of `padded[i]` (copied).
    ///
    /// # Errors
    /// `padded` has fewer than 2 dims, `lengths` is not one per item, or a
    /// length is past `L`.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::nested::NestedTensor;
    /// let p = RawTensor::arange(0.0, 8.0, 1.0, DType::F32)?;
    /// let nj = NestedTensor::from_padded(&p.view().view(&[2, 4])?, &[1, 3])?;
    /// assert_eq!(nj.values().to_vec::<f32>()?, vec![0.0, 4.0, 5.0, 6.0]);
    /// assert!(NestedTensor::from_padded(&p.view().view(&[2, 4])?, &[1, 5]).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_padded(padded: &TensorRef<'_, Cpu>, lengths: &[usize]) -> Result<NestedTensor> {
        const OP: &str = "from_padded";
        let shape = padded.shape();
        if shape.len() < 2 {
            return Err(Error::invalid(
                OP,
                format!(
                    "expected a padded tensor of at least 2 dims (B, L, ...), got shape {shape:?}"
                ),
            ));
        }
        if lengths.len() != shape[0] {
            return Err(Error::invalid(
                OP,
                format!(
                    "expected {} lengths, one per item, got {}",
                    shape[0],
                    lengths.len()
                ),
            ));
        }
        if let Some(i) = lengths.iter().position(|&l| l > shape[1]) {
            return Err(Error::invalid(
                OP,
                format!(
                    "length {} of item {i} is past the padded length {}",
                    lengths[i], shape[1]
                ),
            ));
        }
        let items = lengths
            .iter()
            .enumerate()
            .map(|(i, &l)| padded.clone().select(0, i as isize)?.narrow(0, 0, l))
            .collect::<Result<Vec<_>>>()?;
        if items.is_empty() {
            return Err(Error::empty_nested(OP));
        }
        NestedTensor::from_tensors(&items)
    }
}
