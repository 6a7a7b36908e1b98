//! Convolution, pooling and batch norm on the CUDA device against the CPU
//! device's kernels (which `axial-core`'s `torch_conv` holds to PyTorch's
//! answers), over random configurations: 1-, 2- and 3-d, stride,
//! padding (zeros and reflect), dilation, groups (depthwise included),
//! batch 0 and 1, channels-first, channels-last and strided inputs, f32,
//! f64 and f16. A configuration PyTorch refuses must be refused with the
//! same message on both devices. Each test needs a CUDA device, a GPU or
//! the stand-in of `cuda-stub/`, and says that it skipped without one.
#![cfg(feature = "cuda")]

use axial_core::nn::{ConvAxes, ConvOptions, Padding, PaddingMode, PoolOptions};
use axial_core::ops::ChannelAffine;
use axial_core::{
    Backend, BinaryOp, Cpu, DType, Generator, Output, RawTensor, Result, TensorRef, UnaryOp,
    device::transfer,
};
use axial_cuda::Cuda;
use axial_cuda::testing::device_or_skip;

/// A small generator of configurations (splitmix64), independent of the
/// tensors' own.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    fn int(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }

    fn coin(&mut self, one_in: u64) -> bool {
        self.next().is_multiple_of(one_in)
    }

    fn each(&mut self, n: usize, lo: usize, hi: usize) -> Vec<usize> {
        (0..n).map(|_| self.int(lo, hi)).collect()
    }
}

/// How the input is laid out.
#[derive(Copy, Clone, Debug)]
enum Form {
    /// `[N, C, spatial...]`, contiguous.
    ChannelsFirst,
    /// `[N, spatial..., C]`, contiguous: the channel dim is last.
    ChannelsLast,
    /// `[N, C, spatial...]` as every other element of a tensor twice as
    /// long in its last dim.
    Strided,
}

/// An input of `n` batch items, `c` channels and `spatial` sizes laid out
/// as `form`, on the CPU and the GPU (the same values, the same view), and
/// the dims of its channel and spatial axes.
struct Input {
    cpu: RawTensor,
    gpu: RawTensor<Cuda>,
    form: Form,
    axes: ConvAxes,
}

impl Input {
    fn new(gpu: &Cuda, shape: &[usize], form: Form, dtype: DType, rng: &mut Generator) -> Self {
        Self::with_nans(gpu, shape, form, dtype, rng, false)
    }

    /// As [`Input::new`], with NaN in about one element of 15 when `nans`.
    fn with_nans(
        gpu: &Cuda,
        shape: &[usize],
        form: Form,
        dtype: DType,
        rng: &mut Generator,
        nans: bool,
    ) -> Self {
        let nd = shape.len() - 2;
        let mut base_shape = shape.to_vec();
        match form {
            Form::ChannelsFirst => {}
            Form::ChannelsLast => {
                base_shape.remove(1);
                base_shape.push(shape[1]);
            }
            Form::Strided => *base_shape.last_mut().unwrap() *= 2,
        }
        let mut cpu = RawTensor::randn(&base_shape, DType::F32, rng).unwrap();
        if nans {
            // √(x + 1.5): NaN where x < −1.5.
            cpu = cpu
                .view()
                .binary_scalar(BinaryOp::Add, 1.5.into())
                .and_then(|t| t.view().unary(UnaryOp::Sqrt))
                .unwrap();
        }
        let cpu = cpu.view().to_dtype(dtype).unwrap();
        let gpu_t = transfer(&cpu.view(), gpu).unwrap();
        let axes = match form {
            Form::ChannelsLast => ConvAxes::new(nd + 1, &(1..=nd).collect::<Vec<_>>()),
            _ => ConvAxes::channels_first(nd + 2, nd),
        };
        Input {
            cpu,
            gpu: gpu_t,
            form,
            axes,
        }
    }

    fn view<'a, D: axial_core::Backend>(&self, t: &'a RawTensor<D>) -> TensorRef<'a, D> {
        match self.form {
            Form::Strided => {
                let last = t.shape().len() - 1;
                t.view().slice(last as isize, None, None, 2).unwrap()
            }
            _ => t.view(),
        }
    }
}

