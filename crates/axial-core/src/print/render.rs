//! The nested brackets (PyTorch's `_tensor_str_with_formatter` and
//! `_vector_str`): rows wrapped at [`LINE_WIDTH`], `...` where a summarised
//! dimension is cut, one blank line more between blocks of each higher rank.

use super::gather::kept_ranges;
use super::{EDGE_ITEMS, LINE_WIDTH};

/// The elements of one (sub)tensor, already written and padded.
pub(super) struct Block<'a> {
    /// The sizes of the (sub)tensor, before summarising.
    pub(super) shape: &'a [usize],
    /// Its shown elements, row-major over the kept sizes.
    pub(super) elements: &'a [String],
    /// Whether dimensions longer than twice [`EDGE_ITEMS`] are cut.
    pub(super) summarize: bool,
    /// The common element width.
    pub(super) width: usize,
}

impl Block<'_> {
    /// Appends the block's text to `out`; `indent` is the column of its `[`.
    pub(super) fn write(&self, indent: usize, out: &mut String) {
        match self.shape {
            [] => out.push_str(self.elements.first().map_or("", String::as_str)),
            [size] => self.write_vector(*size, indent, out),
            [size, inner @ ..] => self.write_nested(*size, inner, indent, out),
        }
    }

    fn write_vector(&self, size: usize, indent: usize, out: &mut String) {
        let mut items: Vec<&str> = self.elements.iter().map(String::as_str).collect();
        if is_cut(size, self.summarize) {
            items.insert(EDGE_ITEMS, " ...");
        }
        let per_line = (LINE_WIDTH.saturating_sub(indent) / (self.width + 2)).max(1);
        out.push('[');
        for (i, line) in items.chunks(per_line).enumerate() {
            if i > 0 {
                out.push_str(",\n");
                push_spaces(out, indent + 1);
            }
            out.push_str(&line.join(", "));
        }
        out.push(']');
    }

    fn write_nested(&self, size: usize, inner: &[usize], indent: usize, out: &mut String) {
        let kept: usize = kept_ranges(size, self.summarize)
            .iter()
            .map(|r| r.len())
            .sum();
        let stride = (self.elements.len() / kept.max(1)).max(1);
        let separator = |out: &mut String| {
            out.push(',');
            out.extend(std::iter::repeat_n('\n', inner.len()));
            push_spaces(out, indent + 1);
        };
        out.push('[');
        for (k, chunk) in self.elements.chunks(stride).enumerate() {
            if k > 0 {
                separator(out);
            }
            if k == EDGE_ITEMS && is_cut(size, self.summarize) {
                out.push_str("...");
                separator(out);
            }
            let sub = Block {
                shape: inner,
                elements: chunk,
                ..*self
            };
            sub.write(indent + 1, out);
        }
        out.push(']');
    }
}

fn is_cut(size: usize, summarize: bool) -> bool {
    summarize && size > 2 * EDGE_ITEMS
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}
