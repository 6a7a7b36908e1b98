// `matmul` contracts axes of one name.
use axial::prelude::*;
axes!(Rows, Inner, Other, Cols);

fn main() {
    let a = Tensor::<f32, shape![Rows: 2, Inner: 3]>::zeros();
    let b = Tensor::<f32, shape![Other: 3, Cols: 4]>::zeros();
    let _ = a.matmul(&b);
}
