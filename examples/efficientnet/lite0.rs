//! EfficientNet-Lite0 with every shape in the type, as PyPI's
//! `efficientnet-lite-pytorch` 0.1.0 builds it (`model.py`, `utils.py`):
//! a 3×3 stem with stride 2, sixteen MBConv blocks (a 1×1 expansion, a
//! depthwise 3×3 or 5×5, a 1×1 projection; ReLU6, applied by each
//! convolution's kernel as it writes its output (`conv_relu6`); no squeeze-excitation;
//! the input added back where the block keeps its shape), a 1×1 head to
//! 1280 channels, global average pooling and a linear layer to 1000
//! classes. Every convolution pads as TensorFlow's `SAME` does
//! (`Conv2dStaticSamePadding`: `TfSame` here).
//!
//! The feature maps are NHWC (`[Batch, Rows, Cols, Channels]`), the layout
//! the kernels prefer; the weights are PyTorch's `[out, in / groups, k, k]`
//! read from the checkpoint and each batch norm is folded into the
//! convolution before it when the model loads (`fold_batch_norm`). The
//! output lengths of every convolution are computed while compiling: a
//! block declared with the wrong sizes does not build.

// Each includer (the example, the test, the bench) uses a part of this.
#![allow(dead_code)]
// The weights spell their shapes out (`shape![32, 3, 3, 3]`): clippy counts
// the nested types the macro expands to, where the reader sees four sizes.
#![allow(clippy::type_complexity)]

use std::path::{Path, PathBuf};

use axial::prelude::*;
use axial::shape::{Ax, Nil, Shape};
use axial_io::TensorMap;
use axial_io::torch::{self, Checkpoint};

axes!(pub(crate) Batch, pub(crate) Rows, pub(crate) Cols, pub(crate) Channels, pub(crate) Classes);

/// Every error of loading and running the model.
pub(crate) type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// A feature map of `C` channels, `H`×`H` pixels, a run-time batch.
pub(crate) type Map<const H: usize, const C: usize> =
    Tensor<f32, shape![Batch: Dyn, Rows: Sz<H>, Cols: Sz<H>, Channels: Sz<C>]>;
/// The input: RGB images, 224×224, NHWC.
pub(crate) type Images = Map<224, 3>;
/// One logit per ImageNet class.
pub(crate) type Logits = Tensor<f32, shape![Batch: Dyn, Classes: 1000]>;

/// Batch norm's epsilon in this model (`batch_norm_epsilon=1e-3`).
const EPS: f64 = 1e-3;

/// The folder of the weights, images and class names
/// (`bench/fetch_efficientnet.sh`), or `AXIAL_EFFICIENTNET`.
pub(crate) fn data_dir() -> PathBuf {
    std::env::var_os("AXIAL_EFFICIENTNET").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target/efficientnet"),
        PathBuf::from,
    )
}

/// A convolution's weight `W` and bias `[out]`, a batch norm folded in.
pub(crate) struct ConvBn<W: Shape, B: Shape> {
    weight: Tensor<f32, W>,
    bias: Tensor<f32, B>,
}

/// Loads `{conv}.weight` and folds the batch norm `{bn}` into it.
fn conv_bn<O, OS, Rest>(
    ckpt: &Checkpoint,
    conv: &str,
    bn: &str,
) -> Result<ConvBn<Ax<O, OS, Rest>, Ax<O, OS, Nil>>>
where
    Ax<O, OS, Rest>: Shape,
    Ax<O, OS, Nil>: Shape,
{
    let w = ckpt.typed::<f32, Ax<O, OS, Rest>>(&format!("{conv}.weight"))?;
    let stat = |name: &str| ckpt.typed::<f32, Ax<O, OS, Nil>>(&format!("{bn}.{name}"));
    let (mean, var, gamma, beta) = (
        stat("running_mean")?,
        stat("running_var")?,
        stat("weight")?,
        stat("bias")?,
    );
    let (weight, bias) =
        w.try_fold_batch_norm(None, &mean, &var, Some(&gamma), Some(&beta), EPS)?;
    Ok(ConvBn { weight, bias })
}

