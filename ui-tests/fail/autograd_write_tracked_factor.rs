// A product keeps each factor when the other needs a gradient: with both
// tracked, both stay borrowed while the graph lives.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::ones();
    let mut t0 = x.track() * 1.0;
    let t2 = x.track() * 3.0;
    let t1 = &t0 * &t2;
    t0.mul_(2.0);
    let _ = t1.sum_all().backward();
}
