//! Convolutions: the options as PyTorch takes them, the checks in
//! PyTorch's order with its messages, and the entry points, positional
//! (`conv2d` on `[N, C, H, W]`, as `torch.nn.functional`) and by dims (any
//! channel dim, any spatial dims: NCHW and NHWC alike, without a copy).

use super::alloc::{alloc_on, conv_output_layout, output};
use super::window::{
    PerDim, conv_out_len, dilated, joined, not_positive, per_dim, transposed_out_len,
};
use crate::ops::ConvArgs;
use crate::{Backend, DType, Error, PadMode, RawTensor, Result, TensorRef, UnaryOp};

/// How a convolution pads its input: PyTorch's `padding` argument, and
/// padding given per side.
///
/// ```
/// use axial_core::nn::Padding;
/// assert_eq!(Padding::default(), Padding::Both(vec![0]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Padding {
    /// `padding=p`: `p` before and after each spatial dim (one value for
    /// every dim, or one per dim).
    Both(Vec<usize>),
    /// `padding='same'`: the output as long as the input (stride 1 only);
    /// `dilation·(kernel − 1)` in all, half before, the rest after.
    Same,
    /// `padding='valid'`: none.
    Valid,
    /// `(before, after)` for each spatial dim (one pair for every dim, or
    /// one per dim): TensorFlow's asymmetric "SAME" padding, which PyTorch
    /// code writes as `F.pad` before the convolution.
    Sides(Vec<(usize, usize)>),
}

impl Default for Padding {
    fn default() -> Self {
        Padding::Both(vec![0])
    }
}

/// What the padding holds (`nn.Conv2d`'s `padding_mode`).
///
/// ```
/// use axial_core::nn::PaddingMode;
/// assert_eq!(PaddingMode::default(), PaddingMode::Zeros);
/// assert_eq!(PaddingMode::Reflect.name(), "reflect");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PaddingMode {
    /// Zeros (no copy of the input: the kernels skip the padding).
    #[default]
    Zeros,
    /// The input mirrored at its edges, the edge not repeated.
    Reflect,
    /// The edge element repeated.
    Replicate,
    /// The input repeated periodically.
    Circular,
}

impl PaddingMode {
    /// PyTorch's name.
    ///
    /// ```
    /// # use axial_core::nn::PaddingMode;
    /// assert_eq!(PaddingMode::Circular.name(), "circular");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            PaddingMode::Zeros => "zeros",
            PaddingMode::Reflect => "reflect",
            PaddingMode::Replicate => "replicate",
            PaddingMode::Circular => "circular",
        }
    }
}

/// A convolution's hyper-parameters, as `torch.nn.functional.conv2d` and
/// `nn.Conv2d` take them: each per-dim value is one number for every
/// spatial dim or one per dim.
///
/// ```
/// use axial_core::nn::{ConvOptions, Padding, PaddingMode};
/// let o = ConvOptions::new().stride(&[2]).padding(Padding::Both(vec![1])).groups(32);
/// assert_eq!((o.stride.as_slice(), o.groups), (&[2][..], 32));
/// let r = ConvOptions::new().padding(Padding::Same).padding_mode(PaddingMode::Reflect);
/// assert_eq!(r.padding_mode, PaddingMode::Reflect);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConvOptions {
    /// The step between windows.
    pub stride: Vec<usize>,
    /// The padding.
    pub padding: Padding,
    /// The step between a window's taps.
    pub dilation: Vec<usize>,
    /// Input and output channels are split into this many groups, each
    /// convolved with its own filters (`groups == channels`: depthwise).
    pub groups: usize,
    /// What the padding holds.
    pub padding_mode: PaddingMode,
    /// Transposed convolutions: extra outputs after the last (below the
    /// stride or the dilation).
    pub output_padding: Vec<usize>,
    /// The output clamped to `[min, max]` (`F.hardtanh`; ReLU6 is `(0.0,
    /// 6.0)`), in the pass that writes it; `None`: as computed.
    pub clamp: Option<(f64, f64)>,
}

impl Default for ConvOptions {
    fn default() -> Self {
        ConvOptions {
            stride: vec![1],
            padding: Padding::default(),
            dilation: vec![1],
            groups: 1,
            padding_mode: PaddingMode::Zeros,
            output_padding: vec![0],
            clamp: None,
        }
    }
}

impl ConvOptions {
    /// PyTorch's defaults: stride 1, no padding, dilation 1, one group.
    ///
    /// ```
    /// # use axial_core::nn::ConvOptions;
    /// assert_eq!(ConvOptions::new(), ConvOptions::default());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// With `stride`.
    ///
    /// ```
    /// # use axial_core::nn::ConvOptions;
    /// assert_eq!(ConvOptions::new().stride(&[1, 2]).stride, vec![1, 2]);
    /// ```
    pub fn stride(mut self, stride: &[usize]) -> Self {
        self.stride = stride.to_vec();
        self
    }

