// A small model written with names: a 2-layer MLP and the scores and
// weighted sum of attention heads (Batch × Seq × Heads × HeadDim), softmax
// over Seq. Every shape below is proven by the compiler; the return types
// are the proof that the names come out where they should.
use axial::prelude::*;

axes!(Batch, Input, Hidden, Output, Seq, Query, Heads, HeadDim);

type Features = shape![Batch: Dyn, Input: 16];
type Logits = shape![Batch: Dyn, Output: 4];

type W1 = shape![Input: 16, Hidden: 32];
type W2 = shape![Hidden: 32, Output: 4];

struct Mlp {
    w1: Tensor<f32, W1>,
    b1: Tensor<f32, shape![Hidden: 32]>,
    w2: Tensor<f32, W2>,
    b2: Tensor<f32, shape![Output: 4]>,
}

impl Mlp {
    fn new(rng: &mut Generator) -> Self {
        Mlp {
            w1: Tensor::<f32, W1>::randn(rng) * 0.25,
            b1: Tensor::zeros(),
            w2: Tensor::<f32, W2>::randn(rng) * 0.18,
            b2: Tensor::full(0.1),
        }
    }

    fn forward(&self, x: &Tensor<f32, Features>) -> Tensor<f32, Logits> {
        let hidden = (x.matmul(&self.w1) + &self.b1).relu();
        hidden.matmul(&self.w2) + &self.b2
    }
}

type Qkv = shape![Batch: 2, Seq: 5, Heads: 4, HeadDim: 8];
type Scores = shape![Batch: 2, Heads: 4, Query: 5, Seq: 5];
type Attended = shape![Batch: 2, Heads: 4, Query: 5, HeadDim: 8];

/// `softmax(q·kᵀ / √d) · v` for every head at once.
fn attention(
    q: &Tensor<f32, Qkv>,
    k: &Tensor<f32, Qkv>,
    v: &Tensor<f32, Qkv>,
) -> (Tensor<f32, Scores>, Tensor<f32, Attended>) {
    let queries = q
        .as_view()
        .rename::<Seq, Query>()
        .align_to::<names![Batch, Heads, Query, HeadDim]>();
    let keys = k.as_view().align_to::<names![Batch, Heads, HeadDim, Seq]>();
    let scores = queries.matmul(&keys) / 8.0f32.sqrt();
    let weights = scores.softmax::<Seq>();
    let values = v.as_view().align_to::<names![Batch, Heads, Seq, HeadDim]>();
    let attended = weights.matmul(&values);
    (weights, attended)
}

fn main() {
    let mut rng = Generator::seed(7);
    let mlp = Mlp::new(&mut rng);
    let x = Tensor::<f32, Features>::randn_dyn(3, &mut rng);
    let logits = mlp.forward(&x);
    assert_eq!(logits.sizes().as_slice(), &[3, 4]);
    let classes = logits.argmax::<Output>();
    assert!(classes.to_vec().iter().all(|&c| (0..4).contains(&c)));

    let (q, k, v) = (
        Tensor::<f32, Qkv>::randn(&mut rng),
        Tensor::<f32, Qkv>::randn(&mut rng),
        Tensor::<f32, Qkv>::randn(&mut rng),
    );
    let (weights, attended) = attention(&q, &k, &v);
    let total = weights.sum::<Seq>();
    assert!(total.to_vec().iter().all(|&s| (s - 1.0).abs() < 1e-5));
    assert_eq!(
        attended.names().as_slice(),
        &[Some("Batch"), Some("Heads"), Some("Query"), Some("HeadDim")]
    );
}
