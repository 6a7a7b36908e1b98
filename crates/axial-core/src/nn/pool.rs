//! Max, average and adaptive pooling over one to three spatial dims, by
//! position (`F.max_pool2d` on `[N, C, H, W]`) or by dims (any layout),
//! with PyTorch's output sizes (`ceil_mode`: the last window starts inside
//! the input) and checks.

use super::alloc::{alloc, alloc_on, conv_output_layout, output};
use super::conv::ConvAxes;
use super::window::{PerDim, joined, not_positive, pool_out_len};
use crate::cpu::conv::pool;
use crate::ops::{PoolArgs, PoolReduction};
use crate::{Backend, Cpu, DType, Error, RawTensor, Result, TensorRef};

/// A pooling's hyper-parameters, as `F.max_pool2d` and `F.avg_pool2d`
/// take them: each per-dim value is one number for every pooled dim or one
/// per dim.
///
/// ```
/// use axial_core::nn::PoolOptions;
/// let o = PoolOptions::new(&[3]).stride(&[2]).padding(&[1]).ceil_mode(true);
/// assert_eq!((o.kernel.as_slice(), o.ceil_mode), (&[3][..], true));
/// assert!(PoolOptions::new(&[2]).stride.is_empty()); // the kernel's size
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolOptions {
    /// The window's size.
    pub kernel: Vec<usize>,
    /// The step between windows; empty: the kernel size.
    pub stride: Vec<usize>,
    /// Implicit padding on both sides (−∞ for max pooling, zeros counted
    /// or not for averages).
    pub padding: Vec<usize>,
    /// The step between a window's taps (max pooling).
    pub dilation: Vec<usize>,
    /// Round output lengths up, keeping a last window that starts inside
    /// the input or its left padding.
    pub ceil_mode: bool,
    /// Averages divide by the window's size with its padding.
    pub count_include_pad: bool,
    /// Averages divide by this instead.
    pub divisor_override: Option<usize>,
}

impl PoolOptions {
    /// A window of `kernel` (PyTorch's defaults otherwise: stride the
    /// kernel, no padding, dilation 1, floor mode, padding counted).
    ///
    /// ```
    /// # use axial_core::nn::PoolOptions;
    /// assert_eq!(PoolOptions::new(&[2, 2]).padding, vec![0]);
    /// ```
    pub fn new(kernel: &[usize]) -> Self {
        PoolOptions {
            kernel: kernel.to_vec(),
            stride: Vec::new(),
            padding: vec![0],
            dilation: vec![1],
            ceil_mode: false,
            count_include_pad: true,
            divisor_override: None,
        }
    }

    /// With `stride`.
    ///
    /// ```
    /// # use axial_core::nn::PoolOptions;
    /// assert_eq!(PoolOptions::new(&[3]).stride(&[1]).stride, vec![1]);
    /// ```
    pub fn stride(mut self, stride: &[usize]) -> Self {
        self.stride = stride.to_vec();
        self
    }

    /// With `padding`.
    ///
    /// ```
    /// # use axial_core::nn::PoolOptions;
    /// assert_eq!(PoolOptions::new(&[3]).padding(&[1]).padding, vec![1]);
    /// ```
    pub fn padding(mut self, padding: &[usize]) -> Self {
        self.padding = padding.to_vec();
        self
    }

    /// With `dilation`.
    ///
    /// ```
    /// # use axial_core::nn::PoolOptions;
    /// assert_eq!(PoolOptions::new(&[3]).dilation(&[2]).dilation, vec![2]);
    /// ```
    pub fn dilation(mut self, dilation: &[usize]) -> Self {
        self.dilation = dilation.to_vec();
        self
    }

    /// With `ceil_mode`.
    ///
    /// ```
    /// # use axial_core::nn::PoolOptions;
    /// assert!(PoolOptions::new(&[3]).ceil_mode(true).ceil_mode);
    /// ```
    pub fn ceil_mode(mut self, ceil_mode: bool) -> Self {
        self.ceil_mode = ceil_mode;
        self
    }

