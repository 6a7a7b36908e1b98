// A reduction by a name the tensor does not have.
use axial::prelude::*;
axes!(Batch, Channels, Height);

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, Channels: 3]>::zeros();
    let _ = x.sum::<Height>();
}
