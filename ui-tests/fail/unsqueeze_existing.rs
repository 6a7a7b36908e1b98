// `unsqueeze` with a name the tensor already has.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3, Cols: 4]>::zeros();
    let _ = x.unsqueeze::<Cols, 0>();
}
