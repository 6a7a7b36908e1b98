// Patches with Height and Width swapped inside their groups: `(Width P)`
// stands on the axis `Height`. The grid would come out transposed, with the
// same type as the right one.
use axial::prelude::*;
axes!(Batch, Channels, Height, Width, P, Q);

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, Channels: 3, Height: 32, Width: 32]>::zeros();
    let _ = rearrange!(
        x,
        "Batch Channels (Width P) (Height Q) -> Batch (Height Width) (Channels P Q)",
        P = 4,
        Q = 4
    );
}
