// Complex numbers have no order: `<`, `max` and `argmax` do not exist for
// them (PyTorch refuses them at run time; axial at compile time).
use axial::prelude::*;
use axial::Complex;
axes!(Rows);

fn main() {
    let z = Tensor::<Complex<f32>, shape![Rows: 3]>::zeros();
    let _ = z.lt(&z);
    let _ = z.amax_all();
    let _ = z.argmax::<Rows>();
}
