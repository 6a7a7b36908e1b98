//! Every op with a derivative, checked against finite differences in f64
//! with PyTorch's `gradcheck` tolerances (eps 1e-6, atol 1e-5, rtol 1e-3),
//! on inputs away from the points where an op has no derivative.

use axial_core::autograd::{CrossEntropy, F64, Reduction, Var, gradcheck};
use axial_core::{
    ArgReduceOp, BinaryOp, Bool, DType, Generator, RawTensor, ReduceOp, Result, Scalar, UnaryOp,
};

/// `n` values in `[lo, hi)` from a seeded generator, kept at least 0.05
/// apart from each other's kinks by construction of the callers' ranges.
fn values(n: usize, lo: f64, hi: f64, seed: u64) -> Vec<f64> {
    let mut rng = Generator::seed(seed);
    let u = RawTensor::rand(&[n], DType::F64, &mut rng).unwrap();
    u.to_vec::<f64>()
        .unwrap()
        .into_iter()
        .map(|v| lo + (hi - lo) * v)
        .collect()
}

fn input(shape: &[usize], lo: f64, hi: f64, seed: u64) -> F64 {
    let n = shape.iter().product();
    F64::new(values(n, lo, hi, seed), shape).unwrap()
}

/// Distinct values (a permutation of a grid), for max, min and ties.
fn distinct(shape: &[usize], seed: u64) -> F64 {
    let n: usize = shape.iter().product();
    let keys = values(n, 0.0, 1.0, seed);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
    let mut v = vec![0.0; n];
    for (rank, &i) in order.iter().enumerate() {
        v[i] = rank as f64 * 0.37 - 1.3;
    }
    F64::new(v, shape).unwrap()
}

fn constant(values: Vec<f64>, shape: &[usize]) -> Var<'static> {
    Var::constant(RawTensor::from_vec(values, shape).unwrap())
}

fn ids(values: Vec<i64>, shape: &[usize]) -> Var<'static> {
    Var::constant(RawTensor::from_vec(values, shape).unwrap())
}

