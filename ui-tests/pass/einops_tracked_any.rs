// `reduce!` by `any` of a tracked tensor's elements: read them without
// history (`value()`), explicitly.
use axial::prelude::*;

axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f64, shape![Rows: 2, Cols: 3]>::zeros();
    let xv = x.track();
    let any = reduce!(xv.value(), "Rows Cols -> Rows", any);
    assert_eq!(any.to_vec(), vec![false.into(); 2]);
}
