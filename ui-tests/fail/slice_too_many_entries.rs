// More entries than axes.
use axial::prelude::*;
axes!(A, B);

fn main() {
    let x = Tensor::<f32, shape![A: 3, B: 4]>::zeros();
    let _ = x.slice_s(s![.., .., 0]);
}