    /// With `count_include_pad`.
    ///
    /// ```
    /// # use axial_core::nn::PoolOptions;
    /// assert!(!PoolOptions::new(&[3]).count_include_pad(false).count_include_pad);
    /// ```
    pub fn count_include_pad(mut self, count: bool) -> Self {
        self.count_include_pad = count;
        self
    }

    /// With `divisor_override`.
    ///
    /// ```
    /// # use axial_core::nn::PoolOptions;
    /// assert_eq!(PoolOptions::new(&[3]).divisor_override(Some(2)).divisor_override, Some(2));
    /// ```
    pub fn divisor_override(mut self, divisor: Option<usize>) -> Self {
        self.divisor_override = divisor;
        self
    }
}

/// What kind of pooling, for the checks and messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Max,
    Avg,
}

/// A pooling's checked parameters.
struct PoolPlan {
    kernel: PerDim<usize>,
    stride: PerDim<usize>,
    pad: PerDim<usize>,
    dilation: PerDim<usize>,
    out_shape: Vec<usize>,
}

fn words(n: usize) -> &'static str {
    ["one", "two", "three"][n.clamp(1, 3) - 1]
}

/// The per-dim value list `v` for `n` dims.
fn spread(
    op: &'static str,
    what: &str,
    v: &[usize],
    n: usize,
    positional: bool,
) -> Result<PerDim<usize>> {
    match v.len() {
        1 => Ok(std::iter::repeat_n(v[0], n).collect()),
        len if len == n => Ok(v.iter().copied().collect()),
        _ if positional => Err(Error::invalid(
            op,
            format!(
                "{op}: {what} must either be a single int, or a tuple of {} ints",
                words(n)
            ),
        )),
        _ => Err(Error::invalid(
            op,
            format!(
                "expected {what} to be a single value or a list of {n} values, but got {what}={v:?}"
            ),
        )),
    }
}

