// True division of integers gives floats, which cannot be written back.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let mut a = Tensor::<i64, shape![Rows: 3]>::arange();
    a /= 2;
}
