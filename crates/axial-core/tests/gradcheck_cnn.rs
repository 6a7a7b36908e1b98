//! The derivatives of convolution, pooling, batch normalisation and the
//! hard activations, checked against finite differences in f64 with
//! PyTorch's `gradcheck` tolerances (eps 1e-6, atol 1e-5, rtol 1e-3), with
//! respect to every input (the data, the weight, the bias), in NCHW and
//! NHWC layouts.

use axial_core::autograd::{F64, Var, gradcheck};
use axial_core::nn::{ConvAxes, ConvOptions, Padding, PaddingMode, PoolOptions};
use axial_core::{DType, Generator, RawTensor, Result};

fn values(n: usize, lo: f64, hi: f64, seed: u64) -> Vec<f64> {
    let mut rng = Generator::seed(seed);
    let u = RawTensor::rand(&[n], DType::F64, &mut rng).unwrap();
    u.to_vec::<f64>()
        .unwrap()
        .into_iter()
        .map(|v| lo + (hi - lo) * v)
        .collect()
}

fn input(shape: &[usize], seed: u64) -> F64 {
    let n = shape.iter().product();
    F64::new(values(n, -1.5, 1.5, seed), shape).unwrap()
}

/// Distinct values at least 0.37 apart (no ties within a pooling window
/// that finite differences could swap).
fn distinct(shape: &[usize], seed: u64) -> F64 {
    let n: usize = shape.iter().product();
    let keys = values(n, 0.0, 1.0, seed);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
    let mut v = vec![0.0; n];
    for (rank, &i) in order.iter().enumerate() {
        v[i] = rank as f64 * 0.37 - 1.3;
    }
    F64::new(v, shape).unwrap()
}

