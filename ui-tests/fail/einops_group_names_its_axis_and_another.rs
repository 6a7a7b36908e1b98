// A group that names its own axis, `Height`, and another axis of the
// tensor, `Width`: the part called `Width` would be a piece of `Height`.
use axial::prelude::*;
axes!(Batch, Height, Width, P, Q);

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, Height: 32, Width: 32]>::zeros();
    let _ = rearrange!(x, "Batch (Height Width) (P Q) -> Batch Height Width P Q", Width = 4, Q = 4);
}
