//! Training: the chapter's first promise, "gradient descent can smoothly
//! steer millions of model weights", on two of them. A line `w·x + b` fits
//! `y = 2x + 1` by gradient descent: tracked parameters, the loss, its
//! gradients of the parameters' types, SGD with momentum. Then PyTorch's
//! in-place rule, which here is the compiler's.

use std::error::Error;
use std::io::Write;

use axial::autograd::{Param, Var};
use axial::optim::{Optimizer, Sgd, SgdConfig, zero_grad};
use axial::prelude::*;

axes!(Points);

/// The line's two parameters.
#[allow(clippy::type_complexity)]
struct Line {
    w: Param<f32, shape![]>,
    b: Param<f32, shape![]>,
}

type Points4 = Tensor<f32, shape![Points: 4]>;

impl Line {
    /// The mean squared error of the line on `(x, y)`, tracked.
    fn loss<'a>(&'a self, x: &'a Points4, y: &'a Points4) -> Var<'a, f32, shape![]> {
        let wv = self.w.var().expand::<shape![Points: 4]>();
        let bv = self.b.var().expand::<shape![Points: 4]>();
        ((wv * x) + &bv).mse_loss(y)
    }
}

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let x = Points4::from_array([0.0, 1.0, 2.0, 3.0]);
    let y = Points4::from_array([1.0, 3.0, 5.0, 7.0]);
    let mut line = Line {
        w: Param::new(Tensor::from_array(0.0)),
        b: Param::new(Tensor::from_array(0.0)),
    };
    let mut opt = Sgd::new(SgdConfig {
        lr: 0.05,
        momentum: 0.9,
        ..SgdConfig::default()
    })?;
    for step in 0..60 {
        let mut grads = line.loss(&x, &y).try_backward()?;
        zero_grad(&mut [&mut line.w, &mut line.b]);
        grads.accumulate(&mut line.w);
        grads.accumulate(&mut line.b);
        if step == 0 {
            let (gw, gb) = (line.w.grad(), line.b.grad());
            let item = |g: Option<&Tensor<f32, shape![]>>| g.map_or(f32::NAN, |g| g.item());
            writeln!(
                out,
                "step 0: dL/dw = {}, dL/db = {} (mean of 2(wx + b - y)·x and of 2(wx + b - y))",
                item(gw),
                item(gb)
            )?;
        }
        opt.step(&mut [&mut line.w, &mut line.b])?;
        if step % 20 == 19 {
            let loss = line.loss(&x, &y).value().item();
            writeln!(out, "step {:>2}: loss {loss:.6}", step + 1)?;
        }
    }
    writeln!(
        out,
        "w = {:.4}, b = {:.4}",
        line.w.value().item(),
        line.b.value().item()
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "in place: `h.add_(1.0)` after `y = h.exp()` compiles (exp keeps its output);"
    )?;
    writeln!(
        out,
        "after `y = h.log()` it does not (log keeps its input): ui-tests/fail/autograd_write_kept_input.rs"
    )?;
    Ok(())
}
