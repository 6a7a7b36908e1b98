// A literal range bound past the end of a static axis.
use axial::prelude::*;
axes!(A, B);

fn main() {
    let x = Tensor::<f32, shape![A: 3, B: 4]>::zeros();
    let _ = x.slice_s(s![.., 1..5]);
}
