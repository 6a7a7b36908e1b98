//! The typed gradients: every gradient of its leaf's type, equal to the
//! untyped core's for the same computation, checked against finite
//! differences in f64; an encoder block's training step (attention with a
//! padding mask, layer norms, GELU) whose every parameter gets a gradient
//! and whose loss goes down; `no_grad`.

#![allow(
    clippy::type_complexity,
    reason = "shape![..] types of parameters read as one name each"
)]

use axial::autograd::{CrossEntropy, Kept, Param, Var, gradcheck, no_grad};
use axial::prelude::*;

axes!(
    Batch, Seq, Key, Model, Inner, Heads, Head, Mlp, Classes, Vocab
);

#[test]
fn gradchecks_through_typed_ops() {
    let x =
        Tensor::<f64, shape![Batch: 2, Model: 3]>::from_array([[0.3, -1.2, 0.8], [1.5, 0.1, -0.4]]);
    gradcheck(|v| v.gelu().sum::<Model>(), &x).unwrap();
    gradcheck(|v| v.softmax::<Model>().log(), &x).unwrap();
    gradcheck(|v| v.layer_norm::<Model>(None, None, 1e-5), &x).unwrap();
    gradcheck(|v| v.layer_norm::<Batch>(None, None, 1e-5), &x).unwrap();
    gradcheck(|v| (&v * &v).var_all(1.0), &x).unwrap();
    gradcheck(|v| v.tanh().transpose::<Batch, Model>().sum::<Model>(), &x).unwrap();
    gradcheck(|v| v.logsumexp::<Model>(), &x).unwrap();
    gradcheck(|v| v.sigmoid().amax::<Batch>(), &x).unwrap();
    gradcheck(
        |v| {
            v.split::<Model, shape![Heads: 1, Head: 3]>()
                .merge::<names![Batch, Heads], Inner>()
                .silu()
        },
        &x,
    )
    .unwrap();
    let labels = Tensor::<i64, shape![Batch: 2]>::from_array([2, 0]);
    gradcheck(
        |v| {
            v.cross_entropy::<Model, _>(
                &labels,
                CrossEntropy {
                    label_smoothing: 0.1,
                    ..CrossEntropy::default()
                },
            )
        },
        &x,
    )
    .unwrap();
}

#[test]
fn gradients_have_their_leaves_types() {
    let w = Param::new(Tensor::<f32, shape![Classes: 3, Model: 4]>::randn(
        &mut Generator::seed(1),
    ));
    let b = Param::new(Tensor::<f32, shape![Classes: 3]>::zeros());
    let x = Tensor::<f32, shape![Batch: 5, Model: 4]>::randn(&mut Generator::seed(2));
    let labels = Tensor::<i64, shape![Batch: 5]>::from_array([0, 1, 2, 1, 0]);
    let grads = x
        .linear_tracked(&w.var(), Some(&b.var()))
        .cross_entropy::<Classes, _>(&labels, CrossEntropy::default())
        .backward();
    let gw: Tensor<f32, shape![Classes: 3, Model: 4]> = grads.of_param(&w).unwrap();
    let gb: Tensor<f32, shape![Classes: 3]> = grads.of_param(&b).unwrap();
    // Σ over classes of the softmax's gradient is zero for every item.
    assert!(gb.sum_all().item().abs() < 1e-6);
    assert_eq!(gw.sizes().as_slice(), &[3, 4]);
}

#[test]
fn no_grad_records_nothing() {
    let x = Tensor::<f32, shape![Model: 3]>::ones();
    let y = no_grad(|| x.track().exp().sum_all().requires_grad());
    assert!(!y);
    assert!(x.track().exp().requires_grad());
}

/// One encoder block's parameters.
struct Block {
    query: Param<f32, shape![Inner: 8, Model: 8]>,
    key: Param<f32, shape![Inner: 8, Model: 8]>,
    value: Param<f32, shape![Inner: 8, Model: 8]>,
    out: Param<f32, shape![Model: 8, Inner: 8]>,
    norm_w: Param<f32, shape![Model: 8]>,
    norm_b: Param<f32, shape![Model: 8]>,
    up: Param<f32, shape![Mlp: 16, Model: 8]>,
    down: Param<f32, shape![Model: 8, Mlp: 16]>,
}

type Hidden = Tensor<f32, shape![Batch: 2, Seq: 3, Model: 8]>;
type Padded = Tensor<Bool, shape![Batch: 2, Heads: 1, Seq: 1, Key: 3]>;

