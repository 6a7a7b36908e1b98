// `maximum` of float8 tensors: PyTorch has no kernel for it
// ("maximum_cpu" not implemented for 'Float8_e4m3fn').
use axial::prelude::*;
use axial::F8E4M3Fn;
axes!(Rows);

fn main() {
    let a = Tensor::<F8E4M3Fn, shape![Rows: 2]>::ones();
    let _ = a.maximum(&a);
}
