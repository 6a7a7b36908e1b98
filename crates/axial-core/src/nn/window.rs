//! The arithmetic of sliding windows, shared by convolution, pooling and
//! `unfold`/`fold`: per-dim hyper-parameters (one value for every spatial
//! dim, or one per dim, as PyTorch accepts them), padding resolved to the two
//! sides of each dim, and the output sizes, with PyTorch's messages.

use smallvec::SmallVec;

use crate::{Error, Result};

/// One value per spatial dim (at most three, inline).
pub type PerDim<T> = SmallVec<[T; 3]>;

/// `values` for `n` spatial dims: one value repeated, or exactly `n`.
///
/// # Errors
/// Another count, worded as PyTorch's convolution words it ("expected stride
/// to be a single integer value or a list of 2 values to match the
/// convolution dimensions, but got stride=[1, 1, 1]").
///
/// ```
/// use axial_core::nn::per_dim;
/// assert_eq!(per_dim("conv2d", "stride", &[2], 2)?.as_slice(), &[2, 2]);
/// assert_eq!(per_dim("conv2d", "stride", &[1, 3], 2)?.as_slice(), &[1, 3]);
/// assert!(per_dim("conv2d", "stride", &[1, 1, 1], 2).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub fn per_dim(op: &'static str, what: &str, values: &[usize], n: usize) -> Result<PerDim<usize>> {
    match values.len() {
        1 => Ok(SmallVec::from_elem(values[0], n)),
        len if len == n => Ok(values.iter().copied().collect()),
        _ => Err(Error::invalid(
            op,
            format!(
                "expected {what} to be a single integer value or a list of {n} values to match the convolution dimensions, but got {what}={values:?}"
            ),
        )),
    }
}

/// `[a, b]` as PyTorch's messages join sizes: `(a x b)`.
pub(crate) fn joined(values: &[impl std::fmt::Display], sep: &str) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// PyTorch's message for a window value (kernel size, dilation, stride)
/// that is zero: `what` names it, `got` shows the values as the op prints
/// them, after `sep` (`" "`, or `": "` where PyTorch puts a colon).
pub(crate) fn not_positive(what: &str, sep: &str, got: impl std::fmt::Display) -> String {
    format!("{what} should be greater than zero, but got{sep}{got}")
}

/// The extent of a dilated kernel: `dilation·(kernel − 1) + 1`.
///
/// ```
/// use axial_core::nn::dilated;
/// assert_eq!(dilated(3, 2), 5);
/// assert_eq!(dilated(0, 1), 0);
/// ```
pub fn dilated(kernel: usize, dilation: usize) -> usize {
    if kernel == 0 {
        0
    } else {
        dilation.saturating_mul(kernel - 1).saturating_add(1)
    }
}

/// The output length of a window of `kernel` elements dilated by
/// `dilation`, stepping by `stride` over `input` padded by `lo` and `hi`:
/// `(input + lo + hi − dilation·(kernel − 1) − 1) / stride + 1`, or `None`
/// when the window does not fit once.
///
/// ```
/// use axial_core::nn::conv_out_len;
/// assert_eq!(conv_out_len(224, 3, 2, 1, (0, 1)), Some(112));
/// assert_eq!(conv_out_len(5, 3, 1, 2, (0, 0)), Some(1));
/// assert_eq!(conv_out_len(2, 3, 1, 1, (0, 0)), None);
/// ```
pub fn conv_out_len(
    input: usize,
    kernel: usize,
    stride: usize,
    dilation: usize,
    (lo, hi): (usize, usize),
) -> Option<usize> {
    let padded = input.saturating_add(lo).saturating_add(hi);
    let extent = dilated(kernel, dilation);
    (padded >= extent && stride > 0).then(|| (padded - extent) / stride + 1)
}

/// PyTorch's `pooling_output_shape`: the output length of a pooling window,
/// with `ceil_mode` rounding up, except that the last window must start
/// inside the input or its left padding (a window that would start in the
/// right padding is dropped). Signed, since PyTorch reports negative sizes.
///
/// ```
/// use axial_core::nn::pool_out_len;
/// assert_eq!(pool_out_len(5, 2, 0, 2, 1, false), 2);
/// assert_eq!(pool_out_len(5, 2, 0, 2, 1, true), 3);
/// // The third window would start at 6, in the right padding: dropped.
/// assert_eq!(pool_out_len(5, 3, 1, 3, 1, true), 2);
/// ```
pub fn pool_out_len(
    input: usize,
    kernel: usize,
    pad: usize,
    stride: usize,
    dilation: usize,
    ceil_mode: bool,
) -> i64 {
    let (input, kernel, pad, stride, dilation) = (
        input as i64,
        kernel as i64,
        pad as i64,
        stride.max(1) as i64,
        dilation as i64,
    );
    let numerator =
        input + 2 * pad - dilation * (kernel - 1) - 1 + if ceil_mode { stride - 1 } else { 0 };
    let mut out = numerator.div_euclid(stride) + 1;
    if ceil_mode && (out - 1) * stride >= input + pad {
        out -= 1;
    }
    out
}

/// The output length of a transposed convolution:
/// `(input − 1)·stride − lo − hi + dilation·(kernel − 1) + output_padding + 1`
/// (signed: PyTorch reports negative sizes).
///
/// ```
/// use axial_core::nn::transposed_out_len;
/// assert_eq!(transposed_out_len(5, 3, 2, 1, (1, 1), 1), 10);
/// assert_eq!(transposed_out_len(1, 3, 1, 1, (3, 3), 0), -3);
/// ```
pub fn transposed_out_len(
    input: usize,
    kernel: usize,
    stride: usize,
    dilation: usize,
    (lo, hi): (usize, usize),
    output_padding: usize,
) -> i64 {
    (input as i64 - 1) * stride as i64 - lo as i64 - hi as i64
        + dilation as i64 * (kernel as i64 - 1)
        + output_padding as i64
        + 1
}

/// The window of output position `o` in an input of `input` elements for an
/// adaptive pooling to `output` positions: `[⌊o·input/output⌋,
/// ⌈(o+1)·input/output⌉)`.
///
/// ```
/// use axial_core::nn::adaptive_window;
/// assert_eq!(adaptive_window(0, 5, 3), 0..2);
/// assert_eq!(adaptive_window(1, 5, 3), 1..4);
/// assert_eq!(adaptive_window(2, 5, 3), 3..5);
/// ```
pub fn adaptive_window(o: usize, input: usize, output: usize) -> std::ops::Range<usize> {
    let start = (o * input) / output;
    let end = ((o + 1) * input).div_ceil(output);
    start..end
}
