//! `F.unfold` and `F.fold`: the sliding blocks of a 2-d image as the
//! columns of a matrix (`im2col`), and their sum back into an image
//! (`col2im`), for users who write their own convolutions.

use super::alloc::{alloc, output};
use super::conv::{as_dtype, compute_dtype, or_view};
use super::window::{conv_out_len, not_positive};
use crate::cpu::conv::transposed::{Patches, col2im, im2col};
use crate::{Cpu, Error, Layout, RawTensor, Result, TensorRef};

/// The window of `unfold` and `fold`: kernel, dilation, padding and
/// stride of each of the two spatial dims.
///
/// ```
/// use axial_core::nn::Blocks;
/// let b = Blocks::new([3, 3]).stride([2, 2]).padding([1, 1]);
/// assert_eq!((b.kernel, b.stride, b.padding, b.dilation), ([3, 3], [2, 2], [1, 1], [1, 1]));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Blocks {
    /// The block's size.
    pub kernel: [usize; 2],
    /// The step between a block's elements.
    pub dilation: [usize; 2],
    /// Zeros on both sides.
    pub padding: [usize; 2],
    /// The step between blocks.
    pub stride: [usize; 2],
}

impl Blocks {
    /// Blocks of `kernel`, stride 1, no padding, dilation 1.
    ///
    /// ```
    /// # use axial_core::nn::Blocks;
    /// assert_eq!(Blocks::new([2, 3]).stride, [1, 1]);
    /// ```
    pub fn new(kernel: [usize; 2]) -> Self {
        Blocks {
            kernel,
            dilation: [1, 1],
            padding: [0, 0],
            stride: [1, 1],
        }
    }

    /// With `dilation`.
    ///
    /// ```
    /// # use axial_core::nn::Blocks;
    /// assert_eq!(Blocks::new([2, 2]).dilation([2, 1]).dilation, [2, 1]);
    /// ```
    pub fn dilation(mut self, dilation: [usize; 2]) -> Self {
        self.dilation = dilation;
        self
    }

    /// With `padding`.
    ///
    /// ```
    /// # use axial_core::nn::Blocks;
    /// assert_eq!(Blocks::new([2, 2]).padding([1, 0]).padding, [1, 0]);
    /// ```
    pub fn padding(mut self, padding: [usize; 2]) -> Self {
        self.padding = padding;
        self
    }

    /// With `stride`.
    ///
    /// ```
    /// # use axial_core::nn::Blocks;
    /// assert_eq!(Blocks::new([2, 2]).stride([2, 2]).stride, [2, 2]);
    /// ```
    pub fn stride(mut self, stride: [usize; 2]) -> Self {
        self.stride = stride;
        self
    }

    /// PyTorch's checks of the window's values.
    fn check(&self, op: &'static str) -> Result<()> {
        let pair =
            |what: &str, v: [usize; 2]| format!("{what}_height: {} {what}_width: {}", v[0], v[1]);
        if self.kernel.contains(&0) {
            return Err(Error::invalid(
                op,
                not_positive("kernel size", " ", pair("kernel", self.kernel)),
            ));
        }
        if self.dilation.contains(&0) {
            return Err(Error::invalid(
                op,
                not_positive("dilation", " ", pair("dilation", self.dilation)),
            ));
        }
        if self.stride.contains(&0) {
            return Err(Error::invalid(
                op,
                not_positive("stride", " ", pair("stride", self.stride)),
            ));
        }
        Ok(())
    }

    /// The number of blocks along each dim of an `[h, w]` image (signed:
    /// PyTorch reports negative counts).
    fn count(&self, size: [usize; 2]) -> [i64; 2] {
        std::array::from_fn(|d| {
            let (p, k, dil, s) = (
                self.padding[d],
                self.kernel[d],
                self.dilation[d],
                self.stride[d],
            );
            match conv_out_len(size[d], k, s, dil, (p, p)) {
                Some(n) => n as i64,
                None => {
                    (size[d] as i64 + 2 * p as i64 - (dil as i64 * (k as i64 - 1) + 1))
                        .div_euclid(s as i64)
                        + 1
                }
            }
        })
    }

