//! Devices (the chapter's section on CPU and GPU memory): the device is part
//! of a tensor's type. The code picks `cuda` when there is one and the CPU
//! otherwise, computes `2.0 * x + 1.0` where the tensor lives, copies pinned
//! host memory to the GPU on a stream without waiting, and shows the
//! same-device rule: between a CPU and a GPU tensor an op does not compile;
//! between two GPUs it is an error.

use std::io::Write;

use axial::prelude::*;
use axial_core::Backend;

axes!(Rows, Cols);

/// What printing the section gives.
type Printed = Result<(), Box<dyn std::error::Error>>;

/// The part that is the same on every device: `2.0 * x + 1.0` where `x`
/// lives.
fn compute<D: Backend>(out: &mut dyn Write, device: &D) -> Printed {
    let x = Tensor::<f32, shape![Rows: 2, Cols: 3], D>::arange_on(device);
    let y = 2.0 * &x + 1.0;
    writeln!(
        out,
        "x lives on {}; so does 2.0 * x + 1.0:",
        y.device().name()
    )?;
    writeln!(out, "{}", y.to_cpu())?;
    Ok(())
}

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Printed {
    writeln!(
        out,
        "The device is in the type: Tensor<f32, S> is on the CPU, Tensor<f32, S, Cuda> on a GPU."
    )?;
    writeln!(
        out,
        "Adding a CPU tensor to a GPU tensor does not compile: \"cannot combine a tensor on `axial::Cuda` with a tensor on `Cpu`\" (ui-tests/cuda/cpu_plus_cuda.rs)."
    )?;
    #[cfg(feature = "cuda")]
    match axial::Cuda::new(0) {
        Ok(gpu) => return gpu::run(out, &gpu),
        Err(e) => writeln!(out, "device = cuda if available else cpu: cpu ({e})")?,
    }
    #[cfg(not(feature = "cuda"))]
    writeln!(
        out,
        "device = cuda if available else cpu: cpu (built without the `cuda` feature)"
    )?;
    compute(out, &Cpu)
}

#[cfg(feature = "cuda")]
mod gpu {
    use axial::prelude::*;
    use axial::{Cuda, Stream};

    use super::{Cols, Printed, Rows, compute};

    pub(super) fn run(out: &mut dyn std::io::Write, gpu: &Cuda) -> Printed {
        writeln!(
            out,
            "device = cuda if available else cpu: {} ({})",
            gpu.name(),
            gpu.description()?
        )?;
        compute(out, gpu)?;

        // Pinned host memory: the copy runs on its own stream while the
        // host goes on; kernels on the result wait for it on the device.
        let host = Tensor::<f32, shape![Rows: 2, Cols: 3]>::ones();
        let pinned = host.pin_memory();
        let copies = Stream::new(gpu)?;
        let on_gpu = pinned.to_device_async(&copies);
        let sum = on_gpu.sum_all().to_cpu();
        writeln!(
            out,
            "pinned ones copied on a stream without waiting; their sum on the GPU: {sum}"
        )?;

        // Two GPUs: an op across them is an error (one GPU: there is no cuda:1).
        match Cuda::new(1) {
            Ok(other) => {
                let a = Tensor::<f32, shape![2], Cuda>::full_on(gpu, 1.0);
                let b = Tensor::<f32, shape![2], Cuda>::full_on(&other, 1.0);
                let err = a.try_add(&b).unwrap_err();
                writeln!(out, "cuda:0 + cuda:1: {err}")?;
            }
            Err(e) => writeln!(out, "cuda:1: {e}")?,
        }
        Ok(())
    }
}