/// `kH: a kW: b` as PyTorch's 2-d (`H`, `W`) and 3-d (`T`, `H`, `W`)
/// pooling messages name them; 1-d poolings run as 2-d ones of height 1.
fn letters(prefix: &str, v: &[usize]) -> String {
    let v: Vec<usize> = if v.len() == 1 {
        vec![1, v[0]]
    } else {
        v.to_vec()
    };
    let names: &[&str] = if v.len() == 2 {
        &["H", "W"]
    } else {
        &["T", "H", "W"]
    };
    names
        .iter()
        .zip(&v)
        .map(|(n, x)| format!("{prefix}{n}: {x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Max pooling's second padding check, on the kernel without its dilation
/// (PyTorch's `pool2d_shape_check` and `pool3d_shape_check`).
fn half_kernel(kernel: &[usize], pad: &[usize]) -> Option<String> {
    if kernel.iter().zip(pad).all(|(&k, &p)| k / 2 >= p) {
        return None;
    }
    let head = "pad should be smaller than or equal to half of kernel size, but got";
    Some(match kernel.len() {
        1 => format!(
            "{head} padW = {}, padH = 0, kW = {}, kH = 1",
            pad[0], kernel[0]
        ),
        2 => format!(
            "{head} padW = {}, padH = {}, kW = {}, kH = {}",
            pad[1], pad[0], kernel[1], kernel[0]
        ),
        _ => format!(
            "{head} kT: {} kW: {} kH: {} padT: {} padW: {} padH: {}",
            kernel[0], kernel[2], kernel[1], pad[0], pad[2], pad[1]
        ),
    })
}

/// Checks and sizes a pooling of `x`'s dims `spatial`, in PyTorch's order.
fn plan(
    op: &'static str,
    x: &[usize],
    spatial: &[usize],
    o: &PoolOptions,
    kind: Kind,
    positional: bool,
) -> Result<PoolPlan> {
    let n = spatial.len();
    let bad = |m: String| Err(Error::invalid(op, m));
    let kernel = spread(op, "kernel_size", &o.kernel, n, positional)?;
    let stride = if o.stride.is_empty() {
        kernel.clone()
    } else {
        spread(op, "stride", &o.stride, n, positional)?
    };
    let pad = spread(op, "padding", &o.padding, n, positional)?;
    let dilation = if kind == Kind::Avg {
        std::iter::repeat_n(1, n).collect()
    } else {
        spread(op, "dilation", &o.dilation, n, positional)?
    };
    if o.divisor_override == Some(0) {
        return bad("divisor must be not zero".into());
    }
    let mut sizes: PerDim<i64> = PerDim::new();
    for d in 0..n {
        if stride[d] == 0 {
            return bad("stride should not be zero".into());
        }
        let k = kernel[d];
        if (pad[d] as i64) > ((k as i64 - 1) * dilation[d] as i64 + 1) / 2 {
            return bad(format!(
                "pad should be at most half of effective kernel size, but got pad={}, kernel_size={k} and dilation={}",
                pad[d], dilation[d]
            ));
        }
        sizes.push(pool_out_len(
            x[spatial[d]],
            k,
            pad[d],
            stride[d],
            dilation[d],
            o.ceil_mode,
        ));
    }
    if kernel.contains(&0) {
        return bad(not_positive("kernel size", " ", letters("k", &kernel)));
    }
    if dilation.contains(&0) {
        return bad(not_positive(
            "dilation",
            " ",
            letters("dilation", &dilation),
        ));
    }
    if let Some(d) = spatial.iter().find(|&&d| x[d] == 0) {
        return bad(format!(
            "Expected input to have non-zero size for non-batch dimensions, but input has sizes {x:?} with dimension {d} being empty"
        ));
    }
    if positional && kind == Kind::Avg && n == 3 && (0..3).any(|d| x[spatial[d]] < kernel[d]) {
        let i: Vec<usize> = spatial.iter().map(|&d| x[d]).collect();
        return bad(format!(
            "input image (T: {} H: {} W: {}) smaller than kernel size (kT: {} kH: {} kW: {})",
            i[0], i[1], i[2], kernel[0], kernel[1], kernel[2]
        ));
    }
    if kind == Kind::Max
        && let Some(m) = half_kernel(&kernel, &pad)
    {
        return bad(m);
    }
    if sizes.iter().any(|&s| s < 1) {
        let planes: usize = if positional && x.len() > n {
            x[x.len() - n - 1]
        } else {
            1
        };
        let mut input: Vec<usize> = spatial.iter().map(|&d| x[d]).collect();
        let mut out: Vec<i64> = sizes.to_vec();
        if n == 1 && positional {
            // 1-d poolings run as 2-d ones of height 1.
            input.insert(0, 1);
            out.insert(0, 1);
        }
        let input: Vec<usize> = std::iter::once(planes).chain(input).collect();
        let out: Vec<i64> = std::iter::once(planes as i64).chain(out).collect();
        return bad(format!(
            "Given input size: ({}). Calculated output size: ({}). Output size is too small",
            joined(&input, "x"),
            joined(&out, "x")
        ));
    }
    let mut out_shape = x.to_vec();
    for d in 0..n {
        out_shape[spatial[d]] = sizes[d] as usize;
    }
    Ok(PoolPlan {
        kernel,
        stride,
        pad,
        dilation,
        out_shape,
    })
}

/// The innermost non-pooled dim when it has stride 1 (pooling vectorises
/// over it), as the channel dim.
fn channel_of<D: Backend>(x: &TensorRef<'_, D>, spatial: &[usize]) -> Option<usize> {
    (0..x.dim())
        .filter(|d| !spatial.contains(d) && x.shape()[*d] > 1)
        .min_by_key(|&d| x.strides()[d])
}

/// The dtype pooling computes in.
fn compute(op: &'static str, dtype: DType) -> Result<DType> {
    super::conv::compute_dtype(dtype).ok_or(Error::Unsupported { op, dtype })
}

impl<D: Backend> TensorRef<'_, D> {
    fn pooled(
        &self,
        op: &'static str,
        spatial: &[usize],
        o: &PoolOptions,
        kind: Kind,
        indices: bool,
        positional: bool,
    ) -> Result<(RawTensor<D>, Option<RawTensor<D>>)> {
        let dtype = compute(op, self.dtype())?;
        check_spatial(op, self.dim(), spatial)?;
        let plan = plan(op, self.shape(), spatial, o, kind, positional)?;
        let channel = channel_of(self, spatial);
        let widened = super::conv::as_dtype(self, dtype)?;
        let x = super::conv::or_view(&widened, self);
        let layout = match channel {
            Some(c) => conv_output_layout(x.layout(), &plan.out_shape, &ConvAxes::new(c, spatial)),
            None => super::alloc::like(x.layout(), &plan.out_shape),
        };
        let device = x.storage().device().clone();
        let mut out = alloc_on(&device, layout.clone(), dtype)?;
        let mut idx = if indices {
            Some(alloc_on(&device, layout, DType::I64)?)
        } else {
            None
        };
        let args = PoolArgs {
            channel,
            spatial: spatial.to_vec(),
            kernel: plan.kernel.to_vec(),
            stride: plan.stride.to_vec(),
            dilation: plan.dilation.to_vec(),
            pad: plan.pad.to_vec(),
            reduction: match kind {
                Kind::Max => PoolReduction::Max,
                Kind::Avg => PoolReduction::Avg {
                    count_include_pad: o.count_include_pad,
                    divisor: o.divisor_override,
                },
            },
        };
        device.pool(&args, x.input(), output(&mut out), idx.as_mut().map(output))?;
        let out = if dtype == self.dtype() {
            out
        } else {
            out.view().to_dtype(self.dtype())?
        };
        Ok((out, idx))
    }

    /// Max pooling over the dims `spatial` (one to three, any layout; the
    /// other dims are independent planes): each output is the largest
    /// element of its window (NaN wins), `−∞` padding.
    ///
    /// # Errors
    /// PyTorch's: padding above half the dilated kernel, an output of no
    /// element ("Output size is too small"), a zero stride, kernel or
    /// dilation, an empty pooled dim, integer tensors.
    ///
    /// ```
    /// use axial_core::nn::PoolOptions;
    /// use axial_core::RawTensor;
    /// // NHWC [1, 2, 2, 2]: rows and columns are dims 1 and 2.
    /// let x = RawTensor::from_vec(vec![1.0f32, 8.0, 2.0, 7.0, 3.0, 6.0, 4.0, 5.0], &[1, 2, 2, 2])?;
    /// let y = x.view().max_pool_axes(&[1, 2], &PoolOptions::new(&[2]))?;
    /// assert_eq!((y.shape(), y.to_vec::<f32>()?), (&[1, 1, 1, 2][..], vec![4.0, 8.0]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn max_pool_axes(&self, spatial: &[usize], options: &PoolOptions) -> Result<RawTensor<D>> {
        Ok(self
            .pooled("max_pool", spatial, options, Kind::Max, false, false)?
            .0)
    }

    /// Max pooling over the dims `spatial`, with the flat index of each
    /// maximum in its plane (`h·W + w` in 2-d; `return_indices=True`).
    ///
    /// # Errors
    /// As [`max_pool_axes`](Self::max_pool_axes).
    ///
    /// ```
    /// use axial_core::nn::PoolOptions;
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 5.0, 3.0, 2.0], &[1, 4])?;
    /// let (y, i) = x.view().max_pool_with_indices_axes(&[1], &PoolOptions::new(&[2]))?;
    /// assert_eq!((y.to_vec::<f32>()?, i.to_vec::<i64>()?), (vec![5.0, 3.0], vec![1, 2]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn max_pool_with_indices_axes(
        &self,
        spatial: &[usize],
        options: &PoolOptions,
    ) -> Result<(RawTensor<D>, RawTensor<D>)> {
        let (y, i) = self.pooled("max_pool", spatial, options, Kind::Max, true, false)?;
        Ok((
            y,
            i.ok_or_else(|| Error::invalid("max_pool", "no indices"))?,
        ))
    }

    /// Average pooling over the dims `spatial`: each output is its window's
    /// sum over the window's size with padding (`count_include_pad`),
    /// without it, or over `divisor_override`.
    ///
    /// # Errors
    /// As [`max_pool_axes`](Self::max_pool_axes), and a zero divisor.
    ///
    /// ```
    /// use axial_core::nn::PoolOptions;
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![2.0f32, 4.0, 6.0], &[1, 3])?;
    /// let o = PoolOptions::new(&[2]).padding(&[1]);
    /// assert_eq!(x.view().avg_pool_axes(&[1], &o)?.to_vec::<f32>()?, vec![1.0, 5.0]);
    /// let o = o.count_include_pad(false);
    /// assert_eq!(x.view().avg_pool_axes(&[1], &o)?.to_vec::<f32>()?, vec![2.0, 5.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn avg_pool_axes(&self, spatial: &[usize], options: &PoolOptions) -> Result<RawTensor<D>> {
        Ok(self
            .pooled("avg_pool", spatial, options, Kind::Avg, false, false)?
            .0)
    }
}