#[track_caller]
fn check(f: impl for<'a> Fn(&'a [Var<'static>]) -> Result<Var<'a>>, inputs: &[F64]) {
    if let Err(e) = gradcheck(f, inputs) {
        panic!("{e}");
    }
}

#[test]
fn unary_ops() {
    let any = || input(&[2, 3], -1.5, 1.5, 1);
    let positive = || input(&[2, 3], 0.3, 2.0, 2);
    let away = || input(&[2, 3], 0.2, 1.5, 3); // no zeros: abs, relu, sign
    for op in [
        UnaryOp::Neg,
        UnaryOp::Exp,
        UnaryOp::Expm1,
        UnaryOp::Sin,
        UnaryOp::Cos,
        UnaryOp::Tanh,
        UnaryOp::Sigmoid,
        UnaryOp::Gelu,
        UnaryOp::GeluTanh,
        UnaryOp::Silu,
        UnaryOp::Erf,
        UnaryOp::Square,
        UnaryOp::PowScalar(3.0),
        UnaryOp::PowScalar(0.0),
        UnaryOp::Clamp {
            min: Some(-0.5),
            max: Some(0.7),
        },
        UnaryOp::Clamp {
            min: None,
            max: Some(0.1),
        },
    ] {
        check(move |x| x[0].unary(op), &[any()]);
    }
    for op in [
        UnaryOp::Sqrt,
        UnaryOp::Rsqrt,
        UnaryOp::Log,
        UnaryOp::Log1p,
        UnaryOp::Reciprocal,
        UnaryOp::PowScalar(-1.5),
        UnaryOp::PowScalar(0.5),
    ] {
        check(move |x| x[0].unary(op), &[positive()]);
    }
    check(|x| x[0].unary(UnaryOp::Tan), &[input(&[4], -1.0, 1.0, 4)]);
    for op in [UnaryOp::Abs, UnaryOp::Relu, UnaryOp::Sign, UnaryOp::Floor] {
        check(move |x| x[0].unary(op), &[away()]);
        check(move |x| x[0].unary(UnaryOp::Neg)?.unary(op), &[away()]);
    }
}

#[test]
fn activations() {
    let x = || distinct(&[2, 4], 5);
    check(|x| x[0].leaky_relu(0.01), &[x()]);
    check(|x| x[0].hardtanh(-0.5, 0.6), &[x()]);
    check(|x| x[0].prelu(&x[1]), &[x(), input(&[4], 0.1, 0.5, 6)]);
    check(|x| x[0].prelu(&x[1]), &[x(), input(&[1], 0.1, 0.5, 6)]);
}

#[test]
fn binary_ops_broadcast() {
    let shapes: [(&[usize], &[usize]); 4] = [
        (&[2, 3], &[2, 3]),
        (&[2, 3], &[3]),
        (&[2, 1], &[1, 3]),
        (&[3], &[2, 1, 3]),
    ];
    for (i, (sa, sb)) in shapes.into_iter().enumerate() {
        let s = i as u64 * 10;
        for op in [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Atan2] {
            check(
                move |x| x[0].binary(op, &x[1]),
                &[input(sa, -1.0, 1.0, s), input(sb, 0.2, 1.0, s + 1)],
            );
        }
        check(
            |x| x[0].binary(BinaryOp::Div, &x[1]),
            &[input(sa, -1.0, 1.0, s), input(sb, 0.5, 1.5, s + 2)],
        );
        check(
            |x| x[0].binary(BinaryOp::Pow, &x[1]),
            &[input(sa, 0.5, 1.5, s), input(sb, -1.0, 2.0, s + 3)],
        );
        check(
            |x| x[0].binary(BinaryOp::Rem, &x[1]),
            &[input(sa, 0.1, 0.9, s), input(sb, 1.0, 1.5, s + 4)],
        );
        for op in [BinaryOp::Maximum, BinaryOp::Minimum] {
            check(
                move |x| x[0].binary(op, &x[1]),
                &[distinct(sa, s + 5), input(sb, 0.01, 0.02, s + 6)],
            );
        }
    }
    // One operand needs no gradient.
    let c = constant(vec![0.5, 2.0, -1.0], &[3]);
    check(
        move |x| x[0].binary(BinaryOp::Mul, &c),
        &[input(&[2, 3], -1.0, 1.0, 7)],
    );
}

#[test]
fn scalar_ops() {
    let x = || input(&[2, 2], 0.5, 1.5, 8);
    for op in [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Pow,
    ] {
        check(move |x| x[0].binary_scalar(op, Scalar::Float(2.5)), &[x()]);
    }
    check(
        |x| x[0].binary_scalar(BinaryOp::Rem, Scalar::Float(2.0)),
        &[x()],
    );
    for op in [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Pow,
    ] {
        check(move |x| x[0].scalar_binary(op, Scalar::Float(1.7)), &[x()]);
    }
}

#[test]
fn reductions() {
    let x = || input(&[2, 3, 4], -1.0, 1.0, 9);
    for (dims, keepdim) in [
        (&[][..], false),
        (&[1][..], false),
        (&[0, 2][..], true),
        (&[-1][..], true),
    ] {
        for op in [
            ReduceOp::Sum,
            ReduceOp::Mean,
            ReduceOp::Var { correction: 1.0 },
            ReduceOp::Var { correction: 0.0 },
            ReduceOp::Std { correction: 1.0 },
        ] {
            check(move |x| x[0].reduce(op, dims, keepdim), &[x()]);
        }
        for op in [ReduceOp::Max, ReduceOp::Min] {
            check(
                move |x| x[0].reduce(op, dims, keepdim),
                &[distinct(&[2, 3, 4], 10)],
            );
        }
        check(move |x| x[0].logsumexp(dims, keepdim), &[x()]);
    }
    for op in [ArgReduceOp::ArgMax, ArgReduceOp::ArgMin] {
        for keepdim in [false, true] {
            check(
                move |x| Ok(x[0].max_min_dim(op, 1, keepdim)?.0),
                &[distinct(&[2, 3, 4], 11)],
            );
        }
    }
    // The 0-dim tensor.
    check(|x| x[0].sum(&[], false), &[input(&[], -1.0, 1.0, 12)]);
}

#[test]
fn products() {
    let cases: [(&[usize], &[usize]); 7] = [
        (&[3], &[3]),
        (&[2, 3], &[3]),
        (&[3], &[3, 2]),
        (&[2, 3], &[3, 4]),
        (&[2, 2, 3], &[3, 4]),
        (&[3], &[2, 3, 4]),
        (&[2, 1, 2, 3], &[3, 3, 2]),
    ];
    for (i, (sa, sb)) in cases.into_iter().enumerate() {
        let s = 20 + 2 * i as u64;
        check(
            |x| x[0].matmul(&x[1]),
            &[input(sa, -1.0, 1.0, s), input(sb, -1.0, 1.0, s + 1)],
        );
    }
    let w = || input(&[4, 3], -1.0, 1.0, 40);
    let b = || input(&[4], -1.0, 1.0, 41);
    for shape in [&[3][..], &[2, 3], &[2, 2, 3]] {
        check(
            |x| x[0].linear(&x[1], Some(&x[2])),
            &[input(shape, -1.0, 1.0, 42), w(), b()],
        );
        check(
            |x| x[0].linear(&x[1], None),
            &[input(shape, -1.0, 1.0, 43), w()],
        );
    }
    check(
        |x| Var::addmm(&x[0], &x[1], &x[2]),
        &[
            input(&[4], -1.0, 1.0, 44),
            input(&[2, 3], -1.0, 1.0, 45),
            input(&[3, 4], -1.0, 1.0, 46),
        ],
    );
}

#[test]
fn softmax_and_layer_norm() {
    let x = || input(&[2, 3, 4], -2.0, 2.0, 50);
    for dim in [0, 1, -1] {
        check(move |x| x[0].softmax(dim), &[x()]);
        check(move |x| x[0].log_softmax(dim), &[x()]);
    }
    let w = || input(&[4], 0.5, 1.5, 51);
    let b = || input(&[4], -1.0, 1.0, 52);
    check(
        |x| x[0].layer_norm(&[4], Some(&x[1]), Some(&x[2]), 1e-5),
        &[x(), w(), b()],
    );
    check(|x| x[0].layer_norm(&[4], None, None, 1e-5), &[x()]);
    check(
        |x| x[0].layer_norm(&[4], Some(&x[1]), None, 0.0),
        &[x(), w()],
    );
    check(
        |x| x[0].layer_norm(&[3, 4], Some(&x[1]), Some(&x[2]), 1e-5),
        &[
            x(),
            input(&[3, 4], 0.5, 1.5, 53),
            input(&[3, 4], -1.0, 1.0, 54),
        ],
    );
}

#[test]
fn reads_by_index() {
    let table = || input(&[5, 3], -1.0, 1.0, 60);
    check(
        |x| x[0].embedding(&ids(vec![4, 0, 4, 2, 1, 4], &[2, 3])),
        &[table()],
    );
    check(
        |x| x[0].index_select(0, &ids(vec![1, 1, 3], &[3])),
        &[table()],
    );
    check(|x| x[0].index_select(1, &ids(vec![2, 0], &[2])), &[table()]);
    check(
        |x| x[0].gather(1, &ids(vec![0, 2, 2, 1, 0, 0], &[3, 2])),
        &[table()],
    );
    check(|x| x[0].gather(0, &ids(vec![4, 4, 0], &[1, 3])), &[table()]);
    let mask = Var::constant(
        RawTensor::from_vec(vec![Bool::TRUE, Bool::FALSE, Bool::TRUE], &[3]).unwrap(),
    );
    check(
        move |x| x[0].masked_fill(&mask, Scalar::Float(0.5)),
        &[table()],
    );
    let cond = Var::constant(RawTensor::from_vec(vec![Bool::TRUE, Bool::FALSE], &[2, 1]).unwrap());
    check(
        move |x| Var::where_(&cond, &x[0], &x[1]),
        &[input(&[3], -1.0, 1.0, 61), input(&[2, 3], -1.0, 1.0, 62)],
    );
    check(|x| x[0].cumsum(1), &[table()]);
    check(
        |x| x[0].triangle(false, 0),
        &[input(&[3, 3], -1.0, 1.0, 63)],
    );
    check(
        |x| x[0].triangle(true, 1),
        &[input(&[2, 3, 3], -1.0, 1.0, 64)],
    );
}

#[test]
fn views() {
    let x = || input(&[2, 3, 4], -1.0, 1.0, 70);
    check(
        |x| {
            x[0].permute(&[2, 0, 1])?
                .binary(BinaryOp::Mul, &x[0].permute(&[2, 0, 1])?)
        },
        &[x()],
    );
    check(|x| x[0].transpose(0, 2)?.exp(), &[x()]);
    check(|x| x[0].movedim(&[0], &[2])?.exp(), &[x()]);
    check(|x| x[0].unsqueeze(1)?.squeeze()?.exp(), &[x()]);
    check(|x| x[0].view(&[6, 4])?.exp(), &[x()]);
    check(|x| x[0].transpose(0, 2)?.reshape(&[-1])?.exp(), &[x()]);
    check(|x| x[0].flatten(0, 1)?.unflatten(0, &[3, 2])?.exp(), &[x()]);
    check(|x| x[0].narrow(2, 1, 2)?.exp(), &[x()]);
    check(|x| x[0].slice(2, Some(0), None, 2)?.exp(), &[x()]);
    check(|x| x[0].select(1, -1)?.exp(), &[x()]);
    check(|x| x[0].diagonal(1, 1, 2)?.exp(), &[x()]);
    check(|x| x[0].unfold(2, 3, 1)?.exp(), &[x()]);
    check(|x| x[0].unfold(2, 2, 2)?.exp(), &[x()]);
    check(
        |x| x[0].select(0, 0)?.unsqueeze(0)?.expand(&[5, 3, 4])?.exp(),
        &[x()],
    );
    check(|x| x[0].transpose(1, 2)?.contiguous()?.exp(), &[x()]);
    // as_strided: overlapping output windows, and an overlapping input.
    check(
        |x| x[0].as_strided(&[5, 3], &[1, 1], Some(1))?.exp(),
        &[input(&[8], -1.0, 1.0, 71)],
    );
    check(
        |x| {
            x[0].expand(&[3, 4])?
                .as_strided(&[2, 2], &[1, 1], None)?
                .exp()
        },
        &[input(&[4], -1.0, 1.0, 72)],
    );
    // as_strided that permutes every element of its input (a typed view's
    // record): the gradient is read back through the input's layout, also
    // when that is itself a transpose, an offset slice or a size-1 dim.
    check(
        |x| x[0].as_strided(&[4, 2, 3], &[1, 12, 4], None)?.exp(),
        &[x()],
    );
    check(
        |x| {
            x[0].transpose(0, 2)?
                .as_strided(&[2, 3, 4], &[4, 8, 1], None)?
                .exp()
        },
        &[x()],
    );
    check(
        |x| {
            x[0].narrow(0, 1, 1)?
                .as_strided(&[4, 3, 1], &[1, 4, 12], Some(12))?
                .exp()
        },
        &[x()],
    );
    check(|x| x[0].split(3, 2)?[1].exp(), &[x()]);
    check(|x| x[0].chunk(2, 1)?[1].exp(), &[x()]);
    check(
        |x| Var::cat(&[&x[0], &x[1].exp()?, &x[0]], 1),
        &[x(), input(&[2, 1, 4], -1.0, 1.0, 73)],
    );
    check(
        |x| Var::stack(&[&x[0], &x[1]], 1),
        &[x(), input(&[2, 3, 4], -1.0, 1.0, 74)],
    );
    check(|x| x[0].to_dtype(DType::F64)?.exp(), &[x()]);
    check(|x| x[0].copied()?.exp(), &[x()]);
}

#[test]
fn dropout_is_the_same_mask_each_call() {
    check(
        |x| x[0].dropout(0.3, &mut Generator::seed(3)),
        &[input(&[4, 5], -1.0, 1.0, 80)],
    );
}

#[test]
fn losses() {
    let logits = || input(&[4, 3], -2.0, 2.0, 90);
    let t = || ids(vec![2, 0, -100, 1], &[4]);
    for reduction in [Reduction::Mean, Reduction::Sum, Reduction::None] {
        for label_smoothing in [0.0, 0.2] {
            let opts = CrossEntropy {
                ignore_index: -100,
                label_smoothing,
                reduction,
            };
            check(move |x| x[0].cross_entropy(&t(), opts), &[logits()]);
        }
        check(
            move |x| x[0].log_softmax(1)?.nll_loss(&t(), -100, reduction),
            &[logits()],
        );
        check(
            move |x| x[0].mse_loss(&x[1], reduction),
            &[logits(), input(&[4, 3], -1.0, 1.0, 91)],
        );
        check(
            move |x| x[0].binary_cross_entropy_with_logits(&x[1], reduction),
            &[logits(), input(&[4, 3], 0.0, 1.0, 92)],
        );
    }
    // Spatial targets: classes along dim 1.
    check(
        |x| x[0].cross_entropy(&ids(vec![0, 2, 1, 1], &[2, 2]), CrossEntropy::default()),
        &[input(&[2, 3, 2], -1.0, 1.0, 93)],
    );
    // One sample.
    check(
        |x| x[0].cross_entropy(&ids(vec![1], &[]), CrossEntropy::default()),
        &[input(&[3], -1.0, 1.0, 94)],
    );
}

#[test]
fn in_place_ops() {
    let x = || input(&[2, 3], 0.5, 1.5, 100);
    check(
        |x| {
            let mut h = x[0].copied()?;
            h.binary_(BinaryOp::Mul, &x[1])?;
            h.binary_scalar_(BinaryOp::Add, Scalar::Float(1.0))?;
            h.binary_(BinaryOp::Div, &x[1])?;
            Ok(h)
        },
        &[x(), input(&[3], 0.5, 1.5, 101)],
    );
    for op in [UnaryOp::Exp, UnaryOp::Log, UnaryOp::Sigmoid, UnaryOp::Sqrt] {
        check(
            move |x| {
                let mut h = x[0].copied()?;
                h.unary_(op)?;
                h.binary(BinaryOp::Mul, &x[0])
            },
            &[x()],
        );
    }
    let mask = Var::constant(
        RawTensor::from_vec(vec![Bool::FALSE, Bool::TRUE, Bool::FALSE], &[3]).unwrap(),
    );
    check(
        move |x| {
            let mut h = x[0].binary_scalar(BinaryOp::Mul, Scalar::Float(2.0))?;
            h.masked_fill_(&mask, Scalar::Float(-1.0))?;
            Ok(h)
        },
        &[x()],
    );
    check(
        |x| {
            let mut h = x[0].binary_scalar(BinaryOp::Mul, Scalar::Float(2.0))?;
            h.copy_(&x[1])?;
            h.binary(BinaryOp::Mul, &x[0])
        },
        &[x(), input(&[3], 0.5, 1.5, 102)],
    );
}
