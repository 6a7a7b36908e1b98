// A tensor whose `Model` axis holds 32 passed where the function asks for 64:
// the error names both sizes, and the signature it points at names the axis.
use axial::prelude::*;
axes!(Batch, Model);

fn block(x: &Tensor<f32, shape![Batch: 4, Model: 64]>) -> f32 {
    x.sum_all().item()
}

fn main() {
    let x = Tensor::<f32, shape![Batch: 4, Model: 32]>::zeros();
    let _ = block(&x);
}
