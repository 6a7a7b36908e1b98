// `gather` with an index of another rank: the index has the input's axes.
use axial::prelude::*;
axes!(Batch, Classes);

fn main() {
    let scores = Tensor::<f32, shape![Batch: 4, Classes: 10]>::zeros();
    let labels = Tensor::<i64, shape![Batch: 4]>::zeros();
    let _ = scores.gather::<Classes, _>(&labels);
}
