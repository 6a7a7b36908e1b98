//! `pad`: PyTorch's `nn.functional.pad` in its four modes. A constant pad
//! fills a new tensor and copies the input into its middle; the other modes
//! read each padded dim through `index_select` at the positions the mode
//! gives (a reflection, the edge, or a wrap), one dim after another.

use super::{RawTensor, TensorRef, alloc_output};
use crate::{Backend, Error, Layout, Result, Scalar};

/// How `pad` fills the new elements (PyTorch's `mode`).
///
/// ```
/// use axial_core::{PadMode, RawTensor, Scalar};
/// let x = RawTensor::from_vec(vec![1i64, 2, 3], &[3])?;
/// let pad = |mode| x.view().pad(&[2, 1], mode).unwrap().to_vec::<i64>().unwrap();
/// assert_eq!(pad(PadMode::Constant(Scalar::Int(0))), vec![0, 0, 1, 2, 3, 0]);
/// assert_eq!(pad(PadMode::Reflect), vec![3, 2, 1, 2, 3, 2]);
/// assert_eq!(pad(PadMode::Replicate), vec![1, 1, 1, 2, 3, 3]);
/// assert_eq!(pad(PadMode::Circular), vec![2, 3, 1, 2, 3, 1]);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum PadMode {
    /// Every new element is the value (`mode='constant', value=...`).
    Constant(Scalar),
    /// The input mirrored at its edges, the edge itself not repeated.
    Reflect,
    /// The edge element repeated.
    Replicate,
    /// The input wrapped around.
    Circular,
}

impl PadMode {
    /// PyTorch's name of the mode.
    ///
    /// ```
    /// assert_eq!(axial_core::PadMode::Replicate.name(), "replicate");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            PadMode::Constant(_) => "constant",
            PadMode::Reflect => "reflect",
            PadMode::Replicate => "replicate",
            PadMode::Circular => "circular",
        }
    }
}

impl<D: Backend> TensorRef<'_, D> {
    /// `torch.nn.functional.pad(x, pad, mode)`: `pad` lists `(before,
    /// after)` counts for the last dim, then the one before it, and so on,
    /// as PyTorch's tuple does. Unlike PyTorch, every mode pads any number
    /// of dims of a tensor of any rank.
    ///
    /// # Errors
    /// An odd-length `pad` or more pairs than dims; a reflection at least as
    /// long as its dim; a wrap longer than its dim; an edge to repeat in an
    /// empty dim; a value out of the dtype's range (each worded as PyTorch's).
    ///
    /// ```
    /// use axial_core::{PadMode, RawTensor};
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let y = x.view().pad(&[1, 0, 0, 1], PadMode::Replicate)?; // cols: 1 before; rows: 1 after
    /// assert_eq!((y.shape(), y.to_vec::<f32>()?), (&[3, 3][..], vec![1.0, 1.0, 2.0, 3.0, 3.0, 4.0, 3.0, 3.0, 4.0]));
    /// let e = x.view().pad(&[2, 2], PadMode::Reflect).err().unwrap();
    /// assert!(e.to_string().contains("Padding size should be less than the corresponding input dimension"));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn pad(&self, pad: &[usize], mode: PadMode) -> Result<RawTensor<D>> {
        let op = "pad";
        if !pad.len().is_multiple_of(2) {
            return Err(Error::invalid(op, "Padding length must be divisible by 2"));
        }
        if pad.len() / 2 > self.dim() {
            return Err(Error::invalid(
                op,
                format!(
                    "Padding length should be less than or equal to two times the input dimension but got padding length {} and input of dimension {}",
                    pad.len(),
                    self.dim()
                ),
            ));
        }
        let pairs: Vec<(usize, usize, usize)> = pad
            .chunks_exact(2)
            .enumerate()
            .map(|(i, p)| (self.dim() - 1 - i, p[0], p[1]))
            .collect();
        for (k, &(dim, before, after)) in pairs.iter().enumerate() {
            check_pad(op, k, mode, self.shape(), dim, before, after)?;
        }
        match mode {
            PadMode::Constant(value) => self.pad_constant(&pairs, value),
            _ => {
                let mut out: Option<RawTensor<D>> = None;
                for &(dim, before, after) in &pairs {
                    let src = out.as_ref().map_or_else(|| self.clone(), RawTensor::view);
                    let n = src.shape()[dim];
                    let positions: Vec<i64> = (0..n + before + after)
                        .map(|j| source_index(mode, j as i64 - before as i64, n as i64))
                        .collect();
                    let index = RawTensor::from_slice_on(
                        self.storage().device(),
                        &positions,
                        &[positions.len()],
                    )?;
                    out = Some(src.index_select(dim as isize, &index.view())?);
                }
                match out {
                    Some(out) => Ok(out),
                    None => self.to_contiguous(),
                }
            }
        }
    }

    /// A new tensor of the padded shape filled with `value`, the input
    /// copied into its middle.
    fn pad_constant(&self, pairs: &[(usize, usize, usize)], value: Scalar) -> Result<RawTensor<D>> {
        let mut shape = self.shape().to_vec();
        for &(dim, before, after) in pairs {
            shape[dim] = shape[dim]
                .checked_add(before)
                .and_then(|n| n.checked_add(after))
                .ok_or_else(|| Error::invalid("pad", "the padded size overflows"))?;
        }
        let device = self.storage().device();
        let mut out = alloc_output(device, Layout::contiguous(&shape), self.dtype())?;
        out.view_mut().fill_(value)?;
        let mut middle = out.view_mut();
        for &(dim, before, _) in pairs {
            middle = middle.narrow(dim as isize, before as isize, self.shape()[dim])?;
        }
        middle.copy_(self)?;
        Ok(out)
    }
}

/// PyTorch's checks of one padded dim, the `k`-th from the last (which
/// numbers PyTorch's argument: `#4` the last dim, `#6` the one before).
pub(crate) fn check_pad(
    op: &'static str,
    k: usize,
    mode: PadMode,
    shape: &[usize],
    dim: usize,
    before: usize,
    after: usize,
) -> Result<()> {
    let n = shape[dim];
    let fits = match mode {
        PadMode::Constant(_) => true,
        PadMode::Reflect => (before < n && after < n) || before.max(after) == 0,
        PadMode::Replicate => n > 0 || (before == 0 && after == 0),
        PadMode::Circular => before <= n && after <= n,
    };
    if fits {
        return Ok(());
    }
    Err(Error::invalid(
        op,
        match mode {
            PadMode::Reflect => format!(
                "Argument #{}: Padding size should be less than the corresponding input dimension, but got: padding ({before}, {after}) at dimension {dim} of input {shape:?}",
                4 + 2 * k
            ),
            PadMode::Replicate => format!(
                "padding size is expected to be at most the input size, but dimension {dim} of input {shape:?} is empty"
            ),
            _ => "Padding value causes wrapping around more than once.".to_owned(),
        },
    ))
}

/// The input position that output position `i` (counted from the input's
/// first element, so negative in the padding before it) reads in `mode`,
/// for a dim of `n > 0` elements the checks let through.
pub(crate) fn source_index(mode: PadMode, i: i64, n: i64) -> i64 {
    match mode {
        PadMode::Reflect => {
            let period = 2 * (n - 1);
            if period == 0 {
                return 0;
            }
            let r = i.rem_euclid(period);
            if r < n { r } else { period - r }
        }
        PadMode::Replicate => i.clamp(0, n - 1),
        PadMode::Circular => i.rem_euclid(n),
        PadMode::Constant(_) => i,
    }
}
