// `einsum!` takes tensors, views, and references to them at any depth, as
// code that holds a `&Tensor` has them.
use axial::prelude::*;
axes!(Rows, Inner, Cols);

fn product(a: &Tensor<f32, shape![Rows: 2, Inner: 3]>, b: &&Tensor<f32, shape![Inner: 3, Cols: 4]>) -> Tensor<f32, shape![Rows: 2, Cols: 4]> {
    einsum!("Rows Inner, Inner Cols -> Rows Cols", a, b)
}

fn main() {
    let a = Tensor::<f32, shape![Rows: 2, Inner: 3]>::ones();
    let b = Tensor::<f32, shape![Inner: 3, Cols: 4]>::ones();
    let c = product(&a, &&b);
    assert_eq!(c.to_vec(), vec![3.0; 8]);
    let mut m = b.clone();
    let d = einsum!("Rows Inner, Inner Cols -> Rows Cols", a.as_view(), &mut m);
    assert_eq!(d.to_vec(), vec![3.0; 8]);
}
