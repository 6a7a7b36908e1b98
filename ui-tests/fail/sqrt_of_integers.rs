// `sqrt_()` on an integer tensor: the float-only op is not there.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let mut x = Tensor::<i64, shape![Rows: 3]>::arange();
    x.sqrt_();
}
