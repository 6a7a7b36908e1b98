// `realize` cannot change a size the compiler already knows.
use axial::prelude::*;
axes!(Batch, Channels);

fn main() {
    let x = Tensor::<f32, shape![Batch: Dyn, Channels: 3]>::zeros_dyn(2);
    let _ = x.realize::<shape![Batch: 2, Channels: 4]>();
}
