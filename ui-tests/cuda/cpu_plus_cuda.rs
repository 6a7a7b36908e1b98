// A tensor on the CPU and one on a CUDA device cannot be combined: the
// device is part of the type, so the op does not compile (PyTorch raises
// "Expected all tensors to be on the same device" when it runs).
use axial::prelude::*;

axes!(Rows);

fn main() {
    let here = Tensor::<f32, shape![Rows: 3]>::zeros();
    let there = here.to_device(&Cuda::default());
    let _ = &here + &there;
}
