// A training loop: parameters, a forward pass that returns the loss, the
// gradients of the parameters' types, an update.
use axial::autograd::{CrossEntropy, Kept, Param, Var};
use axial::prelude::*;
axes!(Batch, In, Hidden, Classes);

struct Mlp {
    w1: Param<f32, shape![Hidden: 16, In: 4]>,
    b1: Param<f32, shape![Hidden: 16]>,
    w2: Param<f32, shape![Classes: 3, Hidden: 16]>,
}

impl Mlp {
    fn loss<'a>(
        &'a self,
        x: &'a Tensor<f32, shape![Batch: 8, In: 4]>,
        labels: &'a Tensor<i64, shape![Batch: 8]>,
    ) -> Var<'a, f32, shape![]> {
        let h: Var<'a, f32, shape![Batch: 8, Hidden: 16], Cpu, Kept> =
            x.linear_tracked(&self.w1.var(), Some(&self.b1.var())).relu();
        let logits = h.linear(self.w2.var(), None);
        logits.cross_entropy::<Classes, _>(labels, CrossEntropy::default())
    }
}

fn main() {
    let mut rng = Generator::seed(0);
    let mut model = Mlp {
        w1: Param::new(Tensor::randn(&mut rng) * 0.5),
        b1: Param::new(Tensor::zeros()),
        w2: Param::new(Tensor::randn(&mut rng) * 0.5),
    };
    let x = Tensor::<f32, shape![Batch: 8, In: 4]>::randn(&mut rng);
    let labels = Tensor::<i64, shape![Batch: 8]>::from_array([0, 1, 2, 0, 1, 2, 0, 1]);
    for _ in 0..5 {
        let mut grads = model.loss(&x, &labels).backward();
        grads.accumulate(&mut model.w1);
        grads.accumulate(&mut model.b1);
        grads.accumulate(&mut model.w2);
        let g1: Tensor<f32, shape![Hidden: 16, In: 4]> = model.w1.take_grad().unwrap();
        *model.w1.value_mut() -= &(g1 * 0.1);
        let gb = model.b1.take_grad().unwrap();
        *model.b1.value_mut() -= &(gb * 0.1);
        let g2 = model.w2.take_grad().unwrap();
        *model.w2.value_mut() -= &(g2 * 0.1);
    }
}
