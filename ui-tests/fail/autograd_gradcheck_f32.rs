// gradcheck needs f64: the finite differences of f32 are too coarse to
// check a gradient with.
use axial::autograd::gradcheck;
use axial::prelude::*;
axes!(Rows);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::ones();
    let _ = gradcheck(|v| v.exp(), &x);
}
