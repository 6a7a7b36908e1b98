// A symbolic tensor cannot leave its scope: outside it, nothing proves the
// symbol's value. (A region error of the borrow checker, as for two scopes.)
use axial::prelude::*;

axes!(Batch, Model);

fn main() {
    let x = Tensor::<f32, shape![Batch: Dyn, Model: 4]>::zeros_dyn(2);
    let escaped = scope(|s| {
        x.realize_in::<shape![Batch: Sym<'_, Batch>, Model: 4]>(s)
            .unwrap()
    });
    let _ = escaped.sizes();
}