impl TensorRef<'_, Cpu> {
    /// Adaptive average pooling of the dims `spatial` to `out` positions
    /// each: output `o` of a dim of `n` averages inputs `⌊o·n/out⌋ ..
    /// ⌈(o+1)·n/out⌉`.
    ///
    /// # Errors
    /// An empty pooled dim, another number of output sizes than dims.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0], &[1, 5])?;
    /// let y = x.view().adaptive_avg_pool_axes(&[1], &[3])?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![1.5, 3.0, 4.5]);
    /// let global = x.view().adaptive_avg_pool_axes(&[1], &[1])?;
    /// assert_eq!(global.to_vec::<f32>()?, vec![3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn adaptive_avg_pool_axes(
        &self,
        spatial: &[usize],
        out: &[usize],
    ) -> Result<RawTensor<Cpu>> {
        Ok(self.adaptive("adaptive_avg_pool", spatial, out, false)?.0)
    }

    /// Adaptive max pooling of the dims `spatial` to `out` positions each,
    /// with the flat index of each maximum in its plane.
    ///
    /// # Errors
    /// As [`adaptive_avg_pool_axes`](Self::adaptive_avg_pool_axes).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 9.0, 3.0, 4.0], &[1, 4])?;
    /// let (y, i) = x.view().adaptive_max_pool_axes(&[1], &[2])?;
    /// assert_eq!((y.to_vec::<f32>()?, i.to_vec::<i64>()?), (vec![9.0, 4.0], vec![1, 3]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn adaptive_max_pool_axes(
        &self,
        spatial: &[usize],
        out: &[usize],
    ) -> Result<(RawTensor<Cpu>, RawTensor<Cpu>)> {
        let (y, i) = self.adaptive("adaptive_max_pool", spatial, out, true)?;
        Ok((
            y,
            i.ok_or_else(|| Error::invalid("adaptive_max_pool", "no indices"))?,
        ))
    }

    fn adaptive(
        &self,
        op: &'static str,
        spatial: &[usize],
        out: &[usize],
        max: bool,
    ) -> Result<(RawTensor<Cpu>, Option<RawTensor<Cpu>>)> {
        let dtype = compute(op, self.dtype())?;
        check_spatial(op, self.dim(), spatial)?;
        if out.len() != spatial.len() {
            return Err(Error::invalid(
                op,
                format!("{op}: output_size must be {}", spatial.len()),
            ));
        }
        if let Some(d) = spatial.iter().find(|&&d| self.shape()[d] == 0) {
            return Err(Error::invalid(
                op,
                format!(
                    "{op}{}d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes {:?} with dimension {d} being empty",
                    spatial.len(),
                    self.shape()
                ),
            ));
        }
        let mut shape = self.shape().to_vec();
        for (&d, &o) in spatial.iter().zip(out) {
            shape[d] = o;
        }
        let channel = channel_of(self, spatial);
        let widened = super::conv::as_dtype(self, dtype)?;
        let x = super::conv::or_view(&widened, self);
        let layout = match channel {
            Some(c) => conv_output_layout(x.layout(), &shape, &ConvAxes::new(c, spatial)),
            None => super::alloc::like(x.layout(), &shape),
        };
        let mut y = alloc(layout.clone(), dtype)?;
        let mut idx = if max {
            Some(alloc(layout, DType::I64)?)
        } else {
            None
        };
        pool::adaptive(
            x.input(),
            output(&mut y),
            idx.as_mut().map(output),
            channel,
            spatial,
            max,
        )?;
        let y = if dtype == self.dtype() {
            y
        } else {
            y.view().to_dtype(self.dtype())?
        };
        Ok((y, idx))
    }
}