    /// With `padding`.
    ///
    /// ```
    /// # use axial_core::nn::{ConvOptions, Padding};
    /// assert_eq!(ConvOptions::new().padding(Padding::Valid).padding, Padding::Valid);
    /// ```
    pub fn padding(mut self, padding: Padding) -> Self {
        self.padding = padding;
        self
    }

    /// With `dilation`.
    ///
    /// ```
    /// # use axial_core::nn::ConvOptions;
    /// assert_eq!(ConvOptions::new().dilation(&[2]).dilation, vec![2]);
    /// ```
    pub fn dilation(mut self, dilation: &[usize]) -> Self {
        self.dilation = dilation.to_vec();
        self
    }

    /// With `groups`.
    ///
    /// ```
    /// # use axial_core::nn::ConvOptions;
    /// assert_eq!(ConvOptions::new().groups(4).groups, 4);
    /// ```
    pub fn groups(mut self, groups: usize) -> Self {
        self.groups = groups;
        self
    }

    /// With `padding_mode`.
    ///
    /// ```
    /// # use axial_core::nn::{ConvOptions, PaddingMode};
    /// assert_eq!(ConvOptions::new().padding_mode(PaddingMode::Replicate).padding_mode, PaddingMode::Replicate);
    /// ```
    pub fn padding_mode(mut self, mode: PaddingMode) -> Self {
        self.padding_mode = mode;
        self
    }

    /// With `output_padding` (transposed convolutions).
    ///
    /// ```
    /// # use axial_core::nn::ConvOptions;
    /// assert_eq!(ConvOptions::new().output_padding(&[1]).output_padding, vec![1]);
    /// ```
    pub fn output_padding(mut self, output_padding: &[usize]) -> Self {
        self.output_padding = output_padding.to_vec();
        self
    }

    /// With the output clamped to `[min, max]` as the kernel writes it:
    /// `conv(x).hardtanh(min, max)` (ReLU6 after a convolution, as in
    /// MobileNet and EfficientNet-Lite, is `clamp(0.0, 6.0)`) without a
    /// second pass over the output. NaN stays NaN.
    ///
    /// ```
    /// use axial_core::nn::ConvOptions;
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![-1.0f32, 2.0, 9.0], &[1, 1, 3])?;
    /// let w = RawTensor::from_vec(vec![1.0f32], &[1, 1, 1])?;
    /// let y = x.view().conv1d(&w.view(), None, &ConvOptions::new().clamp(0.0, 6.0))?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![0.0, 2.0, 6.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn clamp(mut self, min: f64, max: f64) -> Self {
        self.clamp = Some((min, max));
        self
    }
}

/// Which dims of a tensor a convolution or pooling reads as what: one
/// channel dim, the spatial dims in order, the others batch dims.
///
/// ```
/// use axial_core::nn::ConvAxes;
/// // NHWC: channels last, rows and columns in the middle.
/// let nhwc = ConvAxes::new(3, &[1, 2]);
/// assert_eq!(ConvAxes::channels_first(4, 2), ConvAxes::new(1, &[2, 3]));
/// # let _ = nhwc;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvAxes {
    /// The channel dim.
    pub channel: usize,
    /// The spatial dims, outermost first.
    pub spatial: Vec<usize>,
}

impl ConvAxes {
    /// Channel dim `channel`, spatial dims `spatial`.
    ///
    /// ```
    /// # use axial_core::nn::ConvAxes;
    /// assert_eq!(ConvAxes::new(0, &[1]).spatial, vec![1]);
    /// ```
    pub fn new(channel: usize, spatial: &[usize]) -> Self {
        ConvAxes {
            channel,
            spatial: spatial.to_vec(),
        }
    }

    /// PyTorch's order for a tensor of `rank` dims with `n` spatial dims:
    /// `[..., C, spatial...]`.
    ///
    /// ```
    /// # use axial_core::nn::ConvAxes;
    /// assert_eq!(ConvAxes::channels_first(3, 2), ConvAxes::new(0, &[1, 2]));
    /// ```
    pub fn channels_first(rank: usize, n: usize) -> Self {
        let c = rank.saturating_sub(n + 1);
        ConvAxes {
            channel: c,
            spatial: (c + 1..c + 1 + n).collect(),
        }
    }

