//! A CNN block with every shape in the type, on the CUDA device: an NHWC
//! batch convolved by name (3×3, stride 2, then a depthwise 3×3 with ReLU6
//! in the kernel), batch-normed and max-pooled on a `Tensor<_, _, Cuda>`,
//! equal to the same block on the CPU. Needs a CUDA device (a GPU or the
//! stand-in of `cuda-stub/`, as CI runs it); says it skipped without one,
//! and fails instead with `AXIAL_REQUIRE_GPU=1`.
#![cfg(feature = "cuda")]

use axial::prelude::*;
use axial::{Backend, Cuda, Device};

axes!(Batch, Rows, Cols, Channels);

type Image = shape![Batch: 2, Rows: 9, Cols: 9, Channels: 3];
type Stem = shape![8, 3, 3, 3];
type Depthwise = shape![8, 1, 3, 3];
type Pooled = shape![Batch: 2, Rows: 2, Cols: 2, Channels: 8];

/// The block on any device: its output, on that device.
fn block<D: Backend>(
    x: &Tensor<f32, Image, D>,
    stem: &Tensor<f32, Stem, D>,
    depthwise: &Tensor<f32, Depthwise, D>,
    stats: [&Tensor<f32, shape![Channels: 8], D>; 4],
) -> Tensor<f32, Pooled, D> {
    let y = x.conv(Channels, (Rows, Cols), stem, None, Conv::<2, 1>);
    let y = y.conv_relu6(Channels, (Rows, Cols), depthwise, None, SameWith::<1, 8>);
    let [mean, var, gamma, beta] = stats;
    let y = y.batch_norm(
        Channels,
        mean.as_view(),
        var.as_view(),
        Some(gamma.as_view()),
        Some(beta.as_view()),
        1e-3,
    );
    y.max_pool((Rows, Cols), Pool::<2>)
}

#[test]
fn a_typed_cnn_block_runs_on_the_gpu_as_on_the_cpu() {
    let gpu = match Cuda::new(0) {
        Ok(gpu) => gpu,
        Err(e) if std::env::var("AXIAL_REQUIRE_GPU").is_ok_and(|v| v != "0") => {
            panic!("AXIAL_REQUIRE_GPU is set but there is no CUDA device: {e}")
        }
        Err(e) => {
            eprintln!("skipped a_typed_cnn_block_runs_on_the_gpu_as_on_the_cpu: {e}");
            return;
        }
    };
    let mut rng = Generator::seed(7);
    let x = Tensor::<f32, Image>::randn(&mut rng);
    let stem = Tensor::<f32, Stem>::randn(&mut rng);
    let depthwise = Tensor::<f32, Depthwise>::randn(&mut rng);
    let mean = Tensor::<f32, shape![Channels: 8]>::randn(&mut rng);
    let var = Tensor::<f32, shape![Channels: 8]>::rand(&mut rng);
    let gamma = Tensor::<f32, shape![Channels: 8]>::randn(&mut rng);
    let beta = Tensor::<f32, shape![Channels: 8]>::randn(&mut rng);
    let want = block(&x, &stem, &depthwise, [&mean, &var, &gamma, &beta]);
    let on = |t: &Tensor<f32, shape![Channels: 8]>| t.to_device(&gpu);
    let got = block(
        &x.to_device(&gpu),
        &stem.to_device(&gpu),
        &depthwise.to_device(&gpu),
        [&on(&mean), &on(&var), &on(&gamma), &on(&beta)],
    );
    assert_eq!(got.device().name(), gpu.name());
    let (got, want) = (got.to_cpu().to_vec(), want.to_vec());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-5 * (1.0 + w.abs()),
            "element {i}: CUDA {g}, CPU {w}"
        );
    }
}
