// The elementwise ops PyTorch computes for the dtypes with few kernels:
// `relu`, `clamp`, `maximum` and `atan2` of uint16/32/64, `abs` of float8,
// `sign` of bool, `logical_and` and the transcendental functions of
// complex numbers.
use axial::prelude::*;
use axial::{Complex, F8E5M2};
axes!(Rows);

fn main() {
    let a = Tensor::<u16, shape![Rows: 3]>::from_array([0, 7, 65535]);
    assert_eq!(a.relu().to_vec(), vec![0, 7, 65535]);
    assert_eq!(a.clamp(1, 100).to_vec(), vec![1, 7, 100]);
    let b = Tensor::<u32, shape![Rows: 3]>::from_array([5, 1, 9]);
    assert_eq!(b.maximum(&b.clamp(2, 6)).to_vec(), vec![5, 2, 9]);
    assert_eq!(b.atan2(&b).to_vec()[0], std::f32::consts::FRAC_PI_4);

    let x = Tensor::<f32, shape![Rows: 3]>::from_array([-1.5, 2.0, -448.0]).cast::<F8E5M2>();
    assert_eq!(x.abs().cast::<f32>().to_vec(), vec![1.5, 2.0, 448.0]);

    let t = Tensor::<Bool, shape![Rows: 3]>::from_array([Bool::TRUE, Bool::FALSE, Bool::TRUE]);
    assert_eq!(t.sign().to_vec(), t.to_vec());

    let z = Tensor::<Complex<f32>, shape![Rows: 3]>::from_array([
        Complex::new(0.0, 1.0),
        Complex::new(0.0, 0.0),
        Complex::new(2.0, 0.0),
    ]);
    let truth = z.logical_and(&z).to_vec();
    assert_eq!(truth, vec![Bool::TRUE, Bool::FALSE, Bool::TRUE]);
    let e = z.exp().to_vec()[0]; // e^i = cos 1 + i sin 1
    assert!((e.re - 1f32.cos()).abs() < 1e-6 && (e.im - 1f32.sin()).abs() < 1e-6);
    let s = z.sqrt().to_vec()[2];
    assert!((s.re - 2f32.sqrt()).abs() < 1e-6 && s.im == 0.0);
}
