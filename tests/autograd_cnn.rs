//! The typed CNN ops on tracked tensors, by axis name: finite-difference
//! gradchecks in f64 of convolution (NCHW and NHWC, input and weight),
//! transposed convolution,
//! pooling (adaptive max pooling included), batch, group and instance
//! norm and the activations; the gradient of a parameter has the
//! parameter's type; the same convolution on an NCHW and an NHWC
//! tensor gives the same gradients.

#![allow(
    clippy::type_complexity,
    reason = "shape![..] types of parameters read as one name each"
)]

use axial::autograd::{Param, gradcheck};
use axial::prelude::*;

axes!(Batch, Channels, Rows, Cols);

type Nchw = shape![Batch: 2, Channels: 3, Rows: 5, Cols: 4];
type Nhwc = shape![Batch: 2, Rows: 5, Cols: 4, Channels: 3];

/// Values spread enough that no pooling window ties under the finite
/// differences' steps.
fn input<S: axial::shape::StaticShape + axial::shape::Distinct>(seed: u64) -> Tensor<f64, S> {
    Tensor::randn(&mut Generator::seed(seed))
}

#[test]
fn gradchecks_of_convolutions_by_name() {
    let x: Tensor<f64, Nchw> = input(1);
    let w: Tensor<f64, shape![4, 3, 3, 2]> = input(2);
    let wv = w.track();
    gradcheck(
        |v| v.conv(Channels, (Rows, Cols), &wv, None, Conv::<2, 1>),
        &x,
    )
    .unwrap();
    // The weight's gradient, the input untracked.
    gradcheck(
        |w| x.conv_tracked(Channels, (Rows, Cols), &w, None, Conv::<1>),
        &w,
    )
    .unwrap();
    // NHWC, depthwise, padding 'same'.
    let xl: Tensor<f64, Nhwc> = input(3);
    let dw: Tensor<f64, shape![3, 1, 3, 3]> = input(4);
    let dv = dw.track();
    gradcheck(
        |v| v.conv(Channels, (Rows, Cols), &dv, None, Conv::<1, 1, 1, 3>),
        &xl,
    )
    .unwrap();
    let sw: Tensor<f64, shape![2, 3, 3, 3]> = input(12);
    let sv = sw.track();
    gradcheck(|v| v.conv(Channels, (Rows, Cols), &sv, None, Same), &xl).unwrap();
}

#[test]
fn gradchecks_of_transposed_convolutions_by_name() {
    let x: Tensor<f64, Nchw> = input(20);
    let w: Tensor<f64, shape![3, 2, 3, 2]> = input(21);
    let wv = w.track();
    gradcheck(
        |v| v.conv_transpose(Channels, (Rows, Cols), &wv, None, ConvT::<2, 1, 1>),
        &x,
    )
    .unwrap();
    // NHWC, depthwise (groups = channels).
    let xl: Tensor<f64, Nhwc> = input(22);
    let dw: Tensor<f64, shape![3, 1, 2, 2]> = input(23);
    let dv = dw.track();
    gradcheck(
        |v| v.conv_transpose(Channels, (Rows, Cols), &dv, None, ConvT::<2, 0, 0, 1, 3>),
        &xl,
    )
    .unwrap();
}

#[test]
fn gradchecks_of_group_and_instance_norm() {
    type Groups = shape![Batch: 2, Channels: 4, Rows: 3, Cols: 2];
    let x: Tensor<f64, Groups> = input(21);
    let w: Tensor<f64, shape![Channels: 4]> = input(22);
    let b: Tensor<f64, shape![Channels: 4]> = input(23);
    let (wv, bv) = (w.track(), b.track());
    gradcheck(
        |v| {
            v.try_group_norm(Channels, (Rows, Cols), Sz::<2>, Some(&wv), Some(&bv), 1e-5)
                .unwrap()
        },
        &x,
    )
    .unwrap();
    // The weight's and bias's gradients.
    let xv = x.track();
    gradcheck(
        |w| {
            xv.try_group_norm(Channels, (Rows, Cols), Sz::<2>, Some(&w), None, 1e-5)
                .unwrap()
        },
        &w,
    )
    .unwrap();
    gradcheck(
        |b| {
            xv.try_group_norm(Channels, (Rows, Cols), Sz::<4>, None, Some(&b), 1e-5)
                .unwrap()
        },
        &b,
    )
    .unwrap();
    // Instance norm, channels last.
    let xl: Tensor<f64, shape![Batch: 2, Rows: 3, Cols: 2, Channels: 4]> = input(24);
    gradcheck(
        |v| {
            v.try_instance_norm(Channels, (Rows, Cols), Some(&wv), None, 1e-5)
                .unwrap()
        },
        &xl,
    )
    .unwrap();
}