/// One MBConv block, its sizes written out: `$cin` channels of `$hin`×`$hin`
/// in, widened to `$mid`, a depthwise `$k`×`$k` of stride `$s` to
/// `$hout`×`$hout`, projected to `$cout`; the input added back (`skip`)
/// where the shapes agree. The declared output type is checked against the
/// one the convolutions compute.
macro_rules! mbconv {
    ($name:ident: $cin:literal -> $mid:literal -> $cout:literal, k $k:literal, s $s:literal, $hin:literal -> $hout:literal $(, $skip:ident)?) => {
        pub(crate) struct $name {
            expand: ConvBn<shape![$mid, $cin, 1, 1], shape![$mid]>,
            depthwise: ConvBn<shape![$mid, 1, $k, $k], shape![$mid]>,
            project: ConvBn<shape![$cout, $mid, 1, 1], shape![$cout]>,
        }

        impl $name {
            fn load(ckpt: &Checkpoint, i: usize) -> Result<Self> {
                let b = format!("_blocks.{i}");
                Ok($name {
                    expand: conv_bn(ckpt, &format!("{b}._expand_conv"), &format!("{b}._bn0"))?,
                    depthwise: conv_bn(ckpt, &format!("{b}._depthwise_conv"), &format!("{b}._bn1"))?,
                    project: conv_bn(ckpt, &format!("{b}._project_conv"), &format!("{b}._bn2"))?,
                })
            }

            fn forward(&self, x: &Map<$hin, $cin>) -> Map<$hout, $cout> {
                let (e, d, p) = (&self.expand, &self.depthwise, &self.project);
                let wide = x.conv_relu6(Channels, (Rows, Cols), &e.weight, Some(e.bias.as_view()), Conv::<1>);
                let deep = wide.conv_relu6(Channels, (Rows, Cols), &d.weight, Some(d.bias.as_view()), TfSame::<$s, 1, $mid>);
                let out = deep.conv(Channels, (Rows, Cols), &p.weight, Some(p.bias.as_view()), Conv::<1>);
                mbconv!(@skip $($skip)? out, x)
            }
        }
    };
    (@skip skip $out:ident, $x:ident) => { $out + $x };
    (@skip $out:ident, $x:ident) => { $out };
}

/// The first block: no expansion (its ratio is 1), 32 to 16 channels.
pub(crate) struct Block0 {
    depthwise: ConvBn<shape![32, 1, 3, 3], shape![32]>,
    project: ConvBn<shape![16, 32, 1, 1], shape![16]>,
}

impl Block0 {
    fn load(ckpt: &Checkpoint) -> Result<Self> {
        Ok(Block0 {
            depthwise: conv_bn(ckpt, "_blocks.0._depthwise_conv", "_blocks.0._bn1")?,
            project: conv_bn(ckpt, "_blocks.0._project_conv", "_blocks.0._bn2")?,
        })
    }

    fn forward(&self, x: &Map<112, 32>) -> Map<112, 16> {
        let (d, p) = (&self.depthwise, &self.project);
        let deep = x.conv_relu6(
            Channels,
            (Rows, Cols),
            &d.weight,
            Some(d.bias.as_view()),
            TfSame::<1, 1, 32>,
        );
        deep.conv(
            Channels,
            (Rows, Cols),
            &p.weight,
            Some(p.bias.as_view()),
            Conv::<1>,
        )
    }
}

mbconv!(Block1: 16 -> 96 -> 24, k 3, s 2, 112 -> 56);
mbconv!(Block2: 24 -> 144 -> 24, k 3, s 1, 56 -> 56, skip);
mbconv!(Block3: 24 -> 144 -> 40, k 5, s 2, 56 -> 28);
mbconv!(Block4: 40 -> 240 -> 40, k 5, s 1, 28 -> 28, skip);
mbconv!(Block5: 40 -> 240 -> 80, k 3, s 2, 28 -> 14);
mbconv!(Block6: 80 -> 480 -> 80, k 3, s 1, 14 -> 14, skip);
mbconv!(Block7: 80 -> 480 -> 112, k 5, s 1, 14 -> 14);
mbconv!(Block8: 112 -> 672 -> 112, k 5, s 1, 14 -> 14, skip);
mbconv!(Block9: 112 -> 672 -> 192, k 5, s 2, 14 -> 7);
mbconv!(Block10: 192 -> 1152 -> 192, k 5, s 1, 7 -> 7, skip);
mbconv!(Block11: 192 -> 1152 -> 320, k 3, s 1, 7 -> 7);

