// Generic code over a shape with a `Dyn` axis, with the prelude's bounds,
// and a scope passed to a model function by the prelude's `Scope`.
use axial::prelude::*;
use axial::Shape;

axes!(Batch, Model);

fn zeros_of<S: Shape + Distinct>(n: usize) -> Tensor<f32, S>
where
    usize: axial::shape::DynSizes<S>,
{
    Tensor::zeros_dyn(n)
}

type X<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Model: 4]>;

fn load<'id>(s: &Scope<'id>, x: &Tensor<f32, shape![Batch: Dyn, Model: 4]>) -> axial::Result<X<'id>> {
    x.clone().realize_in(s)
}

fn main() {
    let x = zeros_of::<shape![Batch: Dyn, Model: 4]>(2);
    let n = scope(|s| load(s, &x).map(|x| x.sizes()[0]));
    assert_eq!(n.unwrap(), 2);
}
