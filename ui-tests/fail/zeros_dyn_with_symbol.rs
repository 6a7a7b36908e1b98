// A symbolic size is bound by `realize_in`, never given to a constructor.
use axial::prelude::*;
axes!(Batch, Model);

fn make<'id>() -> Tensor<f32, shape![Batch: Sym<'id, Batch>, Model: 4]> {
    Tensor::zeros_dyn(2)
}

fn main() {
    let _ = make();
}