/// The whole network's weights, typed when they are read.
pub(crate) struct EfficientNetLite0 {
    stem: ConvBn<shape![32, 3, 3, 3], shape![32]>,
    block0: Block0,
    block1: Block1,
    block2: Block2,
    block3: Block3,
    block4: Block4,
    block5: Block5,
    block6: [Block6; 2],
    block7: Block7,
    block8: [Block8; 2],
    block9: Block9,
    block10: [Block10; 3],
    block11: Block11,
    head: ConvBn<shape![1280, 320, 1, 1], shape![1280]>,
    fc_weight: ArcTensor<f32, shape![Classes: 1000, Channels: 1280]>,
    fc_bias: ArcTensor<f32, shape![Classes: 1000]>,
}

impl EfficientNetLite0 {
    /// Reads the checkpoint (`torch.load(weights_only=True)`'s reader, the
    /// legacy format) and types every tensor: a file of another model fails
    /// here, naming the tensor and both shapes.
    pub(crate) fn load(path: &Path) -> Result<Self> {
        let ckpt = torch::load(path)?;
        Ok(EfficientNetLite0 {
            stem: conv_bn(&ckpt, "_conv_stem", "_bn0")?,
            block0: Block0::load(&ckpt)?,
            block1: Block1::load(&ckpt, 1)?,
            block2: Block2::load(&ckpt, 2)?,
            block3: Block3::load(&ckpt, 3)?,
            block4: Block4::load(&ckpt, 4)?,
            block5: Block5::load(&ckpt, 5)?,
            block6: [Block6::load(&ckpt, 6)?, Block6::load(&ckpt, 7)?],
            block7: Block7::load(&ckpt, 8)?,
            block8: [Block8::load(&ckpt, 9)?, Block8::load(&ckpt, 10)?],
            block9: Block9::load(&ckpt, 11)?,
            block10: [
                Block10::load(&ckpt, 12)?,
                Block10::load(&ckpt, 13)?,
                Block10::load(&ckpt, 14)?,
            ],
            block11: Block11::load(&ckpt, 15)?,
            head: conv_bn(&ckpt, "_conv_head", "_bn1")?,
            fc_weight: ckpt.typed("_fc.weight")?,
            fc_bias: ckpt.typed("_fc.bias")?,
        })
    }

    /// The logits of a batch of images.
    pub(crate) fn forward(&self, x: &Images) -> Logits {
        let s = &self.stem;
        let x = x.conv_relu6(
            Channels,
            (Rows, Cols),
            &s.weight,
            Some(s.bias.as_view()),
            TfSame::<2>,
        );
        let x = self.block0.forward(&x);
        let x = self.block1.forward(&x);
        let x = self.block2.forward(&x);
        let x = self.block3.forward(&x);
        let x = self.block4.forward(&x);
        let mut x = self.block5.forward(&x);
        for b in &self.block6 {
            x = b.forward(&x);
        }
        let mut x = self.block7.forward(&x);
        for b in &self.block8 {
            x = b.forward(&x);
        }
        let mut x = self.block9.forward(&x);
        for b in &self.block10 {
            x = b.forward(&x);
        }
        let x = self.block11.forward(&x);
        let h = &self.head;
        let x = x.conv_relu6(
            Channels,
            (Rows, Cols),
            &h.weight,
            Some(h.bias.as_view()),
            Conv::<1>,
        );
        // [Batch, Channels: 1280]: the features the classifier reads by name.
        let features = x.global_avg_pool((Rows, Cols));
        features.linear(&self.fc_weight, Some(self.fc_bias.as_view()))
    }
}

/// A photograph decoded to RGB bytes, `[height, width, 3]` row by row.
pub(crate) struct Rgb {
    pub(crate) height: usize,
    pub(crate) width: usize,
    pub(crate) pixels: Vec<u8>,
}

