//! Broadcasting (`ExpandUtils.cpp::infer_size`).

use super::Dims;
use crate::{Error, Result};

/// The shape two shapes broadcast to: aligned from the right, missing dims
/// count as 1, sizes equal or 1 (and 0 against 1 gives 0).
///
/// # Errors
/// [`Error::Broadcast`] naming both sizes and the dim.
///
/// ```
/// # use axial_core::layout::broadcast_shapes;
/// assert_eq!(broadcast_shapes(&[5, 1, 4, 1], &[3, 1, 1])?.as_slice(), &[5, 3, 4, 1]);
/// assert_eq!(broadcast_shapes(&[2, 1], &[1, 0])?.as_slice(), &[2, 0]);
/// assert_eq!(
///     broadcast_shapes(&[4, 2], &[4, 3]).unwrap_err().to_string(),
///     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
/// );
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<Dims> {
    let rank = a.len().max(b.len());
    let mut out: Dims = smallvec::smallvec![0; rank];
    for i in 0..rank {
        let from_right = rank - 1 - i;
        let sa = a.len().checked_sub(from_right + 1).map_or(1, |d| a[d]);
        let sb = b.len().checked_sub(from_right + 1).map_or(1, |d| b[d]);
        out[i] = match (sa, sb) {
            _ if sa == sb => sa,
            (1, _) => sb,
            (_, 1) => sa,
            _ => {
                return Err(Error::Broadcast {
                    a: sa,
                    b: sb,
                    dim: i,
                });
            }
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::broadcast_shapes;

    #[test]
    fn semantics_examples() {
        assert_eq!(broadcast_shapes(&[], &[2, 3]).unwrap().as_slice(), &[2, 3]);
        assert_eq!(broadcast_shapes(&[0], &[1]).unwrap().as_slice(), &[0]);
        assert!(broadcast_shapes(&[0], &[2]).is_err());
    }
}
