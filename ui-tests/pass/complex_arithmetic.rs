// Complex tensors: arithmetic, equality, sums and conversions, as PyTorch
// has them; ordering is compared on magnitudes.
use axial::prelude::*;
use axial::Complex;
axes!(Rows);

fn main() {
    let z = Tensor::<Complex<f32>, shape![Rows: 2]>::from_array([Complex::new(1.0, 2.0), Complex::new(-3.0, 0.5)]);
    let w = &z * &z;
    assert_eq!(w.to_vec(), vec![Complex::new(-3.0, 4.0), Complex::new(8.75, -3.0)]);
    let same = z.eq(&z);
    assert!(same.to_vec().iter().all(|b| b.get()));
    let total = z.sum_all();
    assert_eq!(total.to_vec(), vec![Complex::new(-2.0, 2.5)]);
    let re = z.cast::<f32>();
    assert_eq!(re.to_vec(), vec![1.0, -3.0]);
    let _ = re.lt(&re);
    let _ = &re % &re; // the real parts have a remainder
}
