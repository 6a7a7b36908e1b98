// The graph reads a tracked parameter in place until `backward` consumes
// it: updating the parameter before then does not compile.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let mut w = Tensor::<f32, shape![Rows: 3]>::ones();
    let loss = w.track().square().sum_all();
    w -= 0.1;
    let _ = loss.backward();
}
