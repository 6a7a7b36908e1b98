// The remainder of complex tensors: PyTorch has none
// ("remainder_cpu" not implemented for 'ComplexFloat').
use axial::prelude::*;
use axial::Complex;
axes!(Rows);

fn main() {
    let z = Tensor::<Complex<f32>, shape![Rows: 3]>::ones();
    let _ = &z % &z;
}
