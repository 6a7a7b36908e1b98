// Symbols of two scopes never meet: each scope may bind `Batch` to another
// value, so a tensor of one cannot be added to a tensor of the other. The
// brands are lifetimes, so this is the borrow checker's region error (rustc
// has no custom messages for those); its notes name the invariant `Sym`.
use axial::prelude::*;

axes!(Batch, Model);

fn main() {
    let a = Tensor::<f32, shape![Batch: Dyn, Model: 4]>::zeros_dyn(2);
    let b = Tensor::<f32, shape![Batch: Dyn, Model: 4]>::zeros_dyn(3);
    scope(|outer| {
        let a = a
            .realize_in::<shape![Batch: Sym<'_, Batch>, Model: 4]>(outer)
            .unwrap();
        scope(|inner| {
            let b = b
                .realize_in::<shape![Batch: Sym<'_, Batch>, Model: 4]>(inner)
                .unwrap();
            let _ = &a + &b;
        });
    });
}
