//! What the inference layers share: their operands' checks, the input's
//! rows as a slice, and the split of the output's rows among threads.

use std::borrow::Cow;
use std::ops::Range;

use rayon::prelude::*;

use crate::cpu::vmath::erf::GeluOp;
use crate::cpu::vmath::run_f32;
use crate::generalized::host;
use crate::{Cpu, DType, Error, RawTensor, Result, TensorRef};

/// A weight's f32 elements (row-major, `n × k`), `n` and `k`.
///
/// # Errors
/// `weight` is not 2-D f32, or `k` is past `max_k`.
pub(super) fn weight<'a>(
    op: &'static str,
    weight: &TensorRef<'a, Cpu>,
    max_k: usize,
) -> Result<(Cow<'a, [f32]>, usize, usize)> {
    let &[n, k] = weight.shape() else {
        return Err(Error::weight_not_2d(op, weight.shape()));
    };
    if k > max_k {
        return Err(Error::invalid(
            op,
            format!("in_features {k} is past {max_k}, where the integer sums could overflow"),
        ));
    }
    Ok((host::elements::<f32>(op, weight)?, n, k))
}

/// A bias's f32 elements, checked to be `n` of them.
pub(super) fn bias(
    op: &'static str,
    bias: Option<&TensorRef<'_, Cpu>>,
    n: usize,
) -> Result<Option<Vec<f32>>> {
    let Some(b) = bias else { return Ok(None) };
    if b.dtype() != DType::F32 || b.shape() != [n] {
        return Err(Error::invalid(
            op,
            format!(
                "expected an f32 bias of shape [{n}], got {} of shape {:?}",
                b.dtype().name(),
                b.shape()
            ),
        ));
    }
    Ok(Some(host::elements::<f32>(op, b)?.into_owned()))
}

/// An input's rows (`[..., k]`, f32) and the shape of the output.
pub(super) struct Rows<'a> {
    x: Cow<'a, [f32]>,
    out_shape: crate::layout::Dims,
}

impl<'a> Rows<'a> {
    /// The rows of `x`, whose last dim must be `k`; the output's last dim is `n`.
    pub(super) fn of(op: &'static str, x: &TensorRef<'a, Cpu>, k: usize, n: usize) -> Result<Self> {
        let shape = x.shape();
        if shape.last() != Some(&k) {
            return Err(Error::invalid(
                op,
                format!("expected an input whose last dim is {k}, got shape {shape:?}"),
            ));
        }
        let mut out_shape = crate::layout::Dims::from(shape);
        *out_shape.last_mut().expect("checked above") = n;
        Ok(Rows {
            x: host::elements::<f32>(op, x)?,
            out_shape,
        })
    }

    /// The number of rows.
    pub(super) fn count(&self) -> usize {
        self.out_shape[..self.out_shape.len() - 1].iter().product()
    }

    /// A new tensor of the output's shape, written by `f(x, y)` with the
    /// input's and the output's rows: the output's elements are left
    /// unspecified for `f`, which must write every one of them.
    pub(super) fn compute_uninit(self, f: impl FnOnce(&[f32], &mut [f32])) -> Result<RawTensor> {
        let layout = crate::Layout::contiguous(&self.out_shape);
        let mut out = crate::tensor::alloc_output(&Cpu, layout, DType::F32)?;
        f(&self.x, out.storage_mut().as_mut_slice::<f32>()?);
        Ok(out)
    }
}

/// The exact GELU of `row` in place, a vector of lanes at a time from its
/// start (as the in-place GELU of a tensor, whose path is chosen per vector).
pub(super) fn gelu(row: &mut [f32]) {
    let (p, len) = (row.as_mut_ptr(), row.len());
    // SAFETY: `p` is readable and writable for `len` f32; source and
    // destination are the same pointer.
    unsafe { run_f32(GeluOp, p, p, len) };
}

/// A scratch block of `words` 32-bit words of unspecified contents (from
/// the host pool: stale words of an earlier block, or zeros), for the
/// packed activations of a layer: no pass that zeroes it.
///
/// # Errors
/// The system is out of memory.
pub(super) fn scratch(words: usize) -> Result<crate::cpu::CpuBuffer> {
    let bytes = words
        .checked_mul(4)
        .ok_or_else(|| Error::out_of_memory("scratch", usize::MAX))?;
    crate::cpu::CpuBuffer::new(bytes, false)
}

/// Calls `f(rows, out)` for blocks of the rows of `y` (`n` per row), `out`
/// the block's rows, on several threads: blocks of at most `most` rows, a
/// multiple of `step`, about four per thread.
pub(super) fn blocks(
    y: &mut [f32],
    n: usize,
    step: usize,
    most: usize,
    f: impl Fn(Range<usize>, &mut [f32]) + Sync,
) {
    let m = y.len() / n.max(1);
    let threads = rayon::current_num_threads();
    let rows = m
        .div_ceil(4 * threads)
        .next_multiple_of(step)
        .clamp(step, most);
    y.par_chunks_mut(rows * n)
        .enumerate()
        .for_each(|(i, out)| f(i * rows..(i * rows + rows).min(m), out));
}
