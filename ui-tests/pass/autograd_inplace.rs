// In-place writes PyTorch runs compile, beside each that does not
// (ui-tests/fail/autograd_*): what an op keeps is PyTorch's choice for it.
use axial::prelude::*;
use axial::autograd::CrossEntropy;
axes!(Batch, Rows, Classes);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::from_array([0.5, 1.0, 2.0]);

    // `exp` keeps its output, not its input: the input may be written.
    let mut h = x.track() * 2.0;
    let y = h.exp();
    h.add_(1.0);
    let _ = (y + &h).sum_all().backward();

    // So does `softmax`.
    let mut h = x.track() * 2.0;
    let p = h.softmax::<Rows>();
    h.mul_(0.5);
    let _ = (p * &h).sum_all().backward();

    // A product keeps a factor only when the other needs a gradient: with
    // an untracked factor, the tracked one may be written.
    let w = Tensor::<f32, shape![Rows: 3]>::full(0.5);
    let mut t0 = x.track() * 1.0;
    let t1 = &t0 * &w;
    t0.mul_(2.0);
    let _ = (t1 + &t0).sum_all().backward();

    // `log` keeps its input: once the graph is gone, the input is free.
    let mut h = x.track() * 2.0;
    {
        let y = h.as_kept().log();
        let _ = y.sum_all().backward();
    }
    h.add_(1.0);

    // cross_entropy keeps its log-probabilities, not the logits.
    let logits = Tensor::<f32, shape![Batch: 2, Classes: 3]>::zeros();
    let labels = Tensor::<i64, shape![Batch: 2]>::from_array([0, 2]);
    let mut l = logits.track() * 1.0;
    let loss = l.cross_entropy::<Classes, _>(&labels, CrossEntropy::default());
    l.add_(1.0);
    let _ = loss.backward();

    // A parameter is updated after `backward` consumed the graph.
    let mut w = Tensor::<f32, shape![Rows: 3]>::ones();
    for _ in 0..3 {
        let grads = w.track().square().sum_all().backward();
        let g = grads.of_tensor(&w).unwrap();
        w -= &(g * 0.1);
    }
    assert!(w.get([0]) < 1.0);

    // `+=` on a writable tracked tensor, as PyTorch's residual `x += f(x)`.
    let mut acc = x.track() * 1.0;
    acc += &x;
    acc += 1.0;
    let _ = acc.sum_all().backward();
}
