// `floor_divide` has no derivative: a tracked tensor cannot go through it
// (no silent cut of the graph).
use axial::prelude::*;
axes!(Rows);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::ones();
    let _ = x.track().floor_divide(2.0);
}