/// The pooled dims are one to three distinct dims of the tensor.
fn check_spatial(op: &'static str, rank: usize, spatial: &[usize]) -> Result<()> {
    let mut seen = vec![false; rank];
    let distinct = spatial
        .iter()
        .all(|&d| d < rank && !std::mem::replace(&mut seen[d], true));
    if !distinct || spatial.is_empty() || spatial.len() > 3 {
        return Err(Error::invalid(
            op,
            format!(
                "expected one to three distinct dims of a tensor of {rank} dims to pool, got {spatial:?}"
            ),
        ));
    }
    Ok(())
}

/// The positional pooling ops: the last `n` dims of `[N, C, ...]` or
/// `[C, ...]`, with PyTorch's rank checks.
macro_rules! positional {
    ($(#[$doc:meta])* $name:ident, $n:expr, $kind:expr) => {
        $(#[$doc])*
        pub fn $name(&self, options: &PoolOptions) -> Result<RawTensor<D>> {
            let op = stringify!($name);
            positional_rank(op, $n, self.shape(), $kind == Kind::Avg)?;
            let spatial: Vec<usize> = (self.dim() - $n..self.dim()).collect();
            Ok(self.pooled(op, &spatial, options, $kind, false, true)?.0)
        }
    };
}

/// PyTorch's rank checks of the positional pooling ops.
fn positional_rank(op: &'static str, n: usize, shape: &[usize], avg: bool) -> Result<()> {
    positional_rank_of(op, n, shape, avg, true)
}

/// [`positional_rank`], with or without the check of empty dims (adaptive
/// pooling words it as its own).
fn positional_rank_of(
    op: &'static str,
    n: usize,
    shape: &[usize],
    avg: bool,
    empty_dims: bool,
) -> Result<()> {
    let rank = shape.len();
    let ok_rank = rank == n + 1 || rank == n + 2;
    if !ok_rank {
        return Err(Error::invalid(
            op,
            if n == 1 && avg {
                format!(
                    "Expected 2 to 3 dimensions, but got {rank}-dimensional tensor for argument #1 'self' (while checking arguments for {op})"
                )
            } else {
                format!(
                    "non-empty {}D or {}D (batch mode) tensor expected for input",
                    n + 1,
                    n + 2
                )
            },
        ));
    }
    let batch = rank == n + 2;
    let empty = shape
        .iter()
        .enumerate()
        .find(|&(d, &s)| s == 0 && !(batch && d == 0))
        .filter(|_| empty_dims);
    if let (Some((d, _)), 3) = (empty, n) {
        let prefix = if avg {
            "avg_pool3d()"
        } else {
            "max_pool3d_with_indices_out_cpu_template()"
        };
        return Err(Error::invalid(
            op,
            format!(
                "{prefix}: Expected input to have non-zero size for non-batch dimensions, but input has sizes {shape:?} with dimension {d} being empty"
            ),
        ));
    }
    if empty.is_some() {
        let shown: Vec<usize> = if n == 1 && avg {
            let mut s = shape.to_vec();
            s.insert(rank - 1, 1);
            s
        } else {
            shape.to_vec()
        };
        let m = if n == 1 && avg { 2 } else { n };
        return Err(Error::invalid(
            op,
            format!(
                "Expected {}D or {}D (batch mode) tensor with optional 0 dim batch size for input, but got:{shown:?}",
                m + 1,
                m + 2
            ),
        ));
    }
    Ok(())
}

impl<D: Backend> TensorRef<'_, D> {
    positional!(
        /// `F.avg_pool1d`: the last dim of `[N, C, L]` or `[C, L]`; see
        /// [`avg_pool_axes`](Self::avg_pool_axes).
        ///
        /// # Errors
        /// As [`avg_pool_axes`](Self::avg_pool_axes), and another rank.
        ///
        /// ```
        /// use axial_core::nn::PoolOptions;
        /// use axial_core::RawTensor;
        /// let x = RawTensor::from_vec(vec![1.0f32, 3.0, 5.0, 7.0], &[1, 1, 4])?;
        /// assert_eq!(x.view().avg_pool1d(&PoolOptions::new(&[2]))?.to_vec::<f32>()?, vec![2.0, 6.0]);
        /// # Ok::<(), axial_core::Error>(())
        /// ```
        avg_pool1d, 1, Kind::Avg
    );
    positional!(
        /// `F.avg_pool2d`: the last two dims of `[N, C, H, W]` or `[C, H, W]`.
        ///
        /// # Errors
        /// As [`avg_pool_axes`](Self::avg_pool_axes), and another rank.
        ///
        /// ```
        /// use axial_core::nn::PoolOptions;
        /// use axial_core::RawTensor;
        /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 6.0], &[1, 2, 2])?;
        /// assert_eq!(x.view().avg_pool2d(&PoolOptions::new(&[2]))?.to_vec::<f32>()?, vec![3.0]);
        /// # Ok::<(), axial_core::Error>(())
        /// ```
        avg_pool2d, 2, Kind::Avg
    );
    positional!(
        /// `F.avg_pool3d`: the last three dims of `[N, C, D, H, W]` or `[C, D, H, W]`.
        ///
        /// # Errors
        /// As [`avg_pool_axes`](Self::avg_pool_axes), and another rank.
        ///
        /// ```
        /// use axial_core::nn::PoolOptions;
        /// use axial_core::RawTensor;
        /// let x = RawTensor::from_vec(vec![8.0f64; 8], &[1, 2, 2, 2])?;
        /// assert_eq!(x.view().avg_pool3d(&PoolOptions::new(&[2]))?.to_vec::<f64>()?, vec![8.0]);
        /// # Ok::<(), axial_core::Error>(())
        /// ```
        avg_pool3d, 3, Kind::Avg
    );
    positional!(
        /// `F.max_pool1d`: the last dim of `[N, C, L]` or `[C, L]`; see
        /// [`max_pool_axes`](Self::max_pool_axes).
        ///
        /// # Errors
        /// As [`max_pool_axes`](Self::max_pool_axes), and another rank.
        ///
        /// ```
        /// use axial_core::nn::PoolOptions;
        /// use axial_core::RawTensor;
        /// let x = RawTensor::from_vec(vec![1.0f32, 3.0, 5.0, 2.0], &[1, 4])?;
        /// assert_eq!(x.view().max_pool1d(&PoolOptions::new(&[2]))?.to_vec::<f32>()?, vec![3.0, 5.0]);
        /// # Ok::<(), axial_core::Error>(())
        /// ```
        max_pool1d, 1, Kind::Max
    );
    positional!(
        /// `F.max_pool2d`: the last two dims of `[N, C, H, W]` or `[C, H, W]`.
        ///
        /// # Errors
        /// As [`max_pool_axes`](Self::max_pool_axes), and another rank.
        ///
        /// ```
        /// use axial_core::nn::PoolOptions;
        /// use axial_core::RawTensor;
        /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 6.0], &[1, 1, 2, 2])?;
        /// let y = x.view().max_pool2d(&PoolOptions::new(&[2]))?;
        /// assert_eq!((y.shape(), y.to_vec::<f32>()?), (&[1, 1, 1, 1][..], vec![6.0]));
        /// let e = x.view().max_pool2d(&PoolOptions::new(&[3])).err().unwrap();
        /// assert!(e.to_string().ends_with("Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small"));
        /// # Ok::<(), axial_core::Error>(())
        /// ```
        max_pool2d, 2, Kind::Max
    );
    positional!(
        /// `F.max_pool3d`: the last three dims of `[N, C, D, H, W]` or `[C, D, H, W]`.
        ///
        /// # Errors
        /// As [`max_pool_axes`](Self::max_pool_axes), and another rank.
        ///
        /// ```
        /// use axial_core::nn::PoolOptions;
        /// use axial_core::RawTensor;
        /// let x = RawTensor::arange(0.0, 8.0, 1.0, axial_core::DType::F32)?;
        /// let y = x.view().view(&[1, 2, 2, 2])?.max_pool3d(&PoolOptions::new(&[2]))?;
        /// assert_eq!(y.to_vec::<f32>()?, vec![7.0]);
        /// # Ok::<(), axial_core::Error>(())
        /// ```
        max_pool3d, 3, Kind::Max
    );

    /// `F.max_pool{n}d(..., return_indices=True)` for `n` pooled last dims:
    /// the maxima and the flat index of each in its plane.
    ///
    /// # Errors
    /// As [`max_pool2d`](Self::max_pool2d).
    ///
    /// ```
    /// use axial_core::nn::PoolOptions;
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 6.0, 3.0], &[1, 2, 2])?;
    /// let (y, i) = x.view().max_pool_with_indices(2, &PoolOptions::new(&[2]))?;
    /// assert_eq!((y.to_vec::<f32>()?, i.to_vec::<i64>()?), (vec![6.0], vec![2]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn max_pool_with_indices(
        &self,
        n: usize,
        options: &PoolOptions,
    ) -> Result<(RawTensor<D>, RawTensor<D>)> {
        let op = "max_pool_with_indices";
        positional_rank(op, n.clamp(1, 3), self.shape(), false)?;
        let spatial: Vec<usize> = (self.dim() - n.clamp(1, 3)..self.dim()).collect();
        let (y, i) = self.pooled(op, &spatial, options, Kind::Max, true, true)?;
        Ok((y, i.ok_or_else(|| Error::invalid(op, "no indices"))?))
    }
}