    /// Checks the dims against a tensor of `rank` dims.
    pub(crate) fn check(&self, op: &'static str, rank: usize) -> Result<()> {
        let mut seen = vec![false; rank];
        for &d in std::iter::once(&self.channel).chain(&self.spatial) {
            if d >= rank || std::mem::replace(&mut seen[d], true) {
                return Err(Error::invalid(
                    op,
                    format!(
                        "channel dim {} and spatial dims {:?} must be distinct dims of a tensor of {rank} dims",
                        self.channel, self.spatial
                    ),
                ));
            }
        }
        if self.spatial.is_empty() || self.spatial.len() > 3 {
            return Err(Error::invalid(
                op,
                format!("expected 1 to 3 spatial dims, got {}", self.spatial.len()),
            ));
        }
        Ok(())
    }
}

/// A convolution's checked, resolved parameters.
#[derive(Clone, Debug)]
pub(crate) struct ConvPlan {
    pub(crate) stride: PerDim<usize>,
    pub(crate) dilation: PerDim<usize>,
    /// `(before, after)` per spatial dim.
    pub(crate) pad: PerDim<(usize, usize)>,
    pub(crate) groups: usize,
    pub(crate) out_shape: Vec<usize>,
}

/// The dtype a convolution computes a dtype in.
pub(crate) fn compute_dtype(dtype: DType) -> Option<DType> {
    match dtype {
        DType::F64 => Some(DType::F64),
        DType::F32 | DType::F16 | DType::BF16 => Some(DType::F32),
        _ => None,
    }
}

/// The C++ name PyTorch prints for a dtype in some messages (`float`).
pub(crate) fn cpp_name(d: DType) -> &'static str {
    match d {
        DType::F32 => "float",
        DType::F64 => "double",
        DType::F16 => "c10::Half",
        DType::BF16 => "c10::BFloat16",
        DType::I64 => "long int",
        DType::I32 => "int",
        DType::I16 => "short int",
        DType::I8 => "signed char",
        DType::U8 => "unsigned char",
        DType::Bool => "bool",
        DType::U16 => "unsigned short",
        DType::U32 => "unsigned int",
        DType::U64 => "unsigned long",
        DType::C64 => "c10::complex<float>",
        DType::C128 => "c10::complex<double>",
        DType::F8E4M3Fn => "c10::Float8_e4m3fn",
        DType::F8E5M2 => "c10::Float8_e5m2",
        DType::F8E4M3FnUz => "c10::Float8_e4m3fnuz",
        DType::F8E5M2FnUz => "c10::Float8_e5m2fnuz",
    }
}

/// PyTorch's type checks of a convolution's operands.
pub(crate) fn check_types(op: &'static str, x: DType, w: DType, bias: Option<DType>) -> Result<()> {
    if let Some(b) = bias
        && b != x
    {
        return Err(Error::invalid(
            op,
            format!(
                "Input type ({}) and bias type ({}) should be the same",
                cpp_name(x),
                cpp_name(b)
            ),
        ));
    }
    if w != x {
        return Err(Error::scalar_type(op, x, w));
    }
    if compute_dtype(x).is_none() {
        return Err(Error::Unsupported { op, dtype: x });
    }
    Ok(())
}

