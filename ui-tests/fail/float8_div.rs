// Division of float8 tensors: PyTorch's CPU kernels multiply them but do
// not divide them ("div_cpu" not implemented for 'Float8_e4m3fn').
use axial::prelude::*;
use axial::F8E4M3Fn;
axes!(Rows);

fn main() {
    let a = Tensor::<F8E4M3Fn, shape![Rows: 3]>::ones();
    let _ = &a / &a;
}
