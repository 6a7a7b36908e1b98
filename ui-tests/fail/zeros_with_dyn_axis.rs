// A constructor without sizes on a shape with a `Dyn` axis.
use axial::prelude::*;
axes!(Batch, Channels);

fn main() {
    let _ = Tensor::<f32, shape![Batch: Dyn, Channels: 3]>::zeros();
}
