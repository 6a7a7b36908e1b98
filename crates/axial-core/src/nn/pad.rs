//! `torch.nn.functional.pad`: constant, reflected, replicated and circular
//! padding of the last dims (or of any dims by position), with PyTorch's
//! checks.

use super::alloc::{alloc, like, output};
use super::conv::PaddingMode;
use crate::cpu::conv::pad::gather_padded;
use crate::{Cpu, Error, RawTensor, Result, Scalar, TensorRef};

/// What `pad` puts in the padding (`F.pad`'s `mode` and `value`).
///
/// ```
/// use axial_core::nn::PadMode;
/// assert_eq!(PadMode::Constant(0.0).name(), "constant");
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum PadMode {
    /// A constant.
    Constant(f64),
    /// The input mirrored at its edges, the edge not repeated.
    Reflect,
    /// The edge element repeated.
    Replicate,
    /// The input repeated periodically.
    Circular,
}

impl PadMode {
    /// PyTorch's name.
    ///
    /// ```
    /// # use axial_core::nn::PadMode;
    /// assert_eq!(PadMode::Reflect.name(), "reflect");
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

/// The source index of each output index of a dim of `n` padded by `lo`
/// and `hi` (`None`: the constant).
fn index_map(mode: PadMode, n: usize, (lo, hi): (usize, usize)) -> Vec<Option<usize>> {
    (0..n + lo + hi)
        .map(|o| {
            let i = o as i64 - lo as i64;
            let n = n as i64;
            let s = match mode {
                PadMode::Constant(_) => (0..n).contains(&i).then_some(i),
                PadMode::Reflect => Some(if i < 0 {
                    -i
                } else if i >= n {
                    2 * (n - 1) - i
                } else {
                    i
                }),
                PadMode::Replicate => Some(i.clamp(0, n - 1)),
                PadMode::Circular => Some(i.rem_euclid(n)),
            };
            s.map(|s| s as usize)
        })
        .collect()
}

/// Pads the dims `dims` of `x` by `(before, after)` each, in `mode`;
/// checks each dim as PyTorch's `F.pad` does.
pub(crate) fn pad_dims(
    x: &TensorRef<'_, Cpu>,
    dims: &[usize],
    sides: &[(usize, usize)],
    mode: PadMode,
) -> Result<RawTensor<Cpu>> {
    let op = "pad";
    let shape = x.shape().to_vec();
    // PyTorch checks the last dim first.
    let mut order: Vec<(usize, (usize, usize))> =
        dims.iter().copied().zip(sides.iter().copied()).collect();
    order.sort_by_key(|&(d, _)| std::cmp::Reverse(d));
    for (k, (d, (lo, hi))) in order.into_iter().enumerate() {
        let n = shape[d];
        match mode {
            PadMode::Reflect if lo >= n || hi >= n => {
                return Err(Error::invalid(
                    op,
                    format!(
                        "Argument #{}: Padding size should be less than the corresponding input dimension, but got: padding ({lo}, {hi}) at dimension {d} of input {shape:?}",
                        4 + 2 * k
                    ),
                ));
            }
            PadMode::Circular if lo > n || hi > n => {
                return Err(Error::invalid(
                    op,
                    "Padding value causes wrapping around more than once.",
                ));
            }
            PadMode::Replicate | PadMode::Circular if n == 0 && lo + hi > 0 => {
                return Err(Error::invalid(
                    op,
                    format!(
                        "cannot pad the empty dimension {d} of input {shape:?} in {} mode",
                        mode.name()
                    ),
                ));
            }
            _ => {}
        }
    }
    let mut maps: Vec<Vec<Option<usize>>> =
        shape.iter().map(|&n| (0..n).map(Some).collect()).collect();
    let mut out_shape = shape.clone();
    for (&d, &s) in dims.iter().zip(sides) {
        maps[d] = index_map(mode, shape[d], s);
        out_shape[d] = maps[d].len();
    }
    let fill_value = match mode {
        PadMode::Constant(v) => v,
        _ => 0.0,
    };
    let fill = RawTensor::full_on(&Cpu, &[1], Scalar::Float(fill_value), x.dtype())?;
    let fill = fill.storage().as_bytes().to_vec();
    let mut out = alloc(like(x.layout(), &out_shape), x.dtype())?;
    gather_padded(x.input(), output(&mut out), &maps, &fill)?;
    Ok(out)
}

/// A convolution's padding of the spatial dims (zeros never reach here).
pub(crate) fn pad_sides(
    x: &TensorRef<'_, Cpu>,
    dims: &[usize],
    sides: &[(usize, usize)],
    mode: PaddingMode,
    value: f64,
) -> Result<RawTensor<Cpu>> {
    let mode = match mode {
        PaddingMode::Zeros => PadMode::Constant(value),
        PaddingMode::Reflect => PadMode::Reflect,
        PaddingMode::Replicate => PadMode::Replicate,
        PaddingMode::Circular => PadMode::Circular,
    };
    pad_dims(x, dims, sides, mode)
}

impl TensorRef<'_, Cpu> {
    /// `torch.nn.functional.pad(x, pad, mode, value)`: `pad` lists
    /// `(before, after)` amounts from the last dim backwards, as PyTorch's
    /// flat `(left, right, top, bottom, ...)`.
    ///
    /// # Errors
    /// PyTorch's: an odd or too long `pad`, reflected padding not smaller
    /// than its dim, circular padding that wraps more than once.
    ///
    /// ```
    /// use axial_core::nn::PadMode;
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0], &[1, 3])?;
    /// let r = x.view().pad(&[2, 1], PadMode::Reflect)?;
    /// assert_eq!(r.to_vec::<f32>()?, vec![3.0, 2.0, 1.0, 2.0, 3.0, 2.0]);
    /// let c = x.view().pad(&[1, 1], PadMode::Circular)?;
    /// assert_eq!(c.to_vec::<f32>()?, vec![3.0, 1.0, 2.0, 3.0, 1.0]);
    /// let k = x.view().pad(&[0, 0, 1, 0], PadMode::Constant(9.0))?; // a row before
    /// assert_eq!(k.to_vec::<f32>()?, vec![9.0, 9.0, 9.0, 1.0, 2.0, 3.0]);
    /// assert!(x.view().pad(&[3, 0], PadMode::Reflect).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn pad(&self, pad: &[usize], mode: PadMode) -> Result<RawTensor<Cpu>> {
        let op = "pad";
        if !pad.len().is_multiple_of(2) {
            return Err(Error::invalid(op, "Padding length must be divisible by 2"));
        }
        if pad.len() / 2 > self.dim() {
            return Err(Error::invalid(op, "Padding length too large"));
        }
        let k = pad.len() / 2;
        let dims: Vec<usize> = (0..k).map(|i| self.dim() - 1 - i).collect();
        let sides: Vec<(usize, usize)> = (0..k).map(|i| (pad[2 * i], pad[2 * i + 1])).collect();
        pad_dims(self, &dims, &sides, mode)
    }
}
