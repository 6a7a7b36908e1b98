// Generic code over a shape with a `Dyn` axis creates a tensor without the
// bound that its names are distinct.
use axial::prelude::*;
use axial::Shape;

fn zeros_of<S: Shape>(n: usize) -> Tensor<f32, S>
where
    usize: axial::shape::DynSizes<S>,
{
    Tensor::zeros_dyn(n)
}

fn main() {
    axes!(Batch);
    let _ = zeros_of::<shape![Batch: Dyn]>(2);
}
