// A per-channel bias `[Out]` added to `[Batch, Out, Rows, Cols]`: broadcasting
// pairs axes from the right, so `Out` meets `Cols`.
use axial::prelude::*;
axes!(Batch, Out, Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, Out: 3, Rows: 4, Cols: 5]>::zeros();
    let bias = Tensor::<f32, shape![Out: 3]>::zeros();
    let _ = &x + &bias;
}
