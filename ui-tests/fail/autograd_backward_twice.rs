// `backward` consumes the graph: a second backward pass through it does not
// compile (PyTorch: "Trying to backward through the graph a second time").
use axial::prelude::*;
axes!(Rows);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::ones();
    let loss = x.track().square().sum_all();
    let _ = loss.backward();
    let _ = loss.backward();
}
