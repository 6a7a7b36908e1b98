// A pattern with `...` whose other dims are more than the tensor's axes.
use axial::prelude::*;
axes!(A, B, C);

fn main() {
    let x = Tensor::<f32, shape![A: 2, B: 3]>::zeros();
    let _ = rearrange!(x, "A B C ... -> ... C B A");
}
