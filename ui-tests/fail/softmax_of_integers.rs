// `softmax` on an integer tensor: the float-only op says why it is absent.
use axial::prelude::*;
axes!(Batch, Classes);

fn main() {
    let x = Tensor::<i64, shape![Batch: 2, Classes: 3]>::arange();
    let _ = x.softmax::<Classes>();
}
