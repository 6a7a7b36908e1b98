// `mean` needs a floating-point tensor.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let x = Tensor::<i32, shape![Rows: 2, Cols: 3]>::arange();
    let _ = x.mean::<Cols>();
}
