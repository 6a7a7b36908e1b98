// `expand` of an axis whose size is neither 1 nor the target's.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    let _ = x.expand::<shape![Rows: 2, Cols: 4]>();
}
