//! `matmul` with PyTorch's shapes (1-D operands, broadcast batch dims), its
//! error messages, half-precision results against an f32 reference, and
//! transposed and strided operands.

use axial_core::{DType, Element, Generator, RawTensor, TensorRef};
use half::{bf16, f16};

fn tensor(data: Vec<f32>, shape: &[usize]) -> RawTensor {
    RawTensor::from_vec(data, shape).unwrap()
}

/// `arange(n).view(shape)` as f32.
fn arange(shape: &[usize]) -> RawTensor {
    let n: usize = shape.iter().product();
    tensor((0..n).map(|v| v as f32).collect(), shape)
}

/// `a @ b` for 2-D views, element by element in f64.
fn naive(a: &TensorRef<'_>, b: &TensorRef<'_>) -> Vec<f64> {
    let (m, k, n) = (a.shape()[0], a.shape()[1], b.shape()[1]);
    let f = |t: &TensorRef<'_>, i: usize, j: usize| {
        let v = t.get::<f32>(&[i, j]).unwrap();
        v as f64
    };
    let mut out = vec![];
    for i in 0..m {
        for j in 0..n {
            out.push((0..k).map(|p| f(a, i, p) * f(b, p, j)).sum());
        }
    }
    out
}

fn as_f64(t: &RawTensor) -> Vec<f64> {
    t.view()
        .to_dtype(DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap()
}

#[test]
fn one_d_operands_follow_pytorch() {
    let v = tensor(vec![1.0, 2.0, 3.0], &[3]);
    let w = tensor(vec![4.0, 5.0, 6.0], &[3]);
    let dot = v.view().matmul(&w.view()).unwrap();
    assert_eq!(dot.shape(), &[] as &[usize]);
    assert_eq!(dot.view().item::<f32>().unwrap(), 32.0);

    let m = arange(&[2, 3]);
    let mv = m.view().matmul(&v.view()).unwrap();
    assert_eq!(
        (mv.shape(), mv.to_vec::<f32>().unwrap()),
        (&[2][..], vec![8.0, 26.0])
    );

    let m = arange(&[3, 2]);
    let vm = v.view().matmul(&m.view()).unwrap();
    assert_eq!(
        (vm.shape(), vm.to_vec::<f32>().unwrap()),
        (&[2][..], vec![16.0, 22.0])
    );

    // 1-D against a batch: (3,) @ (4, 3, 2) -> (4, 2).
    let b = arange(&[4, 3, 2]);
    assert_eq!(v.view().matmul(&b.view()).unwrap().shape(), &[4, 2]);
}

#[test]
fn batch_dims_broadcast() {
    let a = arange(&[2, 1, 3, 4]);
    let b = arange(&[5, 4, 2]);
    let c = a.view().matmul(&b.view()).unwrap();
    assert_eq!(c.shape(), &[2, 5, 3, 2]);
    let got = as_f64(&c);
    for i in 0..2 {
        for j in 0..5 {
            let ai = a.view().select(0, i).unwrap().select(0, 0).unwrap();
            let bj = b.view().select(0, j).unwrap();
            let at = (i as usize * 5 + j as usize) * 6;
            assert_eq!(got[at..at + 6], naive(&ai, &bj)[..], "batch ({i}, {j})");
        }
    }
}

#[test]
fn errors_are_pytorchs() {
    let s = tensor(vec![1.0], &[]);
    let v = tensor(vec![1.0, 2.0, 3.0], &[3]);
    let msg = |r: axial_core::Result<RawTensor>| r.err().unwrap().to_string();
    assert_eq!(
        msg(s.view().matmul(&v.view())),
        "matmul: both arguments to matmul need to be at least 1D, but they are 0D and 1D"
    );
    let a = arange(&[2, 3]);
    let b = arange(&[4, 2]);
    assert_eq!(
        msg(a.view().matmul(&b.view())),
        "matmul: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)"
    );
    let w = tensor(vec![1.0; 4], &[4]);
    assert_eq!(
        msg(v.view().matmul(&w.view())),
        "dot: inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively"
    );
    let x = arange(&[2, 2, 3]);
    let y = arange(&[3, 3, 2]);
    assert_eq!(
        msg(x.view().matmul(&y.view())),
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"
    );
    let d = RawTensor::zeros(&[3, 2], DType::F64).unwrap();
    assert_eq!(
        msg(a.view().matmul(&d.view())),
        "matmul: expected m1 and m2 to have the same dtype, but got: float32 != float64"
    );
    let b = RawTensor::zeros(&[3, 2], DType::Bool).unwrap();
    assert_eq!(
        msg(b.view().t().unwrap().matmul(&b.view())),
        "\"addmm_impl_cpu_\" not implemented for 'Bool'"
    );
}

/// `torch.matmul` of int64 operands, one transposed, from PyTorch:
/// `torch.arange(6).reshape(3, 2).T @ torch.arange(6).reshape(3, 2)`, and a
/// product that wraps around (2^62·2 + 2^62 = 3·2^62 ≡ −2^62).
#[test]
fn integer_products_are_pytorchs() {
    let i = RawTensor::from_vec((0..6i64).collect(), &[3, 2]).unwrap();
    let p = i.view().t().unwrap().matmul(&i.view()).unwrap();
    assert_eq!(p.to_vec::<i64>().unwrap(), vec![20, 26, 26, 35]);
    let x = RawTensor::from_vec(vec![1i64 << 62, 1 << 62], &[1, 2]).unwrap();
    let y = RawTensor::from_vec(vec![2i64, 1], &[2, 1]).unwrap();
    let p = x.view().matmul(&y.view()).unwrap();
    assert_eq!(p.to_vec::<i64>().unwrap(), vec![-(1i64 << 62)]);
}

#[test]
fn transposed_and_strided_operands_need_no_copy() {
    let base = arange(&[6, 8]);
    let a = base.view().t().unwrap(); // (8, 6), strides (1, 8)
    let b = base.view().slice(1, Some(1), None, 2).unwrap(); // (6, 4), strides (8, 2)
    let got = as_f64(&a.matmul(&b).unwrap());
    assert_eq!(got, naive(&a, &b));
    let c = base.view().slice(0, Some(1), Some(5), 1).unwrap(); // (4, 8) at offset 8
    let d = base.view().t().unwrap().slice(0, None, None, 3).unwrap(); // (3, 6)
    let got = as_f64(&c.matmul(&a).unwrap());
    assert_eq!(got, naive(&c, &a));
    let got = as_f64(&d.matmul(&b).unwrap());
    assert_eq!(got, naive(&d, &b));
    // A broadcast (stride-0) operand.
    let row = arange(&[1, 6]);
    let e = row.view().expand(&[5, 6]).unwrap();
    let got = as_f64(&e.matmul(&b).unwrap());
    assert_eq!(got, naive(&e, &b));
}

#[test]
fn empty_contraction_gives_zeros() {
    let a = RawTensor::zeros(&[3, 0], DType::F32).unwrap();
    let b = RawTensor::zeros(&[0, 2], DType::F32).unwrap();
    let c = a.view().matmul(&b.view()).unwrap();
    assert_eq!(
        (c.shape(), c.to_vec::<f32>().unwrap()),
        (&[3, 2][..], vec![0.0; 6])
    );
    let e = RawTensor::zeros(&[0, 4], DType::F32).unwrap();
    let f = RawTensor::zeros(&[4, 5], DType::F32).unwrap();
    assert_eq!(e.view().matmul(&f.view()).unwrap().shape(), &[0, 5]);
}

/// `x @ y` in `dtype` against the f32 product of the same (rounded) inputs,
/// within `tol` of the reference's magnitude.
fn half_against_f32<T: Element>(shape: (usize, usize, usize), tol: f32) {
    let (m, k, n) = shape;
    let mut rng = Generator::seed(3);
    let x = RawTensor::randn(&[m, k], T::DTYPE, &mut rng).unwrap();
    let y = RawTensor::randn(&[n, k], T::DTYPE, &mut rng).unwrap();
    let yt = y.view().t().unwrap();
    let got = x.view().matmul(&yt).unwrap();
    assert_eq!(got.dtype(), T::DTYPE);
    let (x32, y32) = (
        x.view().to_dtype(DType::F32).unwrap(),
        y.view().to_dtype(DType::F32).unwrap(),
    );
    let want = x32.view().matmul(&y32.view().t().unwrap()).unwrap();
    let scale = (k as f32).sqrt();
    for (g, w) in got
        .to_vec::<T>()
        .unwrap()
        .iter()
        .zip(want.to_vec::<f32>().unwrap())
    {
        let g = g.to_f32();
        assert!(
            (g - w).abs() <= 1.01 * tol * w.abs().max(scale),
            "{g} vs {w}"
        );
    }
}

#[test]
fn half_products_round_once_from_f32() {
    // One rounding of the f32 result: half an ulp, 2^-11 (f16) or 2^-8 (bf16).
    half_against_f32::<f16>((33, 300, 17), 1.0 / 2048.0);
    half_against_f32::<bf16>((33, 300, 17), 1.0 / 256.0);
    // Long contractions too: no rounding between blocks of k.
    half_against_f32::<f16>((8, 4096, 8), 1.0 / 2048.0);
}

#[test]
fn large_products_match_naive() {
    let mut rng = Generator::seed(11);
    let a = RawTensor::randn(&[2, 130, 120], DType::F32, &mut rng).unwrap();
    let b = RawTensor::randn(&[120, 110], DType::F32, &mut rng).unwrap();
    let c = a.view().matmul(&b.view()).unwrap();
    assert_eq!(c.shape(), &[2, 130, 110]);
    let got = as_f64(&c);
    for i in 0..2 {
        let ai = a.view().select(0, i).unwrap();
        let want = naive(&ai, &b.view());
        let at = i as usize * 130 * 110;
        for (g, w) in got[at..at + 130 * 110].iter().zip(want) {
            assert!((g - w).abs() < 1e-4 * w.abs().max(10.0), "{g} vs {w}");
        }
    }
}
