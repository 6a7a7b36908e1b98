//! Where a convolution's operands lie, as its kernels see them: batch items
//! (any number of batch dims, listed as element offsets), a channel stride,
//! and three spatial dims (leading ones of size 1 when there are fewer), so
//! that one set of loops serves 1-, 2- and 3-d windows, NCHW, NHWC and any
//! strided view alike.

use crate::Layout;

/// One operand: its batch items, channels and spatial positions.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    /// The element offset of each batch item (the layout's offset included).
    pub(crate) batch: Vec<isize>,
    /// The number of channels.
    pub(crate) channels: usize,
    /// The channel stride.
    pub(crate) c: isize,
    /// The spatial sizes, outermost first.
    pub(crate) size: [usize; 3],
    /// The spatial strides.
    pub(crate) s: [isize; 3],
}

impl Grid {
    /// The grid of `layout` whose channel dim is `channel` (none: one
    /// channel) and spatial dims `spatial` (at most three); the other dims
    /// are batch dims, walked in their order.
    pub(crate) fn new(layout: &Layout, channel: Option<usize>, spatial: &[usize]) -> Grid {
        debug_assert!(spatial.len() <= 3);
        let (shape, strides) = (layout.shape(), layout.strides());
        let mut size = [1usize; 3];
        let mut s = [0isize; 3];
        let lead = 3 - spatial.len();
        for (i, &d) in spatial.iter().enumerate() {
            size[lead + i] = shape[d];
            s[lead + i] = strides[d];
        }
        let batch_dims: Vec<usize> = (0..shape.len())
            .filter(|d| Some(*d) != channel && !spatial.contains(d))
            .collect();
        let mut batch = vec![layout.offset() as isize];
        for &d in &batch_dims {
            let mut next = Vec::with_capacity(batch.len() * shape[d]);
            for &b in &batch {
                for i in 0..shape[d] {
                    next.push(b + i as isize * strides[d]);
                }
            }
            batch = next;
        }
        let (channels, c) = channel.map_or((1, 0), |d| (shape[d], strides[d]));
        Grid {
            batch,
            channels,
            c,
            size,
            s,
        }
    }

    /// The number of spatial positions.
    pub(crate) fn positions(&self) -> usize {
        self.size.iter().product()
    }

    /// The stride of the flat position index when the spatial dims merge
    /// into one (dims of size 1 merge with anything).
    pub(crate) fn flat_stride(&self) -> Option<isize> {
        let mut stride: Option<isize> = None;
        let mut expected: Option<isize> = None;
        for d in (0..3).rev() {
            if self.size[d] == 1 {
                continue;
            }
            match expected {
                None => stride = Some(self.s[d]),
                Some(e) if e != self.s[d] => return None,
                Some(_) => {}
            }
            expected = Some(self.s[d] * self.size[d] as isize);
        }
        Some(stride.unwrap_or(1))
    }

    /// The element offset of spatial position `(d, h, w)`.
    #[inline(always)]
    pub(crate) fn at(&self, d: usize, h: usize, w: usize) -> isize {
        d as isize * self.s[0] + h as isize * self.s[1] + w as isize * self.s[2]
    }
}

/// A sliding window over three spatial dims.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    /// Kernel sizes.
    pub(crate) k: [usize; 3],
    /// Strides.
    pub(crate) stride: [usize; 3],
    /// Dilations.
    pub(crate) dil: [usize; 3],
    /// Padding before each dim.
    pub(crate) pad: [usize; 3],
}

impl Window {
    /// The window of up to three spatial dims (leading dims filled with a
    /// kernel of 1).
    pub(crate) fn new(k: &[usize], stride: &[usize], dil: &[usize], pad: &[usize]) -> Window {
        let fill = |v: &[usize], one: usize| {
            let mut a = [one; 3];
            a[3 - v.len()..].copy_from_slice(v);
            a
        };
        Window {
            k: fill(k, 1),
            stride: fill(stride, 1),
            dil: fill(dil, 1),
            pad: fill(pad, 0),
        }
    }

    /// The number of kernel taps.
    pub(crate) fn taps(&self) -> usize {
        self.k.iter().product()
    }

    /// The taps `(kd, kh, kw)` in row-major order.
    pub(crate) fn tap(&self, t: usize) -> [usize; 3] {
        [
            t / (self.k[1] * self.k[2]),
            t / self.k[2] % self.k[1],
            t % self.k[2],
        ]
    }

    /// The input index of output index `o` at tap `k` along dim `d`, when
    /// inside an input of `n`.
    #[inline(always)]
    pub(crate) fn source(&self, d: usize, o: usize, k: usize, n: usize) -> Option<usize> {
        let i = (o * self.stride[d] + k * self.dil[d]).checked_sub(self.pad[d])?;
        (i < n).then_some(i)
    }

    /// The outputs `o` in `0..out` whose tap `k` along dim `d` reads inside
    /// an input of `n`: one range, since the source grows with `o`.
    pub(crate) fn valid_outputs(&self, d: usize, k: usize, n: usize, out: usize) -> (usize, usize) {
        let (s, off) = (self.stride[d], k * self.dil[d]);
        // o·s + off ≥ pad  ⇔  o ≥ ⌈(pad − off) / s⌉
        let lo = self.pad[d].saturating_sub(off).div_ceil(s).min(out);
        // o·s + off − pad < n  ⇔  o·s < n + pad − off
        let limit = (n + self.pad[d]).saturating_sub(off);
        let hi = limit.div_ceil(s).min(out).max(lo);
        (lo, hi)
    }

    /// True for a 1×1 window with stride 1 and no padding: the output
    /// positions are the input's.
    pub(crate) fn is_pointwise(&self) -> bool {
        self.k == [1; 3] && self.stride == [1; 3] && self.pad == [0; 3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_outputs_match_the_definition() {
        for (k, s, d, p, n) in [
            (3, 1, 1, 1, 5),
            (3, 2, 1, 0, 7),
            (5, 3, 2, 4, 9),
            (2, 4, 3, 6, 3),
        ] {
            let w = Window::new(&[k], &[s], &[d], &[p]);
            let out = (n + 2 * p).saturating_sub(d * (k - 1) + 1) / s + 1;
            for t in 0..k {
                let (lo, hi) = w.valid_outputs(2, t, n, out);
                for o in 0..out {
                    let inside = w.source(2, o, t, n).is_some();
                    assert_eq!(
                        inside,
                        (lo..hi).contains(&o),
                        "k{k} s{s} d{d} p{p} n{n} t{t} o{o}"
                    );
                }
            }
        }
    }

    #[test]
    fn grids_list_batch_items_and_merge_positions() {
        // NHWC [2, 3, 4, 5] seen as N, C = dim 3, spatial (1, 2).
        let l = Layout::contiguous(&[2, 3, 4, 5]);
        let g = Grid::new(&l, Some(3), &[1, 2]);
        assert_eq!(g.batch, vec![0, 60]);
        assert_eq!(
            (g.channels, g.c, g.size, g.s),
            (5, 1, [1, 3, 4], [0, 20, 5])
        );
        assert_eq!(g.flat_stride(), Some(5));
        let t = l.transpose(1, 2).unwrap();
        assert_eq!(Grid::new(&t, Some(3), &[1, 2]).flat_stride(), None);
    }
}