/// Row-major values as f64.
fn f64s<D: axial_core::Backend>(t: &RawTensor<D>) -> Vec<f64> {
    t.view()
        .to_dtype(DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap()
}

/// The GPU's result equals the CPU's within `tol` relative to the largest
/// magnitude (sums of different orders), or both are the same error.
#[track_caller]
fn same(cpu: Result<RawTensor>, gpu: Result<RawTensor<Cuda>>, tol: f64, what: &str) -> bool {
    match (cpu, gpu) {
        (Ok(c), Ok(g)) => {
            assert_eq!(c.shape(), g.shape(), "{what}: shapes");
            assert_eq!(c.dtype(), g.dtype(), "{what}: dtypes");
            let (c, g) = (f64s(&c), f64s(&g));
            let scale = c.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for (i, (a, b)) in c.iter().zip(&g).enumerate() {
                assert!(
                    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol * scale,
                    "{what}: element {i}: CPU {a}, CUDA {b}"
                );
            }
            true
        }
        (Err(c), Err(g)) => {
            assert_eq!(c.to_string(), g.to_string(), "{what}: errors");
            false
        }
        (c, g) => panic!(
            "{what}: CPU {:?}, CUDA {:?}",
            c.map(|t| t.shape().to_vec()),
            g.map(|t| t.shape().to_vec())
        ),
    }
}

fn tol(dtype: DType) -> f64 {
    match dtype {
        DType::F64 => 1e-12,
        DType::F16 => 1e-2,
        _ => 1e-5,
    }
}

const FORMS: [Form; 3] = [Form::ChannelsFirst, Form::ChannelsLast, Form::Strided];
const DTYPES: [DType; 3] = [DType::F32, DType::F64, DType::F16];

#[test]
fn convolutions_match_the_cpu() {
    let Some(gpu) = device_or_skip("convolutions_match_the_cpu") else {
        return;
    };
    let mut d = Draw(30);
    let mut rng = Generator::seed(30);
    let (mut ran, mut refused, mut depthwise) = (0, 0, 0);
    for case in 0..90 {
        let nd = [2, 2, 1, 3][case % 4];
        let form = FORMS[case % 3];
        let dtype = DTYPES[case / 3 % 3];
        let groups = d.int(1, 3);
        let dw = d.coin(3);
        let cin = if dw { groups } else { groups * d.int(1, 3) };
        let cout = groups * d.int(1, 2);
        let batch = [1, 2, 0][d.int(0, 2)];
        let sizes = d.each(nd, 1, if nd == 3 { 4 } else { 9 });
        let kernel = d.each(nd, 1, if nd == 3 { 3 } else { 5 });
        let mut o = ConvOptions::new()
            .stride(&d.each(nd, 1, 3))
            .dilation(&d.each(nd, 1, 2))
            .groups(groups);
        o = match d.int(0, 4) {
            0 => o.padding(Padding::Same).stride(&vec![1; nd]),
            1 => o
                .padding(Padding::Both(d.each(nd, 0, 2)))
                .padding_mode(PaddingMode::Reflect),
            _ => o.padding(Padding::Both(d.each(nd, 0, 2))),
        };
        if d.coin(4) {
            o = o.clamp(0.0, 0.5);
        }
        let mut shape = vec![batch, cin];
        shape.extend(&sizes);
        let x = Input::new(&gpu, &shape, form, dtype, &mut rng);
        let mut wshape = vec![cout, cin / groups];
        wshape.extend(&kernel);
        let w = RawTensor::randn(&wshape, DType::F32, &mut rng)
            .and_then(|t| t.view().to_dtype(dtype))
            .unwrap();
        let b = RawTensor::randn(&[cout], DType::F32, &mut rng)
            .and_then(|t| t.view().to_dtype(dtype))
            .unwrap();
        let (wg, bg) = (
            transfer(&w.view(), &gpu).unwrap(),
            transfer(&b.view(), &gpu).unwrap(),
        );
        let with_bias = d.coin(2);
        let cpu =
            x.view(&x.cpu)
                .conv_axes(&w.view(), with_bias.then(|| b.view()).as_ref(), &x.axes, &o);
        let on_gpu = x.view(&x.gpu).conv_axes(
            &wg.view(),
            with_bias.then(|| bg.view()).as_ref(),
            &x.axes,
            &o,
        );
        let what = format!("case {case}: {form:?} {dtype:?} x {shape:?} w {wshape:?} {o:?}");
        if same(cpu, on_gpu, tol(dtype), &what) {
            ran += 1;
            depthwise += usize::from(dw && groups > 1);
        } else {
            refused += 1;
        }
    }
    eprintln!("conv: {ran} ran, {refused} refused, {depthwise} depthwise");
    assert!(
        ran >= 45 && refused >= 1 && depthwise >= 5,
        "{ran} ran, {refused} refused, {depthwise} depthwise"
    );
}

#[test]
fn pooling_matches_the_cpu() {
    let Some(gpu) = device_or_skip("pooling_matches_the_cpu") else {
        return;
    };
    let mut d = Draw(31);
    let mut rng = Generator::seed(31);
    let mut ran = 0;
    for case in 0..90 {
        let nd = [2, 1, 3][case % 3];
        let form = FORMS[case / 3 % 3];
        let dtype = DTYPES[case / 9 % 3];
        let batch = [1, 2, 0][d.int(0, 2)];
        let mut shape = vec![batch, d.int(1, 3)];
        shape.extend(d.each(nd, 1, if nd == 3 { 5 } else { 8 }));
        let x = Input::with_nans(&gpu, &shape, form, dtype, &mut rng, case % 4 == 0);
        let kernel = d.each(nd, 1, if nd == 3 { 3 } else { 4 });
        let pad: Vec<usize> = kernel.iter().map(|&k| d.int(0, k / 2)).collect();
        let max = case % 2 == 0;
        let mut o = PoolOptions::new(&kernel)
            .stride(&d.each(nd, 1, 3))
            .padding(&pad)
            .ceil_mode(d.coin(2));
        if max {
            o = o.dilation(&d.each(nd, 1, 2));
        } else {
            o = o
                .count_include_pad(d.coin(2))
                .divisor_override(d.coin(4).then_some(3));
        }
        let spatial = x.axes.spatial.clone();
        let what = format!("case {case}: {form:?} {dtype:?} x {shape:?} {o:?}");
        let (xc, xg) = (x.view(&x.cpu), x.view(&x.gpu));
        if max {
            let c = xc.max_pool_with_indices_axes(&spatial, &o);
            let g = xg.max_pool_with_indices_axes(&spatial, &o);
            let (ci, gi) = match (&c, &g) {
                (Ok((_, ci)), Ok((_, gi))) => (Some(f64s(ci)), Some(f64s(gi))),
                _ => (None, None),
            };
            assert_eq!(ci, gi, "{what}: indices");
            ran += usize::from(same(c.map(|r| r.0), g.map(|r| r.0), 0.0, &what));
        } else {
            let c = xc.avg_pool_axes(&spatial, &o);
            let g = xg.avg_pool_axes(&spatial, &o);
            ran += usize::from(same(c, g, tol(dtype), &what));
        }
    }
    assert!(ran >= 45, "{ran} ran");
}

#[test]
fn batch_norm_matches_the_cpu() {
    let Some(gpu) = device_or_skip("batch_norm_matches_the_cpu") else {
        return;
    };
    let mut d = Draw(32);
    let mut rng = Generator::seed(32);
    for case in 0..24 {
        let nd = [2, 1, 3][case % 3];
        let form = FORMS[case / 3 % 3];
        let dtype = DTYPES[case / 9 % 3];
        let c = d.int(1, 4);
        let mut shape = vec![[1, 2, 0][case % 3], c];
        shape.extend(d.each(nd, 1, 5));
        let x = Input::new(&gpu, &shape, form, dtype, &mut rng);
        let stat = |rng: &mut Generator, positive: bool| {
            let t = RawTensor::randn(&[c], DType::F32, rng).unwrap();
            let t = if positive {
                t.view()
                    .unary(UnaryOp::Abs)
                    .and_then(|a| a.view().binary_scalar(BinaryOp::Add, 0.1.into()))
                    .unwrap()
            } else {
                t
            };
            t.view().to_dtype(dtype).unwrap()
        };
        let (mean, var, weight, bias) = (
            stat(&mut rng, false),
            stat(&mut rng, true),
            stat(&mut rng, false),
            stat(&mut rng, false),
        );
        let on = |t: &RawTensor| transfer(&t.view(), &gpu).unwrap();
        let (mg, vg, wg, bg) = (on(&mean), on(&var), on(&weight), on(&bias));
        let affine = case % 2 == 0;
        let ch = x.axes.channel;
        let cpu = x.view(&x.cpu).batch_norm_axes(
            ch,
            &mean.view(),
            &var.view(),
            affine.then(|| weight.view()).as_ref(),
            affine.then(|| bias.view()).as_ref(),
            1e-5,
        );
        let g = x.view(&x.gpu).batch_norm_axes(
            ch,
            &mg.view(),
            &vg.view(),
            affine.then(|| wg.view()).as_ref(),
            affine.then(|| bg.view()).as_ref(),
            1e-5,
        );
        let what = format!("case {case}: {form:?} {dtype:?} x {shape:?}");
        // One product and one sum, each rounded as the CPU rounds them.
        assert!(same(cpu, g, 0.0, &what), "{what}: refused");
    }
}

#[test]
fn kernels_refuse_operands_that_disagree() {
    let Some(gpu) = device_or_skip("kernels_refuse_operands_that_disagree") else {
        return;
    };
    use axial_core::Layout;
    use axial_core::ops::{ConvArgs, PoolArgs, PoolReduction};
    let x = RawTensor::zeros_on(&gpu, &[1, 2, 4, 4], DType::F32).unwrap();
    let w = RawTensor::zeros_on(&gpu, &[3, 2, 3, 3], DType::F32).unwrap();
    let mut y = RawTensor::zeros_on(&gpu, &[1, 3, 2, 2], DType::F32).unwrap();

    // Three groups of 2 / 3 input channels: refused, nothing launched.
    let a = ConvArgs {
        groups: 3,
        ..ConvArgs::new(1, &[2, 3])
    };
    let e = gpu
        .conv(&a, x.view().input(), w.view().input(), None, out(&mut y))
        .unwrap_err();
    assert!(e.to_string().contains("kernel operands"), "{e}");
    // A spatial dim named twice.
    let p = PoolArgs::new(Some(1), &[2, 2], &[2, 2], PoolReduction::Max);
    let e = gpu
        .pool(&p, x.view().input(), out(&mut y), None)
        .unwrap_err();
    assert!(e.to_string().contains("kernel operands"), "{e}");
    // An output that is not on the device is refused by the layout checks.
    let bad = Output {
        layout: Layout::contiguous(&[1, 3, 9, 9]),
        dtype: DType::F32,
        storage: y.storage_mut(),
    };
    let a = ConvArgs::new(1, &[2, 3]);
    assert!(
        gpu.conv(&a, x.view().input(), w.view().input(), None, bad)
            .is_err()
    );
}

/// The kernel operand that writes `t`.
fn out<D: Backend>(t: &mut RawTensor<D>) -> Output<'_, D> {
    Output {
        layout: t.layout().clone(),
        dtype: t.dtype(),
        storage: t.storage_mut(),
    }
}

