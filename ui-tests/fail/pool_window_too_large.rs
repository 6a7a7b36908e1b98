// A 3-wide pooling window does not fit a 2-wide axis.
use axial::prelude::*;
axes!(Channels, Time);

fn main() {
    let x = Tensor::<f32, shape![Channels: 1, Time: 2]>::zeros();
    let _ = x.max_pool((Time,), Pool::<3>);
}
