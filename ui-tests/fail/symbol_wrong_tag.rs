// A `Batch` symbol where a `Seq` symbol is expected: both are run-time sizes
// of one scope (here even of one value), but different symbols never unify.
use axial::prelude::*;

axes!(Batch, Seq, Model);

fn main() {
    let x = Tensor::<f32, shape![Batch: Dyn, Model: 4]>::zeros_dyn(4);
    let t = Tensor::<f32, shape![Seq: Dyn, Model: 4]>::zeros_dyn(4);
    scope(|s| {
        let x = x
            .realize_in::<shape![Batch: Sym<'_, Batch>, Model: 4]>(s)
            .unwrap();
        let tokens = t
            .realize_in::<shape![Seq: Sym<'_, Seq>, Model: 4]>(s)
            .unwrap();
        // The axis is renamed `Seq`, but its size is still the `Batch` symbol.
        let renamed = x.rename::<Batch, Seq>();
        let _ = &tokens + &renamed;
    });
}