#[test]
fn affine_maps_per_item_and_channel_match_the_cpu() {
    let Some(gpu) = device_or_skip("affine_maps_per_item_and_channel_match_the_cpu") else {
        return;
    };
    let mut rng = Generator::seed(33);
    for dtype in [DType::F32, DType::F64] {
        // NHWC [2, 3, 2, 4]: channels are dim 3, positions dims 1 and 2;
        // one scale and shift per (item, channel) as group norm makes them.
        let x = RawTensor::randn(&[2, 3, 2, 4], dtype, &mut rng).unwrap();
        let xg = transfer(&x.view(), &gpu).unwrap();
        let scale: Vec<f64> = (0..8).map(|i| 0.5 + i as f64 / 7.0).collect();
        let shift: Vec<f64> = (0..8).map(|i| i as f64 / 3.0 - 1.0).collect();
        let op = ChannelAffine {
            channel: 3,
            spatial: vec![1, 2],
        };
        let mut yc = RawTensor::zeros(&[2, 3, 2, 4], dtype).unwrap();
        let mut yg = RawTensor::zeros_on(&gpu, &[2, 3, 2, 4], dtype).unwrap();
        Cpu.channel_affine(&op, x.view().input(), &scale, &shift, out(&mut yc))
            .unwrap();
        gpu.channel_affine(&op, xg.view().input(), &scale, &shift, out(&mut yg))
            .unwrap();
        assert_eq!(f64s(&yc), f64s(&yg), "{dtype:?}");
        // A count that is neither per channel nor per item and channel.
        let e = gpu
            .channel_affine(
                &op,
                xg.view().input(),
                &scale[..5],
                &shift[..5],
                out(&mut yg),
            )
            .unwrap_err();
        assert!(e.to_string().contains("kernel operands"), "{e}");
    }
}
