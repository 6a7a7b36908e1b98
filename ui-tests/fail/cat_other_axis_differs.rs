// `cat` along `Rows` of tensors whose `Cols` differ: only the axis joined
// along may differ in size.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let a = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    let b = Tensor::<f32, shape![Rows: 1, Cols: 4]>::zeros();
    let _ = a.cat::<Rows, _>(&b);
}
