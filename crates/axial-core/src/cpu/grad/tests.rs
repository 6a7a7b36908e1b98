//! The fused derivatives against the composed formulas computed in f64
//! (their bits on any thread count: `tests/threads.rs`).

use crate::autograd::Grad;
use crate::ops::norm::LayerNormGrad;
use crate::ops::{LayerNorm, Softmax};
use crate::{Backend, Cpu, DType, Generator, Layout, RawTensor, UnaryOp};

fn randn(shape: &[usize], scale: f32, rng: &mut Generator) -> RawTensor {
    let t = RawTensor::randn(shape, DType::F32, rng).unwrap();
    let v: Vec<f32> = t
        .to_vec::<f32>()
        .unwrap()
        .iter()
        .map(|v| v * scale)
        .collect();
    RawTensor::from_vec(v, shape).unwrap()
}

fn f64s(t: &RawTensor) -> RawTensor {
    t.view().to_dtype(DType::F64).unwrap()
}

fn empty(shape: &[usize]) -> RawTensor {
    crate::tensor::alloc_output(&Cpu, Layout::contiguous(shape), DType::F32).unwrap()
}

/// `got` (f32) within f32's rounding of `want` (f64), NaN where it is NaN;
/// `scale` bounds the terms that cancel in each element.
fn close(got: &RawTensor, want: &RawTensor, scale: &[f64], what: &str) {
    let (got, want) = (got.to_vec::<f32>().unwrap(), want.to_vec::<f64>().unwrap());
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, ((&a, &b), &s)) in got.iter().zip(&want).zip(scale).enumerate() {
        let ok = match b.is_nan() {
            true => a.is_nan(),
            false => (a as f64 - b).abs() <= 1e-6 * (s + b.abs()) + 1e-30,
        };
        assert!(ok, "{what}: element {i}: {a} against {b}");
    }
}

fn fused_unary(op: UnaryOp, x: &RawTensor, g: &RawTensor) -> RawTensor {
    let mut out = empty(x.shape());
    let done = Cpu
        .unary_backward(op, x.view().input(), g.view().input(), out.output())
        .unwrap();
    assert!(done, "{op:?}");
    out
}

#[test]
fn activation_derivatives_match_the_composed_formulas() {
    let mut rng = Generator::seed(11);
    // A tail that is no multiple of a vector; one large enough to split.
    for shape in [vec![37], vec![5, 1003], vec![300, 301]] {
        let mut x = randn(&shape, 3.0, &mut rng);
        let specials = [0.0, -0.0, 30.0, -30.0, 1e4, -1e4, f32::INFINITY, f32::NAN];
        x.view_mut()
            .view(&[-1])
            .unwrap()
            .narrow(0, 0, 8)
            .unwrap()
            .copy_(&RawTensor::from_vec(specials.to_vec(), &[8]).unwrap().view())
            .unwrap();
        let g = randn(&shape, 1.0, &mut rng);
        let scale: Vec<f64> = g
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|v| v.abs() as f64 * 2.0)
            .collect();
        for op in [UnaryOp::Gelu, UnaryOp::GeluTanh, UnaryOp::Silu] {
            let got = fused_unary(op, &x, &g);
            let (x64, g64) = (f64s(&x), f64s(&g));
            let ctx = crate::ops::unary::UnaryGrad {
                op,
                g: Grad::new(g64),
                x: Some(x64.view()),
                y: None,
            };
            let want = op.backward(&ctx).unwrap();
            close(&got, &want, &scale, &format!("{op:?} {shape:?}"));
        }
    }
}

#[test]
fn other_ops_and_dtypes_are_declined() {
    let x = RawTensor::from_vec(vec![1.0f64; 4], &[4]).unwrap();
    let mut out = RawTensor::from_vec(vec![0.0f64; 4], &[4]).unwrap();
    let declined = |op| {
        let mut o = empty(&[4]);
        let x32 = RawTensor::from_vec(vec![1.0f32; 4], &[4]).unwrap();
        !Cpu.unary_backward(op, x32.view().input(), x32.view().input(), o.output())
            .unwrap()
    };
    assert!(declined(UnaryOp::Exp));
    let f64_done = Cpu
        .unary_backward(
            UnaryOp::Gelu,
            x.view().input(),
            x.view().input(),
            out.output(),
        )
        .unwrap();
    assert!(!f64_done);
    // Softmax along a dim other than the last.
    let y = RawTensor::from_vec(vec![0.5f32; 6], &[2, 3]).unwrap();
    let mut o = empty(&[2, 3]);
    let op = Softmax { dim: 0, log: false };
    assert!(
        !Cpu.softmax_backward(op, y.view().input(), y.view().input(), o.output())
            .unwrap()
    );
}

