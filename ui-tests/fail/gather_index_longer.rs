// `gather` with an index longer than the input along another axis than
// the one gathered along.
use axial::prelude::*;
axes!(Batch, Classes);

fn main() {
    let scores = Tensor::<f32, shape![Batch: 4, Classes: 10]>::zeros();
    let labels = Tensor::<i64, shape![Batch: 5, Classes: 1]>::zeros();
    let _ = scores.gather::<Classes, _>(&labels);
}
