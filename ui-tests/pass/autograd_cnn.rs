// A convolutional block trained by name: conv, batch norm with running
// statistics, ReLU, max pooling, global average pooling; the gradients of
// the parameters have their types. The convolution keeps its input, not its
// output, so the output may be written in place (as in PyTorch).
use axial::autograd::{CrossEntropy, Param};
use axial::prelude::*;
axes!(Batch, Channels, Rows, Cols, Classes);

fn main() {
    let mut rng = Generator::seed(0);
    let x = Tensor::<f32, shape![Batch: 4, Rows: 8, Cols: 8, Channels: 3]>::randn(&mut rng);
    let labels = Tensor::<i64, shape![Batch: 4]>::from_array([0, 1, 2, 3]);
    let w = Param::new(Tensor::<f32, shape![Classes: 4, 3, 3, 3]>::randn(&mut rng));
    let gamma = Param::new(Tensor::<f32, shape![Channels: 4]>::ones());
    let beta = Param::new(Tensor::<f32, shape![Channels: 4]>::zeros());
    let (mut mean, mut var) = (Tensor::zeros(), Tensor::ones());
    let mut grads = {
        let mut h = x.conv_tracked(Channels, (Rows, Cols), &w.var(), None, Conv::<1, 1>);
        h.add_(0.5); // the output is not kept
        let h = h
            .try_batch_norm_train(Channels, Some(&gamma.var()), Some(&beta.var()), Some((&mut mean, &mut var)), 0.1, 1e-5)
            .unwrap()
            .relu()
            .max_pool((Rows, Cols), Pool::<2>)
            .global_avg_pool((Rows, Cols))
            .rename::<Channels, Classes>();
        h.cross_entropy::<Classes, _>(&labels, CrossEntropy::default()).backward()
    };
    let mut w = w;
    grads.accumulate(&mut w);
    let g: Tensor<f32, shape![Classes: 4, 3, 3, 3]> = w.take_grad().unwrap();
    assert!(g.to_vec().iter().any(|v| *v != 0.0));
    assert!(mean.to_vec().iter().any(|v| *v != 0.0));
}
