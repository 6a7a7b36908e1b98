//! Named axes: a batch of images stored NCHW (batch, channels, height,
//! width) seen as NHWC. `align_to` says it with names, `rearrange!` with an
//! einops pattern over the same names; the positional spelling, PyTorch's
//! `permute(0, 2, 3, 1)`, says it with numbers that must be read against the
//! storage order. All are views with the same strides; only the named ones
//! catch a mistake: leaving an axis out of `align_to`, or naming one the
//! tensor lacks, does not compile (the ui-tests `align_to_missing.rs` and
//! `align_to_absent.rs`), nor does a pattern whose left side is not the
//! tensor's axes (`einops_wrong_axis.rs`). A convolution finds its channel
//! and spatial axes by name too, so an NHWC batch and an NCHW one are one
//! op; a weight of the wrong in-channels does not compile
//! (`conv_in_channels.rs`).

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::{layout, names};

axes!(N, C, H, W);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let images = Tensor::<f32, shape![N: 2, C: 3, H: 4, W: 5]>::zeros();
    writeln!(out, "images, stored NCHW:")?;
    writeln!(out, "    names {}, {}", names(&images), layout(&images))?;

    let nhwc = images.as_view().align_to::<names![N, H, W, C]>();
    writeln!(out, "images.align_to(N, H, W, C), by name:")?;
    writeln!(out, "    names {}, {}", names(&nhwc), layout(&nhwc))?;

    // The same view as an einops pattern, checked while compiling.
    let by_pattern = rearrange!(images.as_view(), "N C H W -> N H W C");
    writeln!(
        out,
        "rearrange(images, \"N C H W -> N H W C\"), by pattern:"
    )?;
    writeln!(
        out,
        "    names {}, {}",
        names(&by_pattern),
        layout(&by_pattern)
    )?;

    // `...` stands for the axes not named, in their order.
    let channels_last = images.as_view().align_to::<names![N, ..., C]>();
    writeln!(out, "images.align_to(N, ..., C), the rest in order:")?;
    writeln!(
        out,
        "    names {}, {}",
        names(&channels_last),
        layout(&channels_last)
    )?;

    // The same permutation by position, on a tensor whose axes have no names.
    let anonymous = Tensor::<f32, shape![2, 3, 4, 5]>::zeros();
    let permuted = anonymous
        .as_view()
        .permute::<names![Anon<0>, Anon<2>, Anon<3>, Anon<1>]>();
    writeln!(out, "anonymous.permute(0, 2, 3, 1), by position:")?;
    writeln!(out, "    names {}, {}", names(&permuted), layout(&permuted))?;

    writeln!(
        out,
        "same strides: {}; views, no copy: {}",
        nhwc.strides() == by_pattern.strides() && nhwc.strides() == permuted.strides(),
        nhwc.shares_storage_with(&images)
            && by_pattern.shares_storage_with(&images)
            && permuted.shares_storage_with(&anonymous)
    )?;

    // A convolution by name: the channel axis `C` and the spatial axes `H`,
    // `W` are found wherever they are, so the NHWC view and the NCHW tensor
    // are one op, neither copied; the output lengths are in the type.
    let x = Tensor::<f32, shape![N: 2, C: 3, H: 4, W: 5]>::arange();
    let w = Tensor::<f32, shape![8, 3, 3, 3]>::full(0.5);
    let by_nchw = x.conv(C, (H, W), &w, None, Conv::<1, 1>);
    let nhwc_view = x.as_view().align_to::<names![N, H, W, C]>();
    let by_nhwc = nhwc_view.conv(C, (H, W), &w, None, Conv::<1, 1>);
    writeln!(
        out,
        "the NHWC view convolved over (H, W) by name, 8 filters 3x3, padding 1:"
    )?;
    writeln!(out, "    names {}, {}", names(&by_nhwc), layout(&by_nhwc))?;
    let aligned = by_nhwc.as_view().align_to::<names![N, C, H, W]>().to_vec();
    writeln!(
        out,
        "the same values as the NCHW tensor's: {}",
        aligned == by_nchw.to_vec()
    )?;
    Ok(())
}
