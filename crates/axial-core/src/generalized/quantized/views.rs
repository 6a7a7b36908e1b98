//! Views of quantized tensors: the dense view ops on the integers, with the
//! quantizer carried along. A per-channel tensor's channel axis follows the
//! view (PyTorch refuses most views of per-channel tensors: "Setting strides
//! is possible only on uniformly quantized tensor"); selecting one channel
//! leaves a per-tensor view with that channel's parameters.

use std::sync::Arc;

use super::{QuantizedRef, Quantizer};
use crate::layout::wrap_dim;
use crate::{Error, Layout, Result};

/// A per-channel quantizer's axis, scales and zero points.
type Channels<'q> = (usize, &'q Arc<[f64]>, &'q Arc<[i64]>);

impl<'a> QuantizedRef<'a> {
    /// The same bytes with the integers' view `op` and the quantizer `q`.
    fn with(
        self,
        op: impl FnOnce(crate::TensorRef<'a, crate::Cpu>) -> Result<crate::TensorRef<'a, crate::Cpu>>,
        q: Quantizer,
    ) -> Result<Self> {
        Ok(QuantizedRef {
            repr: op(self.repr)?,
            qdtype: self.qdtype,
            quantizer: q,
        })
    }

    /// The channel axis and parameters, when per channel.
    fn channels(&self) -> Option<Channels<'_>> {
        match &self.quantizer {
            Quantizer::PerChannel {
                scales,
                zero_points,
                axis,
            } => Some((*axis, scales, zero_points)),
            Quantizer::PerTensor { .. } => None,
        }
    }

    /// The quantizer with the channel axis moved to `axis`.
    fn moved(&self, axis: usize) -> Quantizer {
        match &self.quantizer {
            Quantizer::PerChannel {
                scales,
                zero_points,
                ..
            } => Quantizer::PerChannel {
                scales: scales.clone(),
                zero_points: zero_points.clone(),
                axis,
            },
            q => q.clone(),
        }
    }

    /// The quantizer keeping the channels `picked` (indices into the old
    /// ones), at the same axis.
    fn picked(&self, picked: impl Iterator<Item = usize>) -> Quantizer {
        match &self.quantizer {
            Quantizer::PerChannel {
                scales,
                zero_points,
                axis,
            } => {
                let (s, z): (Vec<f64>, Vec<i64>) =
                    picked.map(|c| (scales[c], zero_points[c])).unzip();
                Quantizer::PerChannel {
                    scales: s.into(),
                    zero_points: z.into(),
                    axis: *axis,
                }
            }
            q => q.clone(),
        }
    }