impl Block {
    fn new(rng: &mut Generator) -> Self {
        Block {
            query: Param::new(Tensor::randn(rng) * 0.3),
            key: Param::new(Tensor::randn(rng) * 0.3),
            value: Param::new(Tensor::randn(rng) * 0.3),
            out: Param::new(Tensor::randn(rng) * 0.3),
            norm_w: Param::new(Tensor::ones()),
            norm_b: Param::new(Tensor::zeros()),
            up: Param::new(Tensor::randn(rng) * 0.3),
            down: Param::new(Tensor::randn(rng) * 0.3),
        }
    }

    fn loss<'a>(&'a self, x: &'a Hidden, padded: &'a Padded) -> Var<'a, f32, axial::shape::Nil> {
        let xv = x.track();
        let heads = |w: Var<'a, f32, shape![Inner: 8, Model: 8], Cpu, Kept>| {
            xv.linear(w, None)
                .split::<Inner, shape![Heads: 2, Head: 4]>()
        };
        let mut query = heads(self.query.var())
            .align_to::<names![Batch, Heads, Seq, Head]>()
            .contiguous();
        query *= 0.5;
        let key = heads(self.key.var())
            .rename::<Seq, Key>()
            .align_to::<names![Batch, Heads, Head, Key]>();
        let value = heads(self.value.var())
            .rename::<Seq, Key>()
            .align_to::<names![Batch, Heads, Key, Head]>();
        let scores = query.matmul(key).masked_fill(padded, f32::NEG_INFINITY);
        let probs = scores.softmax::<Key>();
        let context = probs
            .matmul(value)
            .align_to::<names![Batch, Seq, Heads, Head]>()
            .merge::<names![Heads, Head], Inner>();
        let attended = context.linear(self.out.var(), None) + &xv;
        let normed = attended
            .layer_norm::<Model>(Some(&self.norm_w.var()), Some(&self.norm_b.var()), 1e-12)
            .into_kept();
        let hidden = normed.linear(self.up.var(), None).gelu();
        let out = hidden.linear(self.down.var(), None) + &normed;
        out.square().mean_all()
    }
}

#[test]
fn an_encoder_block_trains() {
    let mut rng = Generator::seed(7);
    let mut block = Block::new(&mut rng);
    let x = Hidden::randn(&mut rng);
    let mut keep = [Bool::FALSE; 6];
    keep[5] = Bool::TRUE; // the second item's last key is padding
    let padded = Padded::from_vec(keep.to_vec());
    let first = block.loss(&x, &padded).value().item();
    for _ in 0..20 {
        let mut grads = block.loss(&x, &padded).backward();
        macro_rules! step {
            ($($p:ident),*) => {$(
                grads.accumulate(&mut block.$p);
                let g = block.$p.take_grad().expect(concat!(stringify!($p), " has a gradient"));
                *block.$p.value_mut() -= &(g * 0.05);
            )*};
        }
        step!(query, key, value, out, norm_w, norm_b, up, down);
    }
    let last = block.loss(&x, &padded).value().item();
    assert!(last < first * 0.9, "{first} -> {last}");
}

#[test]
fn typed_and_core_gradients_agree() {
    let x = Tensor::<f64, shape![Batch: 3, Model: 4]>::randn(&mut Generator::seed(3));
    let w = Tensor::<f64, shape![Inner: 2, Model: 4]>::randn(&mut Generator::seed(4));
    let typed = {
        let wv = w.track();
        x.linear_tracked(&wv, None)
            .tanh()
            .sum_all()
            .backward()
            .of(&wv)
            .unwrap()
    };
    let core = {
        use axial_core::autograd::Var as Core;
        let raw = |v: Vec<f64>, shape: &[usize]| axial_core::RawTensor::from_vec(v, shape).unwrap();
        let wv = Core::leaf(raw(w.to_vec(), &[2, 4])).unwrap();
        let id = wv.leaf_id().unwrap();
        let xc = Core::constant(raw(x.to_vec(), &[3, 4]));
        let y = xc
            .linear(&wv, None)
            .unwrap()
            .unary(axial_core::UnaryOp::Tanh)
            .unwrap();
        y.sum(&[], false)
            .unwrap()
            .backward()
            .unwrap()
            .get(id)
            .unwrap()
            .to_vec::<f64>()
            .unwrap()
    };
    assert_eq!(typed.to_vec(), core);
}