    fn patches(&self) -> ([usize; 2], [usize; 2], [usize; 2], [usize; 2]) {
        (self.kernel, self.stride, self.dilation, self.padding)
    }
}

fn tuple(v: [usize; 2]) -> String {
    format!("({}, {})", v[0], v[1])
}

impl TensorRef<'_, Cpu> {
    /// `F.unfold(x, kernel_size, dilation, padding, stride)`: `[N, C, H,
    /// W]` (or `[C, H, W]`) to `[N, C·kh·kw, L]`, each column one block
    /// (zeros in the padding), `L` the number of blocks.
    ///
    /// # Errors
    /// PyTorch's: another rank, an empty non-batch dim, a zero kernel,
    /// stride or dilation, no block at all.
    ///
    /// ```
    /// use axial_core::nn::Blocks;
    /// use axial_core::RawTensor;
    /// let x = RawTensor::arange(0.0, 9.0, 1.0, axial_core::DType::F32)?;
    /// let x = x.view().view(&[1, 1, 3, 3])?;
    /// let cols = x.unfold_blocks(&Blocks::new([2, 2]))?;
    /// assert_eq!(cols.shape(), &[1, 4, 4]);
    /// // The first block is [[0, 1], [3, 4]]: the first column.
    /// assert_eq!(cols.view().select(2, 0)?.to_vec::<f32>()?, vec![0.0, 1.0, 3.0, 4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unfold_blocks(&self, blocks: &Blocks) -> Result<RawTensor<Cpu>> {
        let op = "unfold";
        let shape = self.shape();
        let rank = shape.len();
        let batched = rank == 4;
        if !(rank == 3 || rank == 4) || shape.iter().skip(usize::from(batched)).any(|&s| s == 0) {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: {shape:?}"
                ),
            ));
        }
        blocks.check(op)?;
        let size = [shape[rank - 2], shape[rank - 1]];
        let count = blocks.count(size);
        if count.iter().any(|&c| c < 1) {
            return Err(Error::invalid(
                op,
                format!(
                    "Given input with spatial size {}, kernel_size={}, dilation={}, padding={}, calculated shape of the array of sliding blocks as ({}, {}), but its components must be at least one.",
                    tuple(size),
                    tuple(blocks.kernel),
                    tuple(blocks.dilation),
                    tuple(blocks.padding),
                    count[0],
                    count[1]
                ),
            ));
        }
        let dtype = compute_dtype(self.dtype()).ok_or(Error::Unsupported {
            op,
            dtype: self.dtype(),
        })?;
        let x = if batched {
            self.clone()
        } else {
            self.clone().unsqueeze(0)?
        };
        let widened = as_dtype(&x, dtype)?;
        let x = or_view(&widened, &x);
        let (n, c) = (x.shape()[0], x.shape()[1]);
        let out = [count[0] as usize, count[1] as usize];
        let mut y = alloc(
            Layout::contiguous(&[n, c * blocks.kernel[0] * blocks.kernel[1], out[0] * out[1]]),
            dtype,
        )?;
        let (k, s, d, p) = blocks.patches();
        im2col(
            x.input(),
            output(&mut y),
            &Patches {
                kernel: &k,
                stride: &s,
                dilation: &d,
                pad: &p,
            },
            &out,
        )?;
        let y = if dtype == self.dtype() {
            y
        } else {
            y.view().to_dtype(self.dtype())?
        };
        if batched {
            Ok(y)
        } else {
            let (storage, layout, dtype) = y.into_parts();
            RawTensor::from_parts(storage, layout.select(0, 0)?, dtype)
        }
    }

    /// `F.fold(x, output_size, kernel_size, dilation, padding, stride)`:
    /// `[N, C·kh·kw, L]` (or `[C·kh·kw, L]`) to `[N, C, H, W]`, each
    /// column's block added where it lies (overlaps sum).
    ///
    /// # Errors
    /// PyTorch's: another rank, an empty dim, a channel count not a
    /// multiple of the kernel's, a number of columns other than the number
    /// of blocks of `output_size`.
    ///
    /// ```
    /// use axial_core::nn::Blocks;
    /// use axial_core::{DType, RawTensor};
    /// let x = RawTensor::from_vec(vec![1.0f32; 1 * 4 * 4], &[1, 4, 4])?;
    /// let y = x.view().fold_blocks([3, 3], &Blocks::new([2, 2]))?;
    /// // The centre is in all four blocks, the corners in one.
    /// assert_eq!(y.to_vec::<f32>()?, vec![1.0, 2.0, 1.0, 2.0, 4.0, 2.0, 1.0, 2.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn fold_blocks(&self, output_size: [usize; 2], blocks: &Blocks) -> Result<RawTensor<Cpu>> {
        let op = "fold";
        let shape = self.shape();
        let rank = shape.len();
        let batched = rank == 3;
        if !(rank == 2 || rank == 3) || shape.iter().skip(usize::from(batched)).any(|&s| s == 0) {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: {shape:?}"
                ),
            ));
        }
        blocks.check(op)?;
        let taps = blocks.kernel[0] * blocks.kernel[1];
        let (rows, cols) = (shape[rank - 2], shape[rank - 1]);
        if rows % taps != 0 {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)={rows} and kernel_size={}.",
                    tuple(blocks.kernel)
                ),
            ));
        }
        let count = blocks.count(output_size);
        if count.iter().any(|&c| c < 1) {
            return Err(Error::invalid(
                op,
                format!(
                    "Given output_size={}, kernel_size={}, dilation={}, padding={}, stride={}, calculated shape of the array of sliding blocks as ({}, {}), which is too small (non-positive)",
                    tuple(output_size),
                    tuple(blocks.kernel),
                    tuple(blocks.dilation),
                    tuple(blocks.padding),
                    tuple(blocks.stride),
                    count[0],
                    count[1]
                ),
            ));
        }
        let total = (count[0] * count[1]) as usize;
        if cols != total {
            return Err(Error::invalid(
                op,
                format!(
                    "Given output_size={}, kernel_size={}, dilation={}, padding={}, stride={}, expected size of input's dimension 2 to match the calculated number of sliding blocks {} * {} = {total}, but got input.size(2)={cols}.",
                    tuple(output_size),
                    tuple(blocks.kernel),
                    tuple(blocks.dilation),
                    tuple(blocks.padding),
                    tuple(blocks.stride),
                    count[0],
                    count[1]
                ),
            ));
        }
        let dtype = compute_dtype(self.dtype()).ok_or(Error::Unsupported {
            op,
            dtype: self.dtype(),
        })?;
        let x = if batched {
            self.clone()
        } else {
            self.clone().unsqueeze(0)?
        };
        let x = x.to_dtype(dtype)?;
        let x = if x.layout().is_contiguous() {
            x
        } else {
            x.view().to_contiguous()?
        };
        let n = x.shape()[0];
        let mut y = alloc(
            Layout::contiguous(&[n, rows / taps, output_size[0], output_size[1]]),
            dtype,
        )?;
        let (k, s, d, p) = blocks.patches();
        let grid = [count[0] as usize, count[1] as usize];
        col2im(
            x.view().input(),
            output(&mut y),
            &Patches {
                kernel: &k,
                stride: &s,
                dilation: &d,
                pad: &p,
            },
            &grid,
        )?;
        let y = if dtype == self.dtype() {
            y
        } else {
            y.view().to_dtype(self.dtype())?
        };
        if batched {
            Ok(y)
        } else {
            let (storage, layout, dtype) = y.into_parts();
            RawTensor::from_parts(storage, layout.select(0, 0)?, dtype)
        }
    }
}