impl TensorRef<'_, Cpu> {
    /// `F.adaptive_avg_pool{n}d(x, out)` over the last `n = out.len()`
    /// dims of `[N, C, ...]` or `[C, ...]`.
    ///
    /// # Errors
    /// As [`adaptive_avg_pool_axes`](Self::adaptive_avg_pool_axes), and
    /// another rank.
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 6.0], &[1, 1, 2, 2])?;
    /// let y = x.view().adaptive_avg_pool(&[1, 1])?; // global average pooling
    /// assert_eq!((y.shape(), y.to_vec::<f32>()?), (&[1, 1, 1, 1][..], vec![3.0]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn adaptive_avg_pool(&self, out: &[usize]) -> Result<RawTensor<Cpu>> {
        let n = out.len().clamp(1, 3);
        positional_rank_of("adaptive_avg_pool", n, self.shape(), false, false)?;
        let spatial: Vec<usize> = (self.dim() - n..self.dim()).collect();
        self.adaptive_avg_pool_axes(&spatial, out)
    }

    /// `F.adaptive_max_pool{n}d(x, out, return_indices=True)` over the last
    /// `n = out.len()` dims.
    ///
    /// # Errors
    /// As [`adaptive_avg_pool`](Self::adaptive_avg_pool).
    ///
    /// ```
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 7.0, 6.0], &[1, 4])?;
    /// let (y, i) = x.view().adaptive_max_pool(&[1])?;
    /// assert_eq!((y.to_vec::<f32>()?, i.to_vec::<i64>()?), (vec![7.0], vec![2]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn adaptive_max_pool(&self, out: &[usize]) -> Result<(RawTensor<Cpu>, RawTensor<Cpu>)> {
        let n = out.len().clamp(1, 3);
        positional_rank_of("adaptive_max_pool", n, self.shape(), false, false)?;
        let spatial: Vec<usize> = (self.dim() - n..self.dim()).collect();
        self.adaptive_max_pool_axes(&spatial, out)
    }
}
