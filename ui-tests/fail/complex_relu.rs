// `relu` of complex numbers: PyTorch refuses ("clamp is not supported for
// complex types"), since complex numbers have no order.
use axial::prelude::*;
use axial::Complex;
axes!(Rows);

fn main() {
    let z = Tensor::<Complex<f32>, shape![Rows: 2]>::ones();
    let _ = z.relu();
}