/// Decodes a PNG file to 8-bit RGB (grey is repeated, alpha dropped).
pub(crate) fn read_png(path: &Path) -> Result<Rgb> {
    let mut decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path)?));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info()?;
    let mut buf = vec![0; reader.output_buffer_size().ok_or("image too large")?];
    let info = reader.next_frame(&mut buf)?;
    let (w, h) = (info.width as usize, info.height as usize);
    let channels = info.color_type.samples();
    let mut pixels = Vec::with_capacity(w * h * 3);
    for p in buf[..info.buffer_size()].chunks_exact(channels) {
        match channels {
            1 | 2 => pixels.extend([p[0]; 3]),
            _ => pixels.extend(&p[..3]),
        }
    }
    Ok(Rgb {
        height: h,
        width: w,
        pixels,
    })
}

/// The preprocessing, written out: the shorter side resized to 224 by
/// bilinear interpolation (PyTorch's `F.interpolate(mode='bilinear',
/// align_corners=False)`: each output pixel samples the input at `(i +
/// ½)·scale − ½`, in f32), the centre 224×224 cropped, and each channel
/// scaled as `(x − 127) / 128`, NHWC.
pub(crate) fn preprocess(img: &Rgb) -> Vec<f32> {
    const SIZE: usize = 224;
    let (h, w) = (img.height, img.width);
    let (oh, ow) = if h <= w {
        (SIZE, ((w as f64) * SIZE as f64 / h as f64).round() as usize)
    } else {
        (((h as f64) * SIZE as f64 / w as f64).round() as usize, SIZE)
    };
    // One axis's source indices and weights (PyTorch's
    // `area_pixel_compute_source_index`, non-negative, clamped).
    let taps = |n: usize, out: usize| -> Vec<(usize, usize, f32)> {
        let scale = n as f32 / out as f32;
        (0..out)
            .map(|o| {
                let src = (scale * (o as f32 + 0.5) - 0.5).max(0.0);
                let i0 = (src as usize).min(n - 1);
                let i1 = (i0 + 1).min(n - 1);
                (i0, i1, src - i0 as f32)
            })
            .collect()
    };
    let (ys, xs) = (taps(h, oh), taps(w, ow));
    let (top, left) = ((oh - SIZE) / 2, (ow - SIZE) / 2);
    let at = |y: usize, x: usize, c: usize| f32::from(img.pixels[(y * w + x) * 3 + c]);
    let mut out = Vec::with_capacity(SIZE * SIZE * 3);
    for &(y0, y1, ly) in &ys[top..top + SIZE] {
        for &(x0, x1, lx) in &xs[left..left + SIZE] {
            for c in 0..3 {
                let v = (1.0 - ly) * ((1.0 - lx) * at(y0, x0, c) + lx * at(y0, x1, c))
                    + ly * ((1.0 - lx) * at(y1, x0, c) + lx * at(y1, x1, c));
                out.push((v - 127.0) / 128.0);
            }
        }
    }
    out
}

/// A batch of photographs, preprocessed, as the model's input.
pub(crate) fn images(paths: &[PathBuf]) -> Result<Images> {
    let mut data = Vec::new();
    for p in paths {
        data.extend(preprocess(&read_png(p)?));
    }
    Ok(Tensor::try_from_vec_dyn(data, paths.len())?)
}

/// ImageNet's 1000 class names, from torchvision's `_IMAGENET_CATEGORIES`.
pub(crate) fn class_names(meta: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(meta)?;
    let start = text
        .find("_IMAGENET_CATEGORIES = [")
        .ok_or("no _IMAGENET_CATEGORIES")?;
    let body = &text[start..];
    let body = &body[..body.find(']').ok_or("unterminated list")?];
    let names: Vec<String> = body
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix('"')
                .and_then(|l| l.strip_suffix("\","))
        })
        .map(str::to_string)
        .collect();
    if names.len() != 1000 {
        return Err(format!("{} class names, expected 1000", names.len()).into());
    }
    Ok(names)
}
