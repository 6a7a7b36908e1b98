// The pattern has more dims than the tensor.
use axial::prelude::*;
axes!(B, C, H);

fn main() {
    let x = Tensor::<f32, shape![B: 2, C: 3]>::zeros();
    let _ = rearrange!(x, "B C H -> H C B");
}