#[track_caller]
fn check(f: impl for<'a> Fn(&'a [Var<'static>]) -> Result<Var<'a>>, inputs: &[F64]) {
    if let Err(e) = gradcheck(f, inputs) {
        panic!("{e}");
    }
}

#[test]
fn conv2d_nchw_with_every_option() {
    let cases: Vec<(ConvOptions, [usize; 4], [usize; 4])> = vec![
        (ConvOptions::new(), [2, 2, 5, 4], [3, 2, 3, 2]),
        (
            ConvOptions::new()
                .stride(&[2])
                .padding(Padding::Both(vec![1])),
            [1, 2, 5, 5],
            [2, 2, 3, 3],
        ),
        (
            ConvOptions::new()
                .dilation(&[2, 1])
                .padding(Padding::Both(vec![1, 0])),
            [1, 1, 6, 4],
            [2, 1, 2, 2],
        ),
        // stride above the kernel: inputs no window reads.
        (
            ConvOptions::new().stride(&[3, 2]),
            [2, 1, 7, 5],
            [1, 1, 2, 1],
        ),
        (ConvOptions::new().groups(2), [1, 4, 4, 3], [4, 2, 2, 2]),
        // depthwise
        (
            ConvOptions::new().groups(3).padding(Padding::Same),
            [2, 3, 4, 4],
            [3, 1, 3, 3],
        ),
        (
            ConvOptions::new().padding(Padding::Sides(vec![(0, 1), (2, 0)])),
            [1, 2, 3, 3],
            [1, 2, 2, 3],
        ),
    ];
    for (n, (o, xs, ws)) in cases.into_iter().enumerate() {
        let axes = ConvAxes::new(1, &[2, 3]);
        let b = input(&[ws[0]], 30 + n as u64);
        check(
            |v| v[0].conv_axes(&v[1], Some(&v[2]), &axes, &o),
            &[input(&xs, n as u64), input(&ws, 10 + n as u64), b],
        );
    }
}

/// A transposed convolution's case: options, input shape, weight shape
/// (`[in, out / groups, kernel...]`), channel dim, spatial dims.
type TransposedCase = (ConvOptions, Vec<usize>, Vec<usize>, usize, Vec<usize>);

#[test]
fn conv_transpose_nchw_and_nhwc() {
    let cases: Vec<TransposedCase> = vec![
        (
            ConvOptions::new(),
            vec![2, 2, 3, 2],
            vec![2, 3, 2, 2],
            1,
            vec![2, 3],
        ),
        (
            ConvOptions::new()
                .stride(&[2])
                .padding(Padding::Both(vec![1]))
                .output_padding(&[1]),
            vec![1, 2, 3, 3],
            vec![2, 1, 3, 3],
            1,
            vec![2, 3],
        ),
        // An output padding past the stride (below the dilation).
        (
            ConvOptions::new().dilation(&[3]).output_padding(&[2]),
            vec![1, 2, 4],
            vec![2, 2, 2],
            1,
            vec![2],
        ),
        // NHWC, grouped, strided.
        (
            ConvOptions::new().stride(&[2, 1]).groups(2),
            vec![1, 3, 2, 4],
            vec![4, 1, 2, 2],
            3,
            vec![1, 2],
        ),
    ];
    for (n, (o, xs, ws, channel, spatial)) in cases.into_iter().enumerate() {
        let axes = ConvAxes::new(channel, &spatial);
        let b = input(&[ws[1] * o.groups], 50 + n as u64);
        check(
            |v| v[0].conv_transpose_axes(&v[1], Some(&v[2]), &axes, &o),
            &[input(&xs, 40 + n as u64), input(&ws, 45 + n as u64), b],
        );
    }
}

#[test]
fn conv_nhwc_and_1d_and_unbatched() {
    // NHWC: channels last, read in place.
    let o = ConvOptions::new()
        .stride(&[2])
        .padding(Padding::Both(vec![1]));
    check(
        |v| v[0].conv_axes(&v[1], None, &ConvAxes::new(3, &[1, 2]), &o),
        &[input(&[2, 5, 4, 3], 1), input(&[2, 3, 3, 3], 2)],
    );
    // 1-d, grouped and dilated.
    let o = ConvOptions::new()
        .dilation(&[2])
        .groups(2)
        .padding(Padding::Both(vec![2]));
    check(
        |v| v[0].conv_axes(&v[1], Some(&v[2]), &ConvAxes::new(1, &[2]), &o),
        &[input(&[2, 4, 7], 3), input(&[6, 2, 3], 4), input(&[6], 5)],
    );
    // No batch dim: [C, L].
    check(
        |v| v[0].conv_axes(&v[1], None, &ConvAxes::new(0, &[1]), &ConvOptions::new()),
        &[input(&[2, 5], 6), input(&[3, 2, 2], 7)],
    );
    // A clamped output is a hardtanh after the convolution.
    let o = ConvOptions::new().clamp(-0.5, 0.5);
    check(
        |v| v[0].conv_axes(&v[1], None, &ConvAxes::new(1, &[2]), &o),
        &[input(&[1, 1, 6], 8), input(&[1, 1, 2], 9)],
    );
}

#[test]
fn max_pooling_goes_to_the_maximum() {
    let cases = [
        (PoolOptions::new(&[2]), vec![2, 2, 4, 4], vec![2, 3]),
        (
            PoolOptions::new(&[3])
                .stride(&[2])
                .padding(&[1])
                .ceil_mode(true),
            vec![1, 2, 5, 6],
            vec![2, 3],
        ),
        (
            PoolOptions::new(&[2]).dilation(&[2]).stride(&[1]),
            vec![1, 1, 5, 5],
            vec![2, 3],
        ),
        (PoolOptions::new(&[2]).stride(&[3]), vec![2, 3, 7], vec![2]),
        // NHWC
        (PoolOptions::new(&[2]), vec![1, 4, 4, 3], vec![1, 2]),
    ];
    for (n, (o, shape, spatial)) in cases.into_iter().enumerate() {
        check(
            |v| v[0].max_pool_axes(&spatial, &o),
            &[distinct(&shape, n as u64)],
        );
    }
}

#[test]
fn average_pooling_divides_as_the_forward() {
    for include in [true, false] {
        for ceil in [false, true] {
            let cases = [
                (PoolOptions::new(&[2]), vec![1, 2, 4, 5], vec![2, 3]),
                (
                    PoolOptions::new(&[3]).stride(&[2]).padding(&[1]),
                    vec![2, 1, 5, 6],
                    vec![2, 3],
                ),
                (
                    PoolOptions::new(&[2, 3]).stride(&[3, 1]).padding(&[1, 1]),
                    vec![1, 1, 7, 4],
                    vec![2, 3],
                ),
                (
                    PoolOptions::new(&[3]).stride(&[2]).padding(&[1]),
                    vec![2, 3, 8],
                    vec![2],
                ),
                (PoolOptions::new(&[2]), vec![1, 5, 5, 2], vec![1, 2]),
            ];
            for (n, (o, shape, spatial)) in cases.into_iter().enumerate() {
                let o = o.count_include_pad(include).ceil_mode(ceil);
                check(
                    |v| v[0].avg_pool_axes(&spatial, &o),
                    &[input(&shape, n as u64)],
                );
            }
        }
    }
    let o = PoolOptions::new(&[2])
        .padding(&[1])
        .divisor_override(Some(3));
    check(
        |v| v[0].avg_pool_axes(&[2, 3], &o),
        &[input(&[1, 1, 3, 3], 9)],
    );
}

#[test]
fn adaptive_average_pooling() {
    check(
        |v| v[0].adaptive_avg_pool_axes(&[2, 3], &[3, 2]),
        &[input(&[2, 2, 5, 7], 1)],
    );
    check(
        |v| v[0].adaptive_avg_pool_axes(&[1, 2], &[1, 1]),
        &[input(&[2, 3, 3, 2], 2)],
    );
    check(
        |v| v[0].adaptive_avg_pool_axes(&[1], &[4]),
        &[input(&[3, 6], 3)],
    );
}

#[test]
fn batch_norm_in_training_and_with_running_statistics() {
    check(
        |v| v[0].batch_norm_train(1, Some(&v[1]), Some(&v[2]), None, 0.1, 1e-5),
        &[input(&[3, 2, 2, 3], 1), input(&[2], 2), input(&[2], 3)],
    );
    // NHWC, no affine parameters.
    check(
        |v| v[0].batch_norm_train(3, None, None, None, 0.1, 1e-5),
        &[input(&[2, 2, 2, 3], 4)],
    );
    let mean = RawTensor::from_vec(vec![0.1f64, -0.2], &[2]).unwrap();
    let var = RawTensor::from_vec(vec![0.5f64, 2.0], &[2]).unwrap();
    check(
        |v| v[0].batch_norm_eval(1, &mean.view(), &var.view(), Some(&v[1]), Some(&v[2]), 1e-5),
        &[input(&[2, 2, 3], 5), input(&[2], 6), input(&[2], 7)],
    );
}

#[test]
fn hard_activations() {
    // Away from ±3, where they have no derivative.
    let x = F64::new(vec![-4.0, -2.9, -1.0, 0.2, 2.5, 3.4, 5.0], &[7]).unwrap();
    check(|v| v[0].hardswish(), std::slice::from_ref(&x));
    check(|v| v[0].hardsigmoid(), std::slice::from_ref(&x));
}

#[test]
fn running_statistics_follow_pytorch() {
    // PyTorch: running = (1 − m)·running + m·batch, the variance unbiased.
    let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 3.0, 2.0, 6.0], &[2, 2]).unwrap()).unwrap();
    let mut mean = RawTensor::from_vec(vec![0.0f64, 0.0], &[2]).unwrap();
    let mut var = RawTensor::from_vec(vec![1.0f64, 1.0], &[2]).unwrap();
    let y = x
        .batch_norm_train(
            1,
            None,
            None,
            Some((&mut mean.view_mut(), &mut var.view_mut())),
            0.5,
            0.0,
        )
        .unwrap();
    assert_eq!(
        y.value().to_vec::<f64>().unwrap(),
        vec![-1.0, -1.0, 1.0, 1.0]
    );
    assert_eq!(mean.to_vec::<f64>().unwrap(), vec![0.75, 2.25]);
    assert_eq!(
        var.to_vec::<f64>().unwrap(),
        vec![0.5 + 0.5 * 0.5, 0.5 + 0.5 * 4.5]
    );
}

