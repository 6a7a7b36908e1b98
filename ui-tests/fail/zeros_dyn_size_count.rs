// One run-time size for a shape with two `Dyn` axes.
use axial::prelude::*;
axes!(Batch, Time, Model);

fn main() {
    let _ = Tensor::<f32, shape![Batch: Dyn, Time: Dyn, Model: 4]>::zeros_dyn(2);
}
