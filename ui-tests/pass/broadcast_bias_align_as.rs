// A per-channel bias `[Out]` lined up with `[Batch, Out, Rows, Cols]` by
// `align_as` (a `[1, Out, 1, 1]` view), then added, with static, run-time and
// symbolic batch sizes.
use axial::prelude::*;
axes!(Batch, Out, Rows, Cols);

type Maps<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Out: 3, Rows: 4, Cols: 5]>;

fn add_bias<'id>(x: &Maps<'id>, bias: &Tensor<f32, shape![Out: 3]>) -> Maps<'id> {
    x + &bias.as_view().align_as(x)
}

fn main() {
    let x = Tensor::<f32, shape![Batch: 2, Out: 3, Rows: 4, Cols: 5]>::zeros();
    let bias = Tensor::<f32, shape![Out: 3]>::ones();
    let aligned: TensorView<'_, f32, shape![Batch: 1, Out: 3, Rows: 1, Cols: 1]> = bias.as_view().align_as(&x);
    let _ = &x + &aligned;
    let d = Tensor::<f32, shape![Batch: Dyn, Out: 3, Rows: 4, Cols: 5]>::zeros_dyn(2);
    let _ = &d + &bias.as_view().align_as(&d);
    let n = scope(|s| -> axial::Result<usize> {
        let x: Maps<'_> = d.clone().realize_in(s)?;
        Ok(add_bias(&x, &bias).sizes()[0])
    });
    assert_eq!(n.unwrap(), 2);
}
