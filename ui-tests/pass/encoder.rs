// A transformer encoder block over run-time `Batch` and `Seq` sizes proven
// once at the boundary: four heads split and merged with `rearrange!`,
// softmax over the key axis, layer norm, a GELU MLP and two residuals. The
// block has a concrete type (a lifetime, no size parameter, no bound) and no
// run-time shape check: every pairing of `Batch` and `Seq` is one symbol.
// `normalized` is generic over the dtype and is used at f32 and f64.
use axial::prelude::*;
use axial::shape::{Distinct, Shape, StaticShape};

axes!(Batch, Seq, Key, Model, Heads, Head, Hidden);

/// The heads side by side: what the projections make and `rearrange!` splits.
type Inner = Composed<(Heads, Head)>;

type Activations<'id, T> =
    Tensor<T, shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Model: 64]>;

/// `x·Wᵀ + b`: a weight `[Out, In]` and a bias `[Out]`.
struct Linear<W: Shape, B: Shape> {
    weight: Tensor<f32, W>,
    bias: Tensor<f32, B>,
}

impl<W: StaticShape + Distinct, B: StaticShape + Distinct> Linear<W, B> {
    fn new(rng: &mut Generator, fan_in: f32) -> Self {
        Linear { weight: Tensor::randn(rng) * fan_in.sqrt().recip(), bias: Tensor::zeros() }
    }
}

type Projection = Linear<shape![Inner: 64, Model: 64], shape![Inner: 64]>;

struct Block {
    query: Projection,
    key: Projection,
    value: Projection,
    out: Linear<shape![Model: 64, Inner: 64], shape![Model: 64]>,
    up: Linear<shape![Hidden: 256, Model: 64], shape![Hidden: 256]>,
    down: Linear<shape![Model: 64, Hidden: 256], shape![Model: 64]>,
}

/// Layer norm over `Model`, at any float dtype.
fn normalized<'id, T: Float>(x: &Activations<'id, T>) -> Activations<'id, T> {
    x.layer_norm::<Model>(None, None, 1e-5)
}

impl Block {
    fn forward<'id>(&self, x: &Activations<'id, f32>) -> Activations<'id, f32> {
        let project = |l: &Projection| x.linear(&l.weight, Some(l.bias.as_view()));
        let (q, k, v) = (project(&self.query), project(&self.key), project(&self.value));
        let q = rearrange!(q.as_view(), "Batch Seq (Heads Head) -> Batch Heads Seq Head", Heads = 4);
        let k = rearrange!(k.as_view(), "Batch Seq (Heads Head) -> Batch Heads Head Seq", Heads = 4);
        let v = rearrange!(v.as_view(), "Batch Seq (Heads Head) -> Batch Heads Seq Head", Heads = 4);
        let k = k.rename::<Seq, Key>();
        let v = v.rename::<Seq, Key>();
        let scores = q.matmul(&k) / 4.0; // [Batch, Heads, Seq, Key], √16 = 4
        let weights = scores.softmax::<Key>();
        let context = weights.matmul(&v); // contracts `Key`: one symbol on both sides
        let merged = rearrange!(context.as_view(), "Batch Heads Seq Head -> Batch Seq (Heads Head)");
        let attended = merged.linear(&self.out.weight, Some(self.out.bias.as_view()));
        let x = normalized(&(x + &attended)); // first residual
        let hidden = x.linear(&self.up.weight, Some(self.up.bias.as_view())).gelu();
        let y = hidden.linear(&self.down.weight, Some(self.down.bias.as_view()));
        normalized(&(&x + &y)) // second residual
    }
}

fn main() -> axial::Result<()> {
    let mut rng = Generator::seed(11);
    let block = Block {
        query: Linear::new(&mut rng, 64.0),
        key: Linear::new(&mut rng, 64.0),
        value: Linear::new(&mut rng, 64.0),
        out: Linear::new(&mut rng, 64.0),
        up: Linear::new(&mut rng, 64.0),
        down: Linear::new(&mut rng, 256.0),
    };
    let input = Tensor::<f32, shape![Batch: Dyn, Seq: Dyn, Model: 64]>::randn_dyn([2, 7], &mut rng);
    let total = scope(|s| -> axial::Result<f32> {
        let x: Activations<'_, f32> = input.to_owned().realize_in(s)?;
        let y = block.forward(&x);
        assert_eq!(y.sizes().as_slice(), &[2, 7, 64]);
        let wide: Activations<'_, f64> = x.cast::<f64>();
        let mean = normalized(&wide).mean::<Model>().to_vec();
        assert!(mean.iter().all(|m| m.abs() < 1e-9));
        Ok(y.to_vec().iter().sum())
    })?;
    assert!(total.is_finite());
    Ok(())
}
