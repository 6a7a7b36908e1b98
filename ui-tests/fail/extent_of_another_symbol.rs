// A tensor made at the size of another symbol: the extent of `Seq` does
// not give an axis of size `Past`.
use axial::prelude::*;
axes!(Key, Past, Seq, Head);

fn keys<'id>(x: &Tensor<f32, shape![Seq: Sym<'id, Seq>, Head: 4]>) {
    let _ = Tensor::<f32, shape![Key: Sym<'id, Past>, Head: 4]>::zeros_dyn(x.extent::<Seq>());
}

fn main() {}
