//! f16 and bf16 softmax, log_softmax and layer_norm reach the CPU's kernels
//! as they are, which widen each row into f32 as they read it and round
//! once as they write it: the bits of widening the whole tensor to f32,
//! running the f32 kernel and rounding the result (the computation PyTorch's
//! CPU kernels make), for rows along every dim, strided inputs, rows longer
//! than the kernels' scratch rows, and wide column chunks.

use axial_core::{DType, Generator, RawTensor, TensorRef};

const HALVES: [DType; 2] = [DType::F16, DType::BF16];

fn random(shape: &[usize], dtype: DType, seed: u64) -> RawTensor {
    let x = RawTensor::randn(shape, DType::F32, &mut Generator::seed(seed)).unwrap();
    let x = x
        .view()
        .binary_scalar(axial_core::BinaryOp::Mul, 4.0.into())
        .unwrap();
    x.view().to_dtype(dtype).unwrap()
}

/// The bits of a tensor, in row-major order.
fn bits(t: &RawTensor) -> Vec<u16> {
    let f = t
        .view()
        .to_dtype(DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    match t.dtype() {
        DType::F16 => f
            .iter()
            .map(|&v| half::f16::from_f32(v).to_bits())
            .collect(),
        _ => f
            .iter()
            .map(|&v| half::bf16::from_f32(v).to_bits())
            .collect(),
    }
}

/// `f` of `x` as PyTorch's CPU computes it for a half dtype: in f32, rounded.
fn in_f32(x: &TensorRef<'_>, f: impl Fn(&TensorRef<'_>) -> RawTensor) -> RawTensor {
    let wide = x.to_dtype(DType::F32).unwrap();
    f(&wide.view()).view().to_dtype(x.dtype()).unwrap()
}

#[test]
fn softmax_of_halves_is_the_f32_kernel_rounded() {
    let shapes: [&[usize]; 5] = [&[7, 33], &[3, 40, 5], &[2, 9000], &[9000, 3], &[5, 3000]];
    for dtype in HALVES {
        for (k, shape) in shapes.iter().enumerate() {
            let x = random(shape, dtype, k as u64);
            for dim in 0..shape.len() as isize {
                for log in [false, true] {
                    let run = |t: &TensorRef<'_>| {
                        if log {
                            t.log_softmax(dim).unwrap()
                        } else {
                            t.softmax(dim).unwrap()
                        }
                    };
                    let got = run(&x.view());
                    assert_eq!(got.dtype(), dtype);
                    let want = in_f32(&x.view(), run);
                    assert_eq!(
                        bits(&got),
                        bits(&want),
                        "{dtype} {shape:?} dim {dim} log {log}"
                    );
                }
            }
        }
        // A transposed input, and a slice with a step.
        let x = random(&[40, 30], dtype, 9);
        let t = x.view().t().unwrap();
        assert_eq!(
            bits(&t.softmax(1).unwrap()),
            bits(&in_f32(&t, |t| t.softmax(1).unwrap()))
        );
        let s = x.view().slice(1, None, None, 3).unwrap();
        assert_eq!(
            bits(&s.softmax(0).unwrap()),
            bits(&in_f32(&s, |t| t.softmax(0).unwrap()))
        );
    }
}

#[test]
fn layer_norm_of_halves_is_the_f32_kernel_rounded() {
    for dtype in HALVES {
        for (k, n) in [7usize, 384, 5000].into_iter().enumerate() {
            let x = random(&[6, n], dtype, 20 + k as u64);
            let w = random(&[n], dtype, 30 + k as u64);
            let b = random(&[n], dtype, 40 + k as u64);
            let got = x
                .view()
                .layer_norm(&[n], Some(&w.view()), Some(&b.view()), 1e-5)
                .unwrap();
            let (w32, b32) = (
                w.view().to_dtype(DType::F32).unwrap(),
                b.view().to_dtype(DType::F32).unwrap(),
            );
            let want = in_f32(&x.view(), |t| {
                t.layer_norm(&[n], Some(&w32.view()), Some(&b32.view()), 1e-5)
                    .unwrap()
            });
            assert_eq!(got.dtype(), dtype);
            assert_eq!(bits(&got), bits(&want), "{dtype} rows of {n}");
        }
        // A strided input and weight.
        let x = random(&[10, 12], dtype, 50);
        let t = x.view().t().unwrap();
        let w = random(&[20], dtype, 51);
        let w = w.view().slice(0, None, None, 2).unwrap();
        let got = t.layer_norm(&[10], Some(&w), None, 1e-5).unwrap();
        let w32 = w.to_dtype(DType::F32).unwrap();
        let want = in_f32(&t, |t| {
            t.layer_norm(&[10], Some(&w32.view()), None, 1e-5).unwrap()
        });
        assert_eq!(bits(&got), bits(&want), "{dtype} strided");
    }
}
