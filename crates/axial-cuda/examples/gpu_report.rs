//! What `gpu/check.sh` measures on a GPU machine: that every kernel loads,
//! that pinned copies overlap kernels, and a table of bandwidth and FLOP/s
//! (copy, elementwise add, transposed copy, sum over each axis, softmax
//! from five kernels and fused along each axis, layer_norm, f32/bf16
//! matmul) against the device's own copy bandwidth, timed with
//! events. Prints markdown. Without a GPU (or on the stand-in driver of
//! `cuda-stub/`, whose timings would be its CPU executor's) it says so and
//! exits 0.
//!
//! `cargo run --release -p axial-cuda --features cuda --example gpu_report`

use std::time::Instant;

use axial_core::{
    BinaryOp, DType, Layout, RawTensor, ReduceOp, Result, Storage, TensorRef, UnaryOp,
};
use axial_cuda::{Cuda, PinnedStorage, Stream, to_device_async};

/// Median milliseconds of `runs` timed runs of `f` (after one warm-up),
/// each between two events of the compute stream.
fn time_ms(gpu: &Cuda, runs: usize, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    f()?;
    gpu.synchronize()?;
    let mut times = vec![];
    for _ in 0..runs {
        let start = gpu.record()?;
        f()?;
        let end = gpu.record()?;
        end.synchronize()?;
        times.push(start.elapsed_ms(&end)? as f64);
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

struct Row {
    case: String,
    ms: f64,
    /// Bytes read and written, or flops for a matmul.
    work: f64,
    flops: bool,
}

fn random(gpu: &Cuda, shape: &[usize], dtype: DType) -> Result<RawTensor<Cuda>> {
    let mut rng = axial_core::Generator::seed(7);
    RawTensor::rand_on(gpu, shape, dtype, &mut rng)
}

fn out_like(gpu: &Cuda, shape: &[usize], dtype: DType) -> Result<RawTensor<Cuda>> {
    RawTensor::from_parts(
        Storage::uninit(gpu, shape.iter().product::<usize>() * dtype.size())?,
        Layout::contiguous(shape),
        dtype,
    )
}

/// `softmax(x, -1)` from the backend's ops: max, subtract, exp, sum, divide.
fn softmax(x: &TensorRef<'_, Cuda>) -> Result<RawTensor<Cuda>> {
    let m = x.reduce(ReduceOp::Max, &[-1], true)?;
    let e = x
        .binary(BinaryOp::Sub, &m.view())?
        .view()
        .unary(UnaryOp::Exp)?;
    let s = e.view().reduce(ReduceOp::Sum, &[-1], true)?;
    e.view().binary(BinaryOp::Div, &s.view())
}

fn report(gpu: &Cuda) -> Result<()> {
    println!(
        "## GPU report: {} ({})\n",
        gpu.description()?,
        axial_core::Device::name(gpu)
    );
    let t0 = Instant::now();
    let kernels = gpu.load_kernels()?;
    println!(
        "- every kernel loads: {kernels} kernels JIT-compiled by the driver in {:.1} s",
        t0.elapsed().as_secs_f64()
    );

    let n: usize = 1 << 28; // 256 Mi f32: 1 GiB
    let side: usize = 1 << 14; // 16384² f32: 1 GiB
    let f32s = 4.0;
    let mut rows = vec![];

    let x = random(gpu, &[n], DType::F32)?;
    let y = random(gpu, &[n], DType::F32)?;
    let mut out = out_like(gpu, &[n], DType::F32)?;
    let copy_ms = time_ms(gpu, 10, || out.view_mut().copy_(&x.view()))?;
    rows.push(Row {
        case: "copy 1 GiB f32 (device memcpy)".into(),
        ms: copy_ms,
        work: 2.0 * n as f64 * f32s,
        flops: false,
    });
    let strided = x.view().slice(0, None, None, 2)?;
    let mut half_out = out_like(gpu, &[n / 2], DType::F32)?;
    let ms = time_ms(gpu, 10, || half_out.view_mut().copy_(&strided))?;
    rows.push(Row {
        case: "copy x[::2] (strided kernel)".into(),
        ms,
        work: 2.0 * (n / 2) as f64 * f32s,
        flops: false,
    });
    let ms = time_ms(gpu, 10, || {
        let r = x.view().binary(BinaryOp::Add, &y.view())?;
        drop(r);
        Ok(())
    })?;
    rows.push(Row {
        case: "add 256 Mi f32".into(),
        ms,
        work: 3.0 * n as f64 * f32s,
        flops: false,
    });
    let ms = time_ms(gpu, 10, || {
        let r = x.view().binary_scalar(BinaryOp::Mul, 2.0.into())?;
        drop(r);
        Ok(())
    })?;
    rows.push(Row {
        case: "x * 2.0 (scalar argument)".into(),
        ms,
        work: 2.0 * n as f64 * f32s,
        flops: false,
    });

    let m = random(gpu, &[side, side], DType::F32)?;
    let mut mt = out_like(gpu, &[side, side], DType::F32)?;
    let t = m.view().t()?;
    let ms = time_ms(gpu, 10, || mt.view_mut().copy_(&t))?;
    rows.push(Row {
        case: "transposed copy 16384² f32".into(),
        ms,
        work: 2.0 * (side * side) as f64 * f32s,
        flops: false,
    });
    for dim in [0isize, 1] {
        let ms = time_ms(gpu, 10, || {
            m.view().reduce(ReduceOp::Sum, &[dim], false).map(drop)
        })?;
        rows.push(Row {
            case: format!("sum over axis {dim} of 16384² f32"),
            ms,
            work: (side * side) as f64 * f32s,
            flops: false,
        });
    }
    let sm = random(gpu, &[8192, 8192], DType::F32)?;
    let ms = time_ms(gpu, 10, || softmax(&sm.view()).map(drop))?;
    rows.push(Row {
        case: "softmax over the last axis, 8192² f32 (5 kernels)".into(),
        ms,
        work: 2.0 * (8192 * 8192) as f64 * f32s,
        flops: false,
    });
    let ms = time_ms(gpu, 10, || sm.view().softmax(-1).map(drop))?;
    rows.push(Row {
        case: "softmax over the last axis, 8192² f32 (fused kernel)".into(),
        ms,
        work: 2.0 * (8192 * 8192) as f64 * f32s,
        flops: false,
    });
    let ms = time_ms(gpu, 10, || sm.view().softmax(0).map(drop))?;
    rows.push(Row {
        case: "softmax over the first axis, 8192² f32 (fused kernel)".into(),
        ms,
        work: 2.0 * (8192 * 8192) as f64 * f32s,
        flops: false,
    });
    let ms = time_ms(gpu, 10, || {
        sm.view().layer_norm(&[8192], None, None, 1e-5).map(drop)
    })?;
    rows.push(Row {
        case: "layer_norm over the last axis, 8192² f32".into(),
        ms,
        work: 2.0 * (8192 * 8192) as f64 * f32s,
        flops: false,
    });

    for dtype in [DType::F32, DType::BF16] {
        let k = 8192;
        let a = random(gpu, &[k, k], dtype)?;
        let b = random(gpu, &[k, k], dtype)?;
        let ms = time_ms(gpu, 5, || a.view().matmul(&b.view()).map(drop))?;
        rows.push(Row {
            case: format!("matmul 8192³ {dtype} (cuBLAS)"),
            ms,
            work: 2.0 * (k as f64).powi(3),
            flops: true,
        });
    }

    println!("\n| case | ms | GB/s or TFLOP/s | of copy bandwidth |\n|---|---|---|---|");
    let copy_bw = 2.0 * n as f64 * f32s / (copy_ms * 1e-3);
    for r in &rows {
        if r.flops {
            println!(
                "| {} | {:.3} | {:.1} TFLOP/s | |",
                r.case,
                r.ms,
                r.work / (r.ms * 1e-3) / 1e12
            );
        } else {
            let bw = r.work / (r.ms * 1e-3);
            println!(
                "| {} | {:.3} | {:.0} GB/s | {:.0}% |",
                r.case,
                r.ms,
                bw / 1e9,
                100.0 * bw / copy_bw
            );
        }
    }

    // Pinned host-to-device copies on a stream beside kernels.
    let bytes = 1usize << 29;
    let host = Storage::from_slice(&vec![1.0f32; bytes / 4]);
    let pinned = PinnedStorage::new(host)?;
    let layout = Layout::contiguous(&[bytes / 4]);
    let copies = Stream::new(gpu)?;
    let busy = random(gpu, &[n], DType::F32)?;
    let kernel = || busy.view().unary(UnaryOp::Exp).map(drop);
    let kernel_ms = time_ms(gpu, 5, kernel)?;
    let copy_alone = {
        let start = copies.record()?;
        let _x = to_device_async(&pinned, &layout, DType::F32, &copies)?;
        let end = copies.record()?;
        end.synchronize()?;
        start.elapsed_ms(&end)? as f64
    };
    gpu.synchronize()?;
    let wall = Instant::now();
    let before = gpu.record()?;
    kernel()?;
    let _x = to_device_async(&pinned, &layout, DType::F32, &copies)?;
    kernel()?;
    let after = gpu.record()?;
    after.synchronize()?;
    let both = before.elapsed_ms(&after)? as f64;
    let serial = 2.0 * kernel_ms + copy_alone;
    println!(
        "\n- pinned copies overlap kernels: 512 MiB host-to-device on a stream took {copy_alone:.2} ms alone \
         ({:.1} GB/s), two exp kernels {:.2} ms; together {both:.2} ms against {serial:.2} ms in series \
         ({:.0}% of the copy hidden; wall {:.2} ms)",
        bytes as f64 / (copy_alone * 1e-3) / 1e9,
        2.0 * kernel_ms,
        100.0 * ((serial - both) / copy_alone).clamp(0.0, 1.0),
        wall.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}

fn main() {
    match Cuda::new(0) {
        Ok(gpu) if axial_cuda::testing::on_stand_in() => {
            // Timings of the stand-in would be those of its CPU executor.
            println!(
                "no GPU: {} (no bandwidth or FLOP/s to report)",
                axial_cuda::testing::describe(&gpu)
            );
        }
        Ok(gpu) => {
            if let Err(e) = report(&gpu) {
                println!("\nthe report failed: {e}");
                std::process::exit(1);
            }
        }
        Err(e) => println!("no GPU: {e}"),
    }
}