    /// `x.transpose(d0, d1)`.
    ///
    /// # Errors
    /// A dim out of range.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_channel};
    /// let x = RawTensor::zeros(&[2, 3, 4], axial_core::DType::F32)?;
    /// let q = quantize_per_channel(&x.view(), &[0.1, 0.2, 0.3], &[0, 1, 2], 1, QDType::QInt8)?;
    /// let t = q.view().transpose(1, 2)?;
    /// assert_eq!((t.shape(), t.q_per_channel_axis()?), (&[2, 4, 3][..], 2));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn transpose(self, d0: isize, d1: isize) -> Result<Self> {
        let rank = self.shape().len();
        let (a, b) = (wrap_dim(d0, rank)?, wrap_dim(d1, rank)?);
        let q = match self.channels() {
            Some((axis, ..)) if axis == a => self.moved(b),
            Some((axis, ..)) if axis == b => self.moved(a),
            _ => self.quantizer.clone(),
        };
        self.with(|r| r.transpose(d0, d1), q)
    }

    /// `x.t()` (rank 2 or less).
    ///
    /// # Errors
    /// A rank above 2.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_tensor};
    /// let x = RawTensor::zeros(&[3, 4], axial_core::DType::F32)?;
    /// let q = quantize_per_tensor(&x.view(), 0.1, 3, QDType::QUInt8)?;
    /// assert_eq!(q.view().t()?.strides(), &[1, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn t(self) -> Result<Self> {
        let q = match self.channels() {
            Some((axis, ..)) if self.shape().len() == 2 => self.moved(1 - axis),
            _ => self.quantizer.clone(),
        };
        self.with(|r| r.t(), q)
    }

    /// `x.permute(dims)`.
    ///
    /// # Errors
    /// `dims` is not a permutation of the dims.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_channel};
    /// let x = RawTensor::zeros(&[2, 3, 4], axial_core::DType::F32)?;
    /// let q = quantize_per_channel(&x.view(), &[0.1, 0.2, 0.3], &[0, 1, 2], 1, QDType::QInt8)?;
    /// assert_eq!(q.view().permute(&[2, 0, 1])?.q_per_channel_axis()?, 2);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn permute(self, dims: &[isize]) -> Result<Self> {
        let rank = self.shape().len();
        let q = match self.channels() {
            Some((axis, ..)) => {
                let mut to = None;
                for (i, &d) in dims.iter().enumerate() {
                    if wrap_dim(d, rank)? == axis {
                        to = Some(i);
                    }
                }
                self.moved(to.unwrap_or(axis))
            }
            None => self.quantizer.clone(),
        };
        self.with(|r| r.permute(dims), q)
    }

    /// `x.select(dim, index)`; selecting one channel of a per-channel tensor
    /// gives a per-tensor view with that channel's scale and zero point.
    ///
    /// # Errors
    /// A dim or index out of range.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, QScheme, quantize_per_channel};
    /// let x = RawTensor::zeros(&[2, 3, 4], axial_core::DType::F32)?;
    /// let q = quantize_per_channel(&x.view(), &[0.1, 0.2, 0.3], &[0, 1, 2], 1, QDType::QInt8)?;
    /// let one = q.view().select(1, 1)?;
    /// assert_eq!((one.qscheme(), one.q_scale()?, one.q_zero_point()?), (QScheme::PerTensorAffine, 0.2, 1));
    /// assert_eq!(q.view().select(0, 1)?.q_per_channel_axis()?, 0);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn select(self, dim: isize, index: isize) -> Result<Self> {
        let rank = self.shape().len();
        let d = wrap_dim(dim, rank)?;
        // The integers' select checks the index; its result says which one.
        let repr = self.repr.clone().select(dim, index)?;
        let q = match self.channels() {
            Some((axis, scales, zero_points)) if axis == d => {
                let size = self.shape()[d] as isize;
                let c = if index < 0 { index + size } else { index } as usize;
                Quantizer::PerTensor {
                    scale: scales[c],
                    zero_point: zero_points[c],
                }
            }
            Some((axis, ..)) if d < axis => self.moved(axis - 1),
            _ => self.quantizer.clone(),
        };
        self.with(|_| Ok(repr), q)
    }

    /// `x.narrow(dim, start, length)`; on the channel axis, the channels kept.
    ///
    /// # Errors
    /// As the dense `narrow`.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_channel};
    /// let x = RawTensor::zeros(&[2, 3, 4], axial_core::DType::F32)?;
    /// let q = quantize_per_channel(&x.view(), &[0.1, 0.2, 0.3], &[0, 1, 2], 1, QDType::QInt8)?;
    /// let n = q.view().narrow(1, 1, 2)?;
    /// assert_eq!(n.q_per_channel_scales()?.to_vec::<f64>()?, vec![0.2, 0.3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn narrow(self, dim: isize, start: isize, length: usize) -> Result<Self> {
        self.sliced(
            dim,
            |l| l.narrow(0, start, length),
            |r| r.narrow(dim, start, length),
        )
    }

    /// `x[start:end:step]` along `dim`; on the channel axis, the channels kept.
    ///
    /// # Errors
    /// As the dense `slice`.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_channel};
    /// let x = RawTensor::zeros(&[4, 2], axial_core::DType::F32)?;
    /// let q = quantize_per_channel(&x.view(), &[0.1, 0.2, 0.3, 0.4], &[0, 1, 2, 3], 0, QDType::QInt8)?;
    /// let s = q.view().slice(0, None, None, 2)?; // x[::2]
    /// assert_eq!(s.q_per_channel_zero_points()?.to_vec::<i64>()?, vec![0, 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn slice(
        self,
        dim: isize,
        start: Option<isize>,
        end: Option<isize>,
        step: isize,
    ) -> Result<Self> {
        self.sliced(
            dim,
            |l| l.slice(0, start, end, step),
            |r| r.slice(dim, start, end, step),
        )
    }

    /// A view op along one dim; on the channel axis, `on_channels` applied
    /// to the channels' own layout says which channels stay.
    fn sliced(
        self,
        dim: isize,
        on_channels: impl FnOnce(&Layout) -> Result<Layout>,
        op: impl FnOnce(crate::TensorRef<'a, crate::Cpu>) -> Result<crate::TensorRef<'a, crate::Cpu>>,
    ) -> Result<Self> {
        let d = wrap_dim(dim, self.shape().len())?;
        let repr = op(self.repr.clone())?;
        let q = match self.channels() {
            Some((axis, scales, _)) if axis == d => {
                let kept = on_channels(&Layout::contiguous(&[scales.len()]))?;
                let (offset, step) = (kept.offset(), kept.strides()[0]);
                let count = kept.shape()[0];
                self.picked((0..count).map(|i| (offset as isize + i as isize * step) as usize))
            }
            _ => self.quantizer.clone(),
        };
        self.with(|_| Ok(repr), q)
    }

    /// `x.unsqueeze(dim)`.
    ///
    /// # Errors
    /// A dim out of range.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_channel};
    /// let x = RawTensor::zeros(&[2, 3, 4], axial_core::DType::F32)?;
    /// let q = quantize_per_channel(&x.view(), &[0.1, 0.2, 0.3], &[0, 1, 2], 1, QDType::QInt8)?;
    /// assert_eq!(q.view().unsqueeze(0)?.q_per_channel_axis()?, 2);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unsqueeze(self, dim: isize) -> Result<Self> {
        let d = wrap_dim(dim, self.shape().len() + 1)?;
        let q = match self.channels() {
            Some((axis, ..)) if d <= axis => self.moved(axis + 1),
            _ => self.quantizer.clone(),
        };
        self.with(|r| r.unsqueeze(dim), q)
    }

    /// `x.expand(sizes)`: a read-only broadcast view (stride 0 on the new
    /// and the expanded dims). A channel axis of size 1 expanded to `n`
    /// repeats its one channel's parameters.
    ///
    /// # Errors
    /// As the dense `expand`.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_tensor};
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?;
    /// let q = quantize_per_tensor(&x.view(), 0.5, 0, QDType::QInt8)?;
    /// assert_eq!(q.view().expand(&[3, 2])?.strides(), &[0, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn expand(self, sizes: &[isize]) -> Result<Self> {
        let repr = self.repr.expand(sizes)?;
        let q = match self.channels() {
            Some((axis, ..)) => {
                let new_axis = axis + (sizes.len() - self.shape().len());
                let (before, after) = (self.shape()[axis], repr.shape()[new_axis]);
                let mut q = self.moved(new_axis);
                if before == 1 && after != 1 {
                    q = self.picked(std::iter::repeat_n(0, after));
                    if let Quantizer::PerChannel { axis, .. } = &mut q {
                        *axis = new_axis;
                    }
                }
                q
            }
            None => self.quantizer.clone(),
        };
        self.with(|_| Ok(repr), q)
    }

    /// `x.view(shape)`: a view of another shape (no copy). A per-channel
    /// tensor's channel axis must stay a dim of the new shape, with the
    /// same number of elements before it.
    ///
    /// # Errors
    /// As the dense `view`; the channel axis does not survive the new shape.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// use axial_core::quantized::{QDType, quantize_per_channel};
    /// let x = RawTensor::zeros(&[2, 3, 4], axial_core::DType::F32)?;
    /// let q = quantize_per_channel(&x.view(), &[0.1, 0.2, 0.3], &[0, 1, 2], 1, QDType::QInt8)?;
    /// assert_eq!(q.view().view(&[2, 3, 2, 2])?.q_per_channel_axis()?, 1);
    /// assert!(q.view().view(&[2, 12]).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn view(self, shape: &[isize]) -> Result<Self> {
        let repr = self.repr.clone().view(shape)?;
        let q = match self.channels() {
            Some((axis, scales, _)) => {
                let before: usize = self.shape()[..axis].iter().product();
                let new = repr.shape();
                let found = (0..new.len()).find(|&j| {
                    new[j] == scales.len() && new[..j].iter().product::<usize>() == before
                });
                match found {
                    Some(j) => self.moved(j),
                    None => {
                        return Err(Error::invalid(
                            "view",
                            format!(
                                "the channel axis {axis} ({} channels) of a per-channel quantized tensor of shape {:?} is not a dim of the shape {new:?}",
                                scales.len(),
                                self.shape()
                            ),
                        ));
                    }
                }
            }
            None => self.quantizer.clone(),
        };
        self.with(|_| Ok(repr), q)
    }
}
