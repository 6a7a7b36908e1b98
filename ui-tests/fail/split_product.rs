// `split` into sizes that do not multiply to the axis' size.
use axial::prelude::*;
axes!(N, Pixels, Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![N: 2, Pixels: 784]>::zeros();
    let _ = x.split::<Pixels, shape![Rows: 28, Cols: 27]>();
}
