//! Generic model code with bundle bounds: one function over any tensor with
//! an axis `Batch` standardizes along it, with two bounds (the dtype, the
//! shape), at several shapes, dtypes and kinds of size.

use axial::prelude::*;

axes!(Batch, Features, Seq);

/// `(x - mean) / std` over `Batch`, whatever the other axes and the dtype.
fn standardize<T: Float, S: OverAxis<Batch>>(x: &Tensor<T, S>) -> Tensor<T, S> {
    let mean = x.mean_keepdim::<Batch>();
    let std = x.std_keepdim::<Batch>(1.0);
    (x - &mean) / &std
}

#[test]
fn one_generic_function_at_two_shapes_and_two_dtypes() {
    let x = Tensor::<f32, shape![Batch: 4, Features: 2]>::from_array([
        [1.0, 10.0],
        [2.0, 20.0],
        [3.0, 30.0],
        [4.0, 40.0],
    ]);
    let z = standardize(&x);
    // mean 2.5, sample std 1.2910: PyTorch's (x - x.mean(0)) / x.std(0)
    let expected = [-1.161_895, -0.387_298, 0.387_298, 1.161_895];
    for (row, e) in (0isize..).zip(expected) {
        assert!((z.get([row, 0]) - e).abs() < 1e-5);
        assert!((z.get([row, 1]) - e).abs() < 1e-5);
    }

    // `Batch` in the middle, f64, and a run-time `Seq`.
    let mut rng = Generator::seed(3);
    let y = Tensor::<f64, shape![Seq: Dyn, Batch: 6, Features: 3]>::randn_dyn(5, &mut rng);
    let z = standardize(&y);
    assert_eq!(z.sizes().as_slice(), &[5, 6, 3]);
    let means = z.mean::<Batch>().to_vec();
    assert!(means.iter().all(|m| m.abs() < 1e-12));
    let stds = z.std::<Batch>(1.0).to_vec();
    assert!(stds.iter().all(|s| (s - 1.0).abs() < 1e-12));
}

type Rows<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Features: 3]>;

#[test]
fn over_symbolic_sizes() {
    let input = Tensor::<f32, shape![Batch: Dyn, Features: 3]>::arange_dyn(7);
    let checked = scope(|s| -> axial::Result<Vec<f32>> {
        let x: Rows<'_> = input.to_owned().realize_in(s)?;
        Ok(standardize(&x).mean::<Batch>().to_vec())
    })
    .unwrap();
    assert!(checked.iter().all(|m| m.abs() < 1e-6));
}
