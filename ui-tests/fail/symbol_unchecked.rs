// A symbolic shape cannot be made without the scope's check: a constructor
// (or a reshape target) that chooses its sizes refuses symbols.
use axial::prelude::*;

axes!(Batch, Model);

fn make<'id>() -> Tensor<f32, shape![Batch: Sym<'id, Batch>, Model: 4]> {
    Tensor::zeros()
}

fn main() {
    scope(|_s| {
        let _ = make::<'_>();
    });
}
