// Addition of uint16 tensors: PyTorch's CPU kernels multiply and divide
// them but do not add them ("add_stub" not implemented for 'UInt16').
use axial::prelude::*;
axes!(Rows);

fn main() {
    let a = Tensor::<u16, shape![Rows: 3]>::ones();
    let _ = &a + &a;
}
