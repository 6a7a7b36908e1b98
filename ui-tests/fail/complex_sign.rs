// `sign` of complex numbers: PyTorch refuses ("Unlike NumPy, torch.sign is
// not intended to support complex numbers. Please use torch.sgn instead.").
use axial::prelude::*;
use axial::Complex;
axes!(Rows);

fn main() {
    let z = Tensor::<Complex<f64>, shape![Rows: 2]>::ones();
    let _ = z.sign();
}
