// Writing through a read-only view.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::zeros();
    let mut v = x.as_view();
    v.set([0], 1.0);
}
