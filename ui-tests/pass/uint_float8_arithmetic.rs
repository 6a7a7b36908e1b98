// uint16 and float8 tensors as PyTorch's CPU kernels compute them: both
// multiply and compare for equality; uint16 divides (to f32) and has
// `maximum`; converted, they have the rest.
use axial::prelude::*;
use axial::F8E4M3Fn;
axes!(Rows);

fn main() {
    let a = Tensor::<u16, shape![Rows: 3]>::from_array([2, 7, 65535]);
    let b = Tensor::<u16, shape![Rows: 3]>::from_array([3, 2, 1]);
    assert_eq!((&a * &b).to_vec(), vec![6, 14, 65535]);
    assert_eq!((&a / &b).to_vec(), vec![2.0 / 3.0, 3.5, 65535.0]);
    assert_eq!(a.maximum(&b).to_vec(), vec![3, 7, 65535]);
    assert!(a.eq(&a).to_vec().iter().all(|t| t.get()));
    let sum = a.cast::<i64>() + b.cast::<i64>();
    assert_eq!(sum.to_vec(), vec![5, 9, 65536]);

    let x = Tensor::<f32, shape![Rows: 3]>::from_array([1.5, -2.0, 448.0]).cast::<F8E4M3Fn>();
    let one = Tensor::<F8E4M3Fn, shape![Rows: 3]>::ones();
    let y = &x * &one;
    assert_eq!(y.cast::<f32>().to_vec(), vec![1.5, -2.0, 448.0]);
    assert!(x.eq(&y).to_vec().iter().all(|t| t.get()));
    let z = x.cast::<f32>() / 2.0;
    assert_eq!(z.to_vec(), vec![0.75, -1.0, 224.0]);
}
