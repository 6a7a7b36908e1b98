// An in-place op while a view of the tensor is alive.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let mut x = Tensor::<f32, shape![Rows: 3]>::zeros();
    let view = x.as_view();
    x.add_(1.0);
    println!("{:?}", view);
}
