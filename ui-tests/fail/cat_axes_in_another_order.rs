// `cat` of tensors whose axes are in another order: PyTorch would join
// position by position; axial asks for one order of names.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let a = Tensor::<f32, shape![Rows: 2, Cols: 3]>::zeros();
    let b = Tensor::<f32, shape![Cols: 3, Rows: 2]>::zeros();
    let _ = a.cat::<Rows, _>(&b);
}
