// A function over "any tensor with an axis `Batch`" called with a tensor
// that has none.
use axial::prelude::*;
axes!(Batch, Seq, Features);

fn standardize<T: Float, S: OverAxis<Batch>>(x: &Tensor<T, S>) -> Tensor<T, S> {
    let mean = x.mean_keepdim::<Batch>();
    (x - &mean) / &x.std_keepdim::<Batch>(1.0)
}

fn main() {
    let x = Tensor::<f32, shape![Seq: 4, Features: 2]>::zeros();
    let _ = standardize(&x);
}