/// `name_height: a name_width: b` for 1-d (height 1), 2-d and 3-d values,
/// as PyTorch's 2-d and 3-d kernels print them.
fn named_sizes(name: &str, v: &[usize], one: usize) -> String {
    let parts: Vec<(&str, usize)> = match v.len() {
        1 => vec![("height", one), ("width", v[0])],
        2 => vec![("height", v[0]), ("width", v[1])],
        _ => vec![("depth", v[0]), ("height", v[1]), ("width", v[2])],
    };
    parts
        .iter()
        .map(|(d, x)| format!("{name}_{d}: {x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Resolves and checks a convolution of `x` (channel and spatial dims as
/// `axes` says) by `w` (`[out, in / groups, kernel...]`, or `[in, out /
/// groups, kernel...]` when `transposed`), in PyTorch's order.
pub(crate) fn plan(
    op: &'static str,
    x: &[usize],
    w: &[usize],
    bias: Option<&[usize]>,
    axes: &ConvAxes,
    o: &ConvOptions,
    transposed: bool,
) -> Result<ConvPlan> {
    let bad = |m: String| Err(Error::invalid(op, m));
    if w.len() < 3 {
        return bad("weight should have at least three dimensions".into());
    }
    // PyTorch expands the per-dim values to the weight's spatial dims.
    let n = w.len() - 2;
    let stride = per_dim(op, "stride", &o.stride, n)?;
    let dilation = per_dim(op, "dilation", &o.dilation, n)?;
    let output_padding = per_dim(op, "output_padding", &o.output_padding, n)?;
    if stride.contains(&0) {
        return bad("non-positive stride is not supported".into());
    }
    if dilation.contains(&0) {
        return bad(not_positive(
            "dilation",
            " ",
            format_args!("{:?}", dilation.as_slice()),
        ));
    }
    if o.groups == 0 {
        return bad("non-positive groups is not supported".into());
    }
    let groups = o.groups;
    if axes.spatial.len() != n {
        return bad(if x.len() == axes.spatial.len() + 2 {
            format!(
                "Expected {}-dimensional input for {}-dimensional weight {w:?}, but got {}-dimensional input of size {x:?} instead",
                w.len(),
                w.len(),
                x.len()
            )
        } else {
            format!(
                "Expected a weight of {} dimensions for {} spatial dimensions, but got weight of size {w:?}",
                axes.spatial.len() + 2,
                axes.spatial.len()
            )
        });
    }
    if w[0] < groups {
        return bad(format!(
            "Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got weight of size {w:?} instead"
        ));
    }
    if !w[0].is_multiple_of(groups) {
        return bad(format!(
            "Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got weight of size [{w:?}] instead"
        ));
    }
    let kernel = &w[2..];
    let pad: PerDim<(usize, usize)> = match &o.padding {
        Padding::Both(p) => per_dim(op, "padding", p, n)?
            .iter()
            .map(|&p| (p, p))
            .collect(),
        Padding::Valid => std::iter::repeat_n((0, 0), n).collect(),
        Padding::Same => {
            if transposed {
                return bad("padding='same' is not supported for transposed convolutions".into());
            }
            if stride.iter().any(|&s| s != 1) {
                return bad("padding='same' is not supported for strided convolutions".into());
            }
            (0..n)
                .map(|d| {
                    let total = dilation[d] * kernel[d].saturating_sub(1);
                    (total / 2, total - total / 2)
                })
                .collect()
        }
        Padding::Sides(s) => match s.len() {
            1 => std::iter::repeat_n(s[0], n).collect(),
            len if len == n => s.iter().copied().collect(),
            _ => {
                return bad(format!(
                    "expected padding to be a single pair or a list of {n} pairs to match the convolution dimensions, but got padding={s:?}"
                ));
            }
        },
    };
    let (c_dim, in_channels) = (axes.channel, x[axes.channel]);
    let mut out_shape = x.to_vec();
    if !transposed {
        if in_channels != w[1] * groups {
            return bad(format!(
                "Given groups={groups}, weight of size {w:?}, expected input{x:?} to have {} channels, but got {in_channels} channels instead",
                w[1] * groups
            ));
        }
        if let Some(b) = bias
            && b != [w[0]]
        {
            return bad(format!(
                "Given weight of size {w:?}, expected bias to be 1-dimensional with {} elements, but got bias of size {b:?} instead",
                w[0]
            ));
        }
        let padded: PerDim<usize> = (0..n)
            .map(|d| x[axes.spatial[d]] + pad[d].0 + pad[d].1)
            .collect();
        let extent: PerDim<usize> = (0..n).map(|d| dilated(kernel[d], dilation[d])).collect();
        if (0..n).any(|d| padded[d] < extent[d]) {
            return bad(format!(
                "Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel size can't be greater than actual input size",
                joined(&padded, " x "),
                joined(&extent, " x ")
            ));
        }
        if kernel.contains(&0) {
            return bad(if n == 3 {
                not_positive(
                    "kernel size",
                    ": ",
                    format_args!("{} (TxHxW)", joined(kernel, " x ")),
                )
            } else {
                not_positive("kernel size", " ", named_sizes("kernel", kernel, 1))
            });
        }
        out_shape[c_dim] = w[0];
        for d in 0..n {
            out_shape[axes.spatial[d]] = conv_out_len(
                x[axes.spatial[d]],
                kernel[d],
                stride[d],
                dilation[d],
                pad[d],
            )
            .unwrap_or(0);
        }
    } else {
        if in_channels != w[0] {
            return bad(format!(
                "Given transposed=1, weight of size {w:?}, expected input{x:?} to have {} channels, but got {in_channels} channels instead",
                w[0]
            ));
        }
        if let Some(b) = bias
            && b != [w[1] * groups]
        {
            return bad(format!(
                "Given transposed=1, weight of size {w:?}, expected bias to be 1-dimensional with {} elements, but got bias of size {b:?} instead",
                w[1] * groups
            ));
        }
        if (0..n).any(|d| output_padding[d] >= stride[d] && output_padding[d] >= dilation[d]) {
            return bad(format!(
                "output padding must be smaller than either stride or dilation, but got {} {} {}",
                named_sizes("output_padding", &output_padding, 0),
                named_sizes("stride", &stride, 1),
                named_sizes("dilation", &dilation, 1)
            ));
        }
        let sizes: PerDim<i64> = (0..n)
            .map(|d| {
                transposed_out_len(
                    x[axes.spatial[d]],
                    kernel[d],
                    stride[d],
                    dilation[d],
                    pad[d],
                    output_padding[d],
                )
            })
            .collect();
        if sizes.iter().any(|&s| s < 0) {
            let mut input: Vec<i64> = axes.spatial.iter().map(|&d| x[d] as i64).collect();
            let mut sizes = sizes.to_vec();
            if n == 1 {
                // PyTorch computes a 1-d transposed convolution as a 2-d one.
                input.insert(0, 1);
                sizes.insert(0, 1);
            }
            return bad(format!(
                "Given input size per channel: ({}). Calculated output size per channel: ({}). Output size is too small",
                joined(&input, " x "),
                joined(&sizes, " x ")
            ));
        }
        out_shape[c_dim] = w[1] * groups;
        for d in 0..n {
            out_shape[axes.spatial[d]] = sizes[d] as usize;
        }
    }
    Ok(ConvPlan {
        stride,
        dilation,
        pad,
        groups,
        out_shape,
    })
}

/// A view of `t` in `dtype`: itself, or a copy.
pub(crate) fn as_dtype<'t, D: Backend>(
    t: &TensorRef<'t, D>,
    dtype: DType,
) -> Result<Option<RawTensor<D>>> {
    if t.dtype() == dtype {
        Ok(None)
    } else {
        t.to_dtype(dtype).map(Some)
    }
}

/// `x` padded in `mode` (not zeros) by `(before, after)` on each of the
/// dims `spatial`: the spatial dims permuted last, then `F.pad`'s padding,
/// then the dims put back (a copy, on `x`'s device).
fn pad_spatial<D: Backend>(
    x: &TensorRef<'_, D>,
    spatial: &[usize],
    sides: &[(usize, usize)],
    mode: PaddingMode,
) -> Result<RawTensor<D>> {
    let mode = match mode {
        PaddingMode::Zeros => PadMode::Constant(crate::Scalar::Float(0.0)),
        PaddingMode::Reflect => PadMode::Reflect,
        PaddingMode::Replicate => PadMode::Replicate,
        PaddingMode::Circular => PadMode::Circular,
    };
    super::pad::check_sides(x.shape(), spatial, sides, mode)?;
    let order = crate::ops::canonical_order(x.dim(), None, spatial);
    let perm: Vec<isize> = order.iter().map(|&d| d as isize).collect();
    let mut back = vec![0isize; order.len()];
    for (i, &d) in order.iter().enumerate() {
        back[d] = i as isize;
    }
    // F.pad's list: the last dim's pair first.
    let pads: Vec<usize> = sides.iter().rev().flat_map(|&(a, b)| [a, b]).collect();
    let padded = x.clone().permute(&perm)?.pad(&pads, mode)?;
    let (storage, layout, dtype) = padded.into_parts();
    RawTensor::from_parts(storage, layout.permute(&back)?, dtype)
}

/// `o`'s tensor or `t`.
pub(crate) fn or_view<'t, D: Backend>(
    o: &'t Option<RawTensor<D>>,
    t: &TensorRef<'t, D>,
) -> TensorRef<'t, D> {
    o.as_ref().map_or_else(|| t.clone(), RawTensor::view)
}