#[test]
fn gradchecks_of_pooling_and_normalisation() {
    let x: Tensor<f64, Nchw> = input(5);
    gradcheck(|v| v.max_pool((Rows, Cols), Pool::<2>), &x).unwrap();
    gradcheck(|v| v.max_pool((Rows, Cols), Pool::<3, 2, 1, 1, true>), &x).unwrap();
    gradcheck(|v| v.avg_pool((Rows, Cols), Pool::<3, 2, 1, 1, true>), &x).unwrap();
    gradcheck(
        |v| {
            v.try_avg_pool_with((Rows, Cols), Pool::<2, 3, 1>, false, None)
                .unwrap()
        },
        &x,
    )
    .unwrap();
    gradcheck(
        |v| {
            v.try_adaptive_avg_pool((Rows, Cols), (Sz::<3>, Sz::<2>))
                .unwrap()
        },
        &x,
    )
    .unwrap();
    gradcheck(|v| v.global_avg_pool((Rows, Cols)), &x).unwrap();
    // Adaptive max pooling, its windows overlapping (5 rows to 3, 4 columns
    // to 3), NCHW and NHWC.
    gradcheck(
        |v| {
            v.try_adaptive_max_pool((Rows, Cols), (Sz::<3>, Sz::<3>))
                .unwrap()
        },
        &x,
    )
    .unwrap();
    let xl: Tensor<f64, Nhwc> = input(6);
    gradcheck(
        |v| {
            v.try_adaptive_max_pool((Rows, Cols), (Sz::<2>, Sz::<3>))
                .unwrap()
        },
        &xl,
    )
    .unwrap();
    let w: Tensor<f64, shape![Channels: 3]> = input(7);
    let b: Tensor<f64, shape![Channels: 3]> = input(8);
    let (wv, bv) = (w.track(), b.track());
    gradcheck(
        |v| {
            v.try_batch_norm_train(Channels, Some(&wv), Some(&bv), None, 0.1, 1e-5)
                .unwrap()
        },
        &xl,
    )
    .unwrap();
    let mean: Tensor<f64, shape![Channels: 3]> = input(9);
    let var = Tensor::<f64, shape![Channels: 3]>::full(0.7);
    gradcheck(
        |v| {
            v.try_batch_norm_eval(
                Channels,
                mean.as_view(),
                var.as_view(),
                Some(&wv),
                None,
                1e-5,
            )
            .unwrap()
        },
        &xl,
    )
    .unwrap();
    gradcheck(|v| v.try_prelu(Channels, &wv).unwrap(), &xl).unwrap();
    gradcheck(|v| (&v * 2.0).hardswish(), &xl).unwrap();
    gradcheck(|v| (&v * 2.0).hardsigmoid(), &xl).unwrap();
}

#[test]
fn nchw_and_nhwc_give_the_same_gradients() {
    let x: Tensor<f32, Nchw> = Tensor::randn(&mut Generator::seed(10));
    let xl: Tensor<f32, Nhwc> = x
        .clone()
        .align_to::<names![Batch, Rows, Cols, Channels]>()
        .contiguous();
    let w = Param::new(Tensor::<f32, shape![4, 3, 3, 3]>::randn(
        &mut Generator::seed(11),
    ));
    let b = Param::new(Tensor::<f32, shape![4]>::randn(&mut Generator::seed(12)));
    let first = x
        .conv_tracked(
            Channels,
            (Rows, Cols),
            &w.var(),
            Some(&b.var()),
            Conv::<2, 1>,
        )
        .relu()
        .max_pool((Rows, Cols), Pool::<2>)
        .square()
        .sum_all()
        .backward();
    let second = xl
        .conv_tracked(
            Channels,
            (Rows, Cols),
            &w.var(),
            Some(&b.var()),
            Conv::<2, 1>,
        )
        .relu()
        .max_pool((Rows, Cols), Pool::<2>)
        .square()
        .sum_all()
        .backward();
    let g1: Tensor<f32, shape![4, 3, 3, 3]> = first.of_param(&w).unwrap();
    let g2 = second.of_param(&w).unwrap();
    for (a, b) in g1.to_vec().iter().zip(g2.to_vec()) {
        assert!((a - b).abs() <= 1e-5 * a.abs().max(1.0), "{a} against {b}");
    }
    let (b1, b2) = (first.of_param(&b).unwrap(), second.of_param(&b).unwrap());
    for (a, b) in b1.to_vec().iter().zip(b2.to_vec()) {
        assert!((a - b).abs() <= 1e-5 * a.abs().max(1.0), "{a} against {b}");
    }
}
