// `where` of three operands that do not broadcast: the values chosen
// between have 3 and 4 columns.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let cond = Tensor::<Bool, shape![Rows: 2, Cols: 1]>::zeros();
    let a = Tensor::<f32, shape![Cols: 3]>::zeros();
    let b = Tensor::<f32, shape![Rows: 2, Cols: 4]>::zeros();
    let _ = cond.if_else(&a, &b);
}