impl<D: Backend> TensorRef<'_, D> {
    /// A convolution over the dims `axes` names: channel dim `axes.channel`
    /// (`in` channels), spatial dims `axes.spatial`, any other dims batch
    /// dims; the weight is `[out, in / groups, kernel...]` (PyTorch's), the
    /// bias `[out]`. The result has this tensor's dims, the channel dim of
    /// size `out` and each spatial dim of its output length.
    ///
    /// Any layout is read where it lies: NCHW, NHWC (`axes.channel` last)
    /// and strided views need no copy, and the result is laid out as the
    /// input (channels innermost when they are innermost in the input).
    /// `PaddingMode`s other than zeros pad a copy of the input first, as
    /// `nn.Conv2d` does; f16 and bf16 compute in f32 and round once.
    ///
    /// # Errors
    /// PyTorch's: in-channels that are not the weight's times `groups`, a
    /// kernel larger than the padded input, `groups` that do not divide
    /// the output channels, a bias of another length, mixed dtypes,
    /// integer tensors, hyper-parameters of another count.
    ///
    /// ```
    /// use axial_core::nn::{ConvAxes, ConvOptions, Padding};
    /// use axial_core::RawTensor;
    /// // An NHWC image [1, 3, 3, 2] and a 3×3 kernel summing channel 0.
    /// let x = RawTensor::arange(0.0, 18.0, 1.0, axial_core::DType::F32)?;
    /// let x = x.view().view(&[1, 3, 3, 2])?;
    /// let mut w = vec![0.0f32; 18];
    /// for t in 0..9 { w[t] = 1.0; } // [out 1, in 2, 3, 3]: channel 0's taps
    /// let w = RawTensor::from_vec(w, &[1, 2, 3, 3])?;
    /// let y = x.conv_axes(&w.view(), None, &ConvAxes::new(3, &[1, 2]), &ConvOptions::new())?;
    /// assert_eq!(y.shape(), &[1, 1, 1, 1]);
    /// assert_eq!(y.to_vec::<f32>()?, vec![72.0]); // 0 + 2 + ... + 16
    /// let same = ConvOptions::new().padding(Padding::Same);
    /// let z = x.conv_axes(&w.view(), None, &ConvAxes::new(3, &[1, 2]), &same)?;
    /// assert_eq!(z.shape(), &[1, 3, 3, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv_axes(
        &self,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        axes: &ConvAxes,
        options: &ConvOptions,
    ) -> Result<RawTensor<D>> {
        self.conv_named("conv", weight, bias, axes, options, false)
    }

    /// A transposed convolution (the adjoint of [`conv_axes`](Self::conv_axes),
    /// PyTorch's `conv_transposeNd`) over the dims `axes` names; the weight
    /// is `[in, out / groups, kernel...]`, the bias `[out]`. Each output
    /// dim is `(n − 1)·stride − before − after + dilation·(kernel − 1) +
    /// output_padding + 1` long.
    ///
    /// # Errors
    /// PyTorch's, as for [`conv_axes`](Self::conv_axes), and an output
    /// padding not below the stride or the dilation, or an output of no
    /// element.
    ///
    /// ```
    /// use axial_core::nn::{ConvAxes, ConvOptions};
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0], &[1, 1, 2])?;
    /// let w = RawTensor::from_vec(vec![1.0f32, 10.0, 100.0], &[1, 1, 3])?;
    /// let o = ConvOptions::new().stride(&[2]);
    /// let y = x.view().conv_transpose_axes(&w.view(), None, &ConvAxes::new(1, &[2]), &o)?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![1.0, 10.0, 102.0, 20.0, 200.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv_transpose_axes(
        &self,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        axes: &ConvAxes,
        options: &ConvOptions,
    ) -> Result<RawTensor<D>> {
        self.conv_named("conv_transpose", weight, bias, axes, options, true)
    }

    fn conv_named(
        &self,
        op: &'static str,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        axes: &ConvAxes,
        o: &ConvOptions,
        transposed: bool,
    ) -> Result<RawTensor<D>> {
        check_types(op, self.dtype(), weight.dtype(), bias.map(|b| b.dtype()))?;
        axes.check(op, self.dim())?;
        let plan = plan(
            op,
            self.shape(),
            weight.shape(),
            bias.map(|b| b.shape()),
            axes,
            o,
            transposed,
        )?;
        if transposed && o.padding_mode != PaddingMode::Zeros {
            return Err(Error::invalid(
                op,
                "Only \"zeros\" padding mode is supported for ConvTranspose2d",
            ));
        }
        let compute = compute_dtype(self.dtype()).unwrap_or(DType::F32);
        let (xc, wc) = (as_dtype(self, compute)?, as_dtype(weight, compute)?);
        let bc = bias.map(|b| as_dtype(b, compute)).transpose()?;
        let (x, w) = (or_view(&xc, self), or_view(&wc, weight));
        let b = bias.map(|b| or_view(bc.as_ref().unwrap_or(&None), b));
        // Non-zero padding: a padded copy, then no padding.
        let padded = if !transposed
            && o.padding_mode != PaddingMode::Zeros
            && plan.pad.iter().any(|&(a, b)| a + b > 0)
        {
            Some(pad_spatial(&x, &axes.spatial, &plan.pad, o.padding_mode)?)
        } else {
            None
        };
        let x = or_view(&padded, &x);
        let before: Vec<usize> = if padded.is_some() {
            vec![0; plan.pad.len()]
        } else {
            plan.pad.iter().map(|p| p.0).collect()
        };
        let layout = conv_output_layout(x.layout(), &plan.out_shape, axes);
        let device = x.storage().device().clone();
        let mut out = alloc_on(&device, layout, compute)?;
        let args = ConvArgs {
            channel: axes.channel,
            spatial: axes.spatial.to_vec(),
            stride: plan.stride.to_vec(),
            dilation: plan.dilation.to_vec(),
            pad: before,
            groups: plan.groups,
            // The transposed kernels write by accumulation: clamped after.
            clamp: if transposed { None } else { o.clamp },
        };
        let (xi, wi, bi) = (x.input(), w.input(), b.as_ref().map(|b| b.input()));
        if transposed {
            device.conv_transpose(&args, xi, wi, bi, output(&mut out))?;
        } else {
            device.conv(&args, xi, wi, bi, output(&mut out))?;
        }
        let out = match o.clamp {
            Some((min, max)) if transposed => out.view().unary(UnaryOp::Clamp {
                min: Some(min),
                max: Some(max),
            })?,
            _ => out,
        };
        if compute == self.dtype() {
            Ok(out)
        } else {
            out.view().to_dtype(self.dtype())
        }
    }

    /// `F.conv1d`, `F.conv2d`, `F.conv3d` by the weight's rank: the input
    /// is `[N, C, spatial...]` or unbatched `[C, spatial...]`.
    fn conv_positional(
        &self,
        op: &'static str,
        n: usize,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        o: &ConvOptions,
        transposed: bool,
    ) -> Result<RawTensor<D>> {
        if let Some(b) = bias
            && b.dtype() != self.dtype()
        {
            return Err(Error::invalid(
                op,
                format!(
                    "Input type ({}) and bias type ({}) should be the same",
                    cpp_name(self.dtype()),
                    cpp_name(b.dtype())
                ),
            ));
        }
        let rank = self.dim();
        if rank != n + 1 && rank != n + 2 {
            return Err(Error::invalid(
                op,
                format!(
                    "Expected {}D (unbatched) or {}D (batched) input to {op}, but got input of size: {:?}",
                    n + 1,
                    n + 2,
                    self.shape()
                ),
            ));
        }
        // PyTorch checks an unbatched input as a batch of one.
        let x = if rank == n + 1 {
            self.clone().unsqueeze(0)?
        } else {
            self.clone()
        };
        let axes = ConvAxes::channels_first(n + 2, n);
        // Python's argument parser repeats a single value of a 2-d or 3-d
        // op's tuple arguments before the convolution sees them.
        let spread = |v: &Vec<usize>| {
            if n > 1 && v.len() == 1 {
                vec![v[0]; n]
            } else {
                v.clone()
            }
        };
        let o = ConvOptions {
            stride: spread(&o.stride),
            dilation: spread(&o.dilation),
            output_padding: spread(&o.output_padding),
            padding: match &o.padding {
                Padding::Both(p) => Padding::Both(spread(p)),
                other => other.clone(),
            },
            ..o.clone()
        };
        let y = x.conv_named(op, weight, bias, &axes, &o, transposed)?;
        if rank == n + 1 {
            let (storage, layout, dtype) = y.into_parts();
            let layout = layout.select(0, 0)?;
            RawTensor::from_parts(storage, layout, dtype)
        } else {
            Ok(y)
        }
    }

    /// `torch.nn.functional.conv1d(x, weight, bias, ...)`: `x` is `[N, C,
    /// L]` or `[C, L]`; see [`conv_axes`](Self::conv_axes).
    ///
    /// # Errors
    /// PyTorch's (see [`conv_axes`](Self::conv_axes)), and an input of
    /// another rank.
    ///
    /// ```
    /// use axial_core::nn::ConvOptions;
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[1, 1, 4])?;
    /// let w = RawTensor::from_vec(vec![1.0f32, -1.0], &[1, 1, 2])?;
    /// let y = x.view().conv1d(&w.view(), None, &ConvOptions::new())?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![-1.0, -1.0, -1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv1d(
        &self,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        options: &ConvOptions,
    ) -> Result<RawTensor<D>> {
        self.conv_positional("conv1d", 1, weight, bias, options, false)
    }

    /// `torch.nn.functional.conv2d`: `x` is `[N, C, H, W]` or `[C, H, W]`.
    ///
    /// # Errors
    /// As [`conv1d`](Self::conv1d).
    ///
    /// ```
    /// use axial_core::nn::ConvOptions;
    /// use axial_core::RawTensor;
    /// let x = RawTensor::zeros(&[1, 2, 2, 2], axial_core::DType::F32)?;
    /// let w = RawTensor::zeros(&[4, 3, 3, 3], axial_core::DType::F32)?;
    /// let e = x.view().conv2d(&w.view(), None, &ConvOptions::new()).err().unwrap();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "conv2d: Given groups=1, weight of size [4, 3, 3, 3], expected input[1, 2, 2, 2] to have 3 channels, but got 2 channels instead"
    /// );
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv2d(
        &self,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        options: &ConvOptions,
    ) -> Result<RawTensor<D>> {
        self.conv_positional("conv2d", 2, weight, bias, options, false)
    }

    /// `torch.nn.functional.conv3d`: `x` is `[N, C, D, H, W]` or `[C, D, H, W]`.
    ///
    /// # Errors
    /// As [`conv1d`](Self::conv1d).
    ///
    /// ```
    /// use axial_core::nn::ConvOptions;
    /// use axial_core::{Cpu, DType, RawTensor, Scalar};
    /// let x = RawTensor::full_on(&Cpu, &[1, 1, 3, 3, 3], Scalar::Float(1.0), DType::F32)?;
    /// let w = RawTensor::full_on(&Cpu, &[2, 1, 3, 3, 3], Scalar::Float(1.0), DType::F32)?;
    /// let y = x.view().conv3d(&w.view(), None, &ConvOptions::new())?;
    /// assert_eq!((y.shape(), y.to_vec::<f32>()?), (&[1, 2, 1, 1, 1][..], vec![27.0, 27.0]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv3d(
        &self,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        options: &ConvOptions,
    ) -> Result<RawTensor<D>> {
        self.conv_positional("conv3d", 3, weight, bias, options, false)
    }

    /// `torch.nn.functional.conv_transpose1d`: `x` is `[N, C, L]` or
    /// `[C, L]`, the weight `[C, out / groups, k]`.
    ///
    /// # Errors
    /// As [`conv_transpose_axes`](Self::conv_transpose_axes), and an input
    /// of another rank.
    ///
    /// ```
    /// use axial_core::nn::ConvOptions;
    /// use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1.0f32, 1.0], &[1, 1, 2])?;
    /// let w = RawTensor::from_vec(vec![1.0f32, 1.0], &[1, 1, 2])?;
    /// let y = x.view().conv_transpose1d(&w.view(), None, &ConvOptions::new())?;
    /// assert_eq!(y.to_vec::<f32>()?, vec![1.0, 2.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv_transpose1d(
        &self,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        options: &ConvOptions,
    ) -> Result<RawTensor<D>> {
        self.conv_positional("conv_transpose1d", 1, weight, bias, options, true)
    }

    /// `torch.nn.functional.conv_transpose2d`: `x` is `[N, C, H, W]` or
    /// `[C, H, W]`, the weight `[C, out / groups, kh, kw]`.
    ///
    /// # Errors
    /// As [`conv_transpose1d`](Self::conv_transpose1d).
    ///
    /// ```
    /// use axial_core::nn::ConvOptions;
    /// use axial_core::{Cpu, DType, RawTensor, Scalar};
    /// let x = RawTensor::full_on(&Cpu, &[1, 1, 2, 2], Scalar::Float(1.0), DType::F32)?;
    /// let w = RawTensor::full_on(&Cpu, &[1, 1, 2, 2], Scalar::Float(1.0), DType::F32)?;
    /// let y = x.view().conv_transpose2d(&w.view(), None, &ConvOptions::new().stride(&[2]))?;
    /// assert_eq!((y.shape(), y.to_vec::<f32>()?), (&[1, 1, 4, 4][..], vec![1.0; 16]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv_transpose2d(
        &self,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        options: &ConvOptions,
    ) -> Result<RawTensor<D>> {
        self.conv_positional("conv_transpose2d", 2, weight, bias, options, true)
    }

    /// `torch.nn.functional.conv_transpose3d`: `x` is `[N, C, D, H, W]`
    /// or `[C, D, H, W]`.
    ///
    /// # Errors
    /// As [`conv_transpose1d`](Self::conv_transpose1d).
    ///
    /// ```
    /// use axial_core::nn::ConvOptions;
    /// use axial_core::{Cpu, DType, RawTensor, Scalar};
    /// let x = RawTensor::full_on(&Cpu, &[1, 1, 1, 1, 1], Scalar::Float(1.0), DType::F64)?;
    /// let w = RawTensor::full_on(&Cpu, &[1, 2, 1, 2, 2], Scalar::Float(1.0), DType::F64)?;
    /// let y = x.view().conv_transpose3d(&w.view(), None, &ConvOptions::new())?;
    /// assert_eq!(y.shape(), &[1, 2, 1, 2, 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn conv_transpose3d(
        &self,
        weight: &TensorRef<'_, D>,
        bias: Option<&TensorRef<'_, D>>,
        options: &ConvOptions,
    ) -> Result<RawTensor<D>> {
        self.conv_positional("conv_transpose3d", 3, weight, bias, options, true)
    }
}
