// `realize` checks sizes, not names.
use axial::prelude::*;
axes!(Batch, Channels, Time);

fn main() {
    let x = Tensor::<f32, shape![Batch: Dyn, Channels: 3]>::zeros_dyn(2);
    let _ = x.realize::<shape![Batch: 2, Time: 3]>();
}
