// `unsqueeze` past the last position.
use axial::prelude::*;
axes!(Rows, Cols, One);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3, Cols: 4]>::zeros();
    let _ = x.unsqueeze::<One, 3>();
}
