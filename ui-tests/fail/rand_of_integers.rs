// Random floats make no sense for an integer tensor.
use axial::prelude::*;

fn main() {
    let _ = Tensor::<i32, shape![3]>::rand(&mut Generator::seed(0));
}