#[test]
fn three_spatial_dims() {
    let o = ConvOptions::new()
        .stride(&[2, 1, 1])
        .padding(Padding::Both(vec![1]));
    check(
        |v| v[0].conv_axes(&v[1], Some(&v[2]), &ConvAxes::new(1, &[2, 3, 4]), &o),
        &[
            input(&[1, 2, 3, 3, 4], 1),
            input(&[2, 2, 2, 2, 2], 2),
            input(&[2], 3),
        ],
    );
    let p = PoolOptions::new(&[2]).stride(&[1]);
    check(
        |v| v[0].max_pool_axes(&[2, 3, 4], &p),
        &[distinct(&[1, 1, 3, 3, 3], 4)],
    );
    check(
        |v| v[0].avg_pool_axes(&[2, 3, 4], &p.clone().padding(&[1])),
        &[input(&[1, 2, 3, 2, 3], 5)],
    );
}

#[test]
fn an_empty_batch_gives_zero_gradients() {
    // PyTorch: a convolution of no image leaves every weight's gradient 0.
    let x = Var::leaf(RawTensor::zeros(&[0, 2, 4, 4], DType::F32).unwrap()).unwrap();
    let w = Var::leaf(RawTensor::from_vec(vec![1.0f32; 54], &[3, 2, 3, 3]).unwrap()).unwrap();
    let b = Var::leaf(RawTensor::from_vec(vec![1.0f32; 3], &[3]).unwrap()).unwrap();
    let ids = [
        x.leaf_id().unwrap(),
        w.leaf_id().unwrap(),
        b.leaf_id().unwrap(),
    ];
    let y = x
        .conv_axes(
            &w,
            Some(&b),
            &ConvAxes::new(1, &[2, 3]),
            &ConvOptions::new(),
        )
        .unwrap();
    assert_eq!(y.shape(), &[0, 3, 2, 2]);
    let pooled = y.max_pool_axes(&[2, 3], &PoolOptions::new(&[2])).unwrap();
    let grads = pooled.sum(&[], false).unwrap().backward().unwrap();
    assert_eq!(grads.get(ids[0]).unwrap().shape(), &[0, 2, 4, 4]);
    assert_eq!(
        grads.get(ids[1]).unwrap().to_vec::<f32>().unwrap(),
        vec![0.0; 54]
    );
    assert_eq!(
        grads.get(ids[2]).unwrap().to_vec::<f32>().unwrap(),
        vec![0.0; 3]
    );
}