fn fused_softmax(op: Softmax, y: &RawTensor, g: &RawTensor) -> RawTensor {
    let mut out = empty(y.shape());
    let done = Cpu
        .softmax_backward(op, y.view().input(), g.view().input(), out.output())
        .unwrap();
    assert!(done);
    out
}

#[test]
fn softmax_derivatives_match_the_composed_formulas() {
    let mut rng = Generator::seed(12);
    for shape in [vec![4, 7], vec![3, 5, 128], vec![200, 1001], vec![6, 1]] {
        for log in [false, true] {
            let op = Softmax {
                dim: shape.len() - 1,
                log,
            };
            let x = randn(&shape, 4.0, &mut rng);
            let y = match log {
                true => x.view().log_softmax(-1).unwrap(),
                false => x.view().softmax(-1).unwrap(),
            };
            let g = randn(&shape, 1.0, &mut rng);
            let got = fused_softmax(op, &y, &g);
            let want = op.backward(&f64s(&y).view(), &Grad::new(f64s(&g))).unwrap();
            // The terms that cancel: g·y and y·Σg·y (softmax), g and
            // exp(y)·Σg (log-softmax), bounded by the row's Σ|g|.
            let len = shape[shape.len() - 1];
            let gs = g.to_vec::<f32>().unwrap();
            let scale: Vec<f64> = gs
                .chunks(len)
                .flat_map(|row| {
                    let s: f64 = row.iter().map(|v| v.abs() as f64).sum();
                    std::iter::repeat_n(s, len)
                })
                .collect();
            close(&got, &want, &scale, &format!("log {log} {shape:?}"));
        }
    }
}

fn fused_layer_norm(
    x: &RawTensor,
    g: &RawTensor,
    w: Option<&RawTensor>,
    needs: [bool; 3],
) -> [Option<RawTensor>; 3] {
    let n = x.shape()[1];
    let shapes = [x.shape().to_vec(), vec![n], vec![n]];
    let mut grads = [0, 1, 2].map(|i| needs[i].then(|| empty(&shapes[i])));
    let [a, b, c] = &mut grads;
    let outputs = [a, b, c].map(|o| o.as_mut().map(RawTensor::output));
    let done = Cpu
        .layer_norm_backward(
            LayerNorm { eps: 1e-5 },
            x.view().input(),
            g.view().input(),
            w.map(|w| w.view().input()),
            outputs,
        )
        .unwrap();
    assert!(done);
    grads
}

#[test]
fn layer_norm_gradients_match_the_composed_formulas() {
    let mut rng = Generator::seed(13);
    for (rows, n) in [(3, 37), (1024, 384), (7, 1), (40, 1000)] {
        let x = randn(&[rows, n], 2.0, &mut rng);
        let g = randn(&[rows, n], 1.0, &mut rng);
        let w = randn(&[n], 1.0, &mut rng);
        for (weight, needs) in [
            (Some(&w), [true, true, true]),
            (None, [true, false, true]),
            (Some(&w), [false, true, false]),
        ] {
            let got = fused_layer_norm(&x, &g, weight, needs);
            let w64 = weight.map(f64s);
            let x64 = f64s(&x);
            let ctx = LayerNormGrad {
                op: LayerNorm { eps: 1e-5 },
                x: x64.view(),
                weight: w64.as_ref().map(RawTensor::view),
                k: 1,
                needs,
            };
            let want = ctx.backward(&Grad::new(f64s(&g))).unwrap();
            for (i, (got, want)) in got.iter().zip(want).enumerate() {
                assert_eq!(got.is_some(), want.is_some(), "gradient {i}");
                let (Some(got), Some(want)) = (got, want) else {
                    continue;
                };
                let want = want.view().to_contiguous().unwrap();
                // Sums over rows (the parameters') or a row (the input's)
                // of terms up to |g|·|x̂|: bounded by the count times 4.
                let count = if i == 0 { n } else { rows } as f64;
                let scale = vec![count.sqrt() * 4.0; want.view().numel()];
                close(
                    got,
                    &want,
                    &scale,
                    &format!("gradient {i} of [{rows}, {n}]"),
                );
            }
        }
    }
}
