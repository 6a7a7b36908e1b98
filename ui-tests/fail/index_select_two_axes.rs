// `index_select` takes an index of one axis.
use axial::prelude::*;
axes!(Vocab, Model, Batch, Token);

fn main() {
    let table = Tensor::<f32, shape![Vocab: 100, Model: 8]>::zeros();
    let ids = Tensor::<i64, shape![Batch: 2, Token: 5]>::zeros();
    let _ = table.index_select::<Vocab, _>(&ids);
}