/// An op of a tracked tensor.
type Keeping<'a> = dyn Fn(&Var<'static>) -> Result<Var<'static>> + 'a;

#[test]
fn an_input_written_after_the_op_kept_it_is_refused() {
    // PyTorch keeps a pooling's and a convolution's input: a write into it
    // in place before `backward` is its "modified by an inplace operation".
    let x =
        Var::leaf(RawTensor::from_vec(vec![1.0f64, 4.0, 2.0, 3.0], &[1, 1, 4]).unwrap()).unwrap();
    let w = Var::leaf(RawTensor::from_vec(vec![1.0f64, -1.0], &[1, 1, 2]).unwrap()).unwrap();
    let ops: [&Keeping<'_>; 3] = [
        &|h| h.max_pool_axes(&[2], &PoolOptions::new(&[2])),
        &|h| h.avg_pool_axes(&[2], &PoolOptions::new(&[2])),
        &|h| h.conv_axes(&w, None, &ConvAxes::new(1, &[2]), &ConvOptions::new()),
    ];
    for op in ops {
        let mut h = x
            .binary_scalar(axial_core::BinaryOp::Mul, axial_core::Scalar::Float(2.0))
            .unwrap();
        let y = op(&h).unwrap();
        h.binary_scalar_(axial_core::BinaryOp::Add, axial_core::Scalar::Float(1.0))
            .unwrap();
        let e = y
            .sum(&[], false)
            .unwrap()
            .backward()
            .err()
            .expect("an error");
        assert!(
            e.to_string().contains("modified by an inplace operation"),
            "{e}"
        );
    }
}

#[test]
fn padding_modes() {
    for mode in [
        PaddingMode::Reflect,
        PaddingMode::Replicate,
        PaddingMode::Circular,
    ] {
        let o = ConvOptions::new()
            .padding(Padding::Both(vec![2, 1]))
            .stride(&[2, 1])
            .padding_mode(mode);
        check(
            |v| v[0].conv_axes(&v[1], Some(&v[2]), &ConvAxes::new(1, &[2, 3]), &o),
            &[
                input(&[1, 2, 4, 3], 1),
                input(&[3, 2, 3, 2], 2),
                input(&[3], 3),
            ],
        );
        // 'same' in NHWC.
        let o = ConvOptions::new().padding(Padding::Same).padding_mode(mode);
        check(
            |v| v[0].conv_axes(&v[1], None, &ConvAxes::new(3, &[1, 2]), &o),
            &[input(&[2, 3, 4, 2], 4), input(&[2, 2, 3, 2], 5)],
        );
    }
}
