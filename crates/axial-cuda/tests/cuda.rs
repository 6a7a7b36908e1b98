//! The CUDA device beyond the kernel suites (which axial-core's
//! `prop_elementwise` and `prop_reduce` run on it): its memory, streams,
//! events, pinned copies, cuBLAS, 64-bit index math and the errors it
//! returns. Each test needs a GPU and says that it skipped without one
//! (`AXIAL_REQUIRE_GPU=1` makes that a failure).
#![cfg(feature = "cuda")]

use axial_core::{
    BinaryOp, Cpu, DType, Device, Layout, RawTensor, ReduceOp, Storage, UnaryOp, device::transfer,
};
use axial_cuda::testing::device_or_skip;
use axial_cuda::{Cuda, PinnedStorage, Stream, to_device_async};

fn gpu(test: &str) -> Option<Cuda> {
    device_or_skip(test)
}

#[test]
fn every_kernel_loads() {
    let Some(gpu) = gpu("every_kernel_loads") else {
        return;
    };
    let n = gpu.load_kernels().expect("every module loads");
    assert!(n > 500, "{n} kernels");
}

#[test]
fn memory_round_trips_and_refuses_ranges_outside() {
    let Some(gpu) = gpu("memory_round_trips_and_refuses_ranges_outside") else {
        return;
    };
    let mut b = gpu.alloc_zeroed(10).unwrap();
    gpu.copy_from_host(&mut b, 2, &[1, 2, 3]).unwrap();
    let mut host = [9u8; 10];
    gpu.copy_to_host(&b, 0, &mut host).unwrap();
    assert_eq!(host, [0, 0, 1, 2, 3, 0, 0, 0, 0, 0]);
    assert!(gpu.copy_from_host(&mut b, 9, &[1, 2]).is_err());
    assert!(gpu.copy_to_host(&b, 11, &mut [0u8; 0]).is_err());
    let copy = gpu.duplicate(&b).unwrap();
    assert_ne!(gpu.buffer_addr(&copy), gpu.buffer_addr(&b));
    // Freed blocks are cached and handed out again.
    let addr = gpu.buffer_addr(&copy);
    drop(copy);
    assert!(gpu.cached_bytes().unwrap() >= 512);
    let again = gpu.alloc(10).unwrap();
    assert_eq!(gpu.buffer_addr(&again), addr);
    gpu.empty_cache().unwrap();
    assert_eq!(gpu.cached_bytes().unwrap(), 0);
}

#[test]
fn tensors_move_between_host_and_device() {
    let Some(gpu) = gpu("tensors_move_between_host_and_device") else {
        return;
    };
    let x = RawTensor::from_vec((0..12).map(|i| i as f32).collect(), &[3, 4]).unwrap();
    let t = x.view().t().unwrap();
    let on_gpu = transfer(&t, &gpu).unwrap();
    assert_eq!(on_gpu.strides(), &[3, 1]);
    let back = transfer(&on_gpu.view(), &Cpu).unwrap();
    assert_eq!(
        back.to_vec::<f32>().unwrap(),
        t.to_contiguous().unwrap().to_vec::<f32>().unwrap()
    );
}

#[test]
fn pinned_copies_run_on_a_stream_and_keep_their_source() {
    let Some(gpu) = gpu("pinned_copies_run_on_a_stream_and_keep_their_source") else {
        return;
    };
    let n = 1 << 22;
    let host = Storage::from_slice(&(0..n).map(|i| i as f32).collect::<Vec<_>>());
    let mut pinned = PinnedStorage::new(host).unwrap();
    let stream = Stream::new(&gpu).unwrap();
    let layout = Layout::contiguous(&[n]);
    let x = to_device_async(&pinned, &layout, DType::F32, &stream).unwrap();
    // Writing waits for the copy, so the device holds the old values.
    pinned.storage_mut().as_mut_slice::<f32>().unwrap()[0] = -1.0;
    let sum = x.view().reduce(ReduceOp::Sum, &[0], false).unwrap();
    let want = (n as f64 - 1.0) * n as f64 / 2.0;
    let got = sum.view().item::<f32>().unwrap() as f64;
    assert!((got - want).abs() / want < 1e-5, "{got} vs {want}");
    assert_eq!(x.view().get::<f32>(&[0]).unwrap(), 0.0);
    // A strided pinned layout arrives with its strides.
    let every_other = Layout::from_parts(&[n / 2], &[2], 1);
    let y = to_device_async(&pinned, &every_other, DType::F32, &stream).unwrap();
    assert_eq!(y.view().get::<f32>(&[1]).unwrap(), 3.0);
}

#[test]
fn events_order_streams_and_time_kernels() {
    let Some(gpu) = gpu("events_order_streams_and_time_kernels") else {
        return;
    };
    let x = RawTensor::zeros_on(&gpu, &[1 << 24], DType::F32).unwrap();
    let start = gpu.record().unwrap();
    let y = x.view().unary(UnaryOp::Exp).unwrap();
    let end = gpu.record().unwrap();
    let other = Stream::new(&gpu).unwrap();
    other.wait(&end).unwrap();
    let after = other.record().unwrap();
    after.synchronize().unwrap();
    assert!(end.is_done().unwrap());
    assert!(start.elapsed_ms(&end).unwrap() > 0.0);
    assert_eq!(y.view().get::<f32>(&[7]).unwrap(), 1.0);
}

#[test]
fn matmul_goes_through_cublas_with_tf32_only_by_choice() {
    let Some(gpu) = gpu("matmul_goes_through_cublas_with_tf32_only_by_choice") else {
        return;
    };
    let mut rng = axial_core::Generator::seed(3);
    let a = RawTensor::randn(&[2, 64, 96], DType::F32, &mut rng).unwrap();
    let b = RawTensor::randn(&[2, 96, 80], DType::F32, &mut rng).unwrap();
    let want = a.view().matmul(&b.view()).unwrap().to_vec::<f32>().unwrap();
    let (ga, gb) = (
        transfer(&a.view(), &gpu).unwrap(),
        transfer(&b.view(), &gpu).unwrap(),
    );
    let close = |got: &[f32], tol: f32| {
        got.iter()
            .zip(&want)
            .all(|(g, w)| (g - w).abs() <= tol * (1.0 + w.abs()))
    };
    assert!(!gpu.allow_tf32().unwrap());
    let exact = ga
        .view()
        .matmul(&gb.view())
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert!(close(&exact, 1e-5));
    // Transposed operands are read where they lie.
    let t = gb.view().transpose(1, 2).unwrap().to_contiguous().unwrap();
    let via_t = ga
        .view()
        .matmul(&t.view().transpose(1, 2).unwrap())
        .unwrap();
    assert!(close(&via_t.to_vec::<f32>().unwrap(), 1e-5));
    gpu.set_allow_tf32(true).unwrap();
    let fast = ga
        .view()
        .matmul(&gb.view())
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    gpu.set_allow_tf32(false).unwrap();
    assert!(close(&fast, 1e-2));
    for dtype in [DType::F16, DType::BF16] {
        let (h, k) = (
            ga.view().to_dtype(dtype).unwrap(),
            gb.view().to_dtype(dtype).unwrap(),
        );
        let got = h
            .view()
            .matmul(&k.view())
            .unwrap()
            .view()
            .to_dtype(DType::F32)
            .unwrap();
        assert!(close(&got.to_vec::<f32>().unwrap(), 5e-2), "{dtype}");
    }
}

#[test]
fn index_math_is_64_bit_past_four_billion_elements() {
    let Some(gpu) = gpu("index_math_is_64_bit_past_four_billion_elements") else {
        return;
    };
    // (2^16 + 1) × 2^16 bytes: 4.3 billion elements, past u32.
    let (rows, cols) = ((1usize << 16) + 1, 1usize << 16);
    let x = RawTensor::full_on(&gpu, &[cols, rows], 1.into(), DType::U8).unwrap();
    let y = RawTensor::full_on(&gpu, &[rows, cols], 2.into(), DType::U8).unwrap();
    // x.t() + y walks two dims of different strides: the strided kernel.
    let z = x
        .view()
        .t()
        .unwrap()
        .binary(BinaryOp::Add, &y.view())
        .unwrap();
    assert_eq!(
        z.view()
            .get::<u8>(&[rows as isize - 1, cols as isize - 1])
            .unwrap(),
        3
    );
    let total = z.view().reduce(ReduceOp::Sum, &[], false).unwrap();
    assert_eq!(
        total.view().item::<i64>().unwrap(),
        3 * (rows * cols) as i64
    );
}

#[test]
fn ops_across_two_devices_are_errors() {
    let Some(gpu) = gpu("ops_across_two_devices_are_errors") else {
        return;
    };
    let Ok(other) = Cuda::new(1) else {
        eprintln!("skipped ops_across_two_devices_are_errors: one GPU");
        return;
    };
    let a = RawTensor::zeros_on(&gpu, &[2], DType::F32).unwrap();
    let b = RawTensor::zeros_on(&other, &[2], DType::F32).unwrap();
    let err = a
        .view()
        .binary(BinaryOp::Add, &b.view())
        .err()
        .expect("refused");
    assert_eq!(
        err.to_string(),
        "add: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!"
    );
}

#[test]
fn without_a_device_every_call_says_why() {
    // Runs everywhere: a device that does not exist.
    let missing = Cuda::at(1_000);
    let err = missing.alloc(4).unwrap_err().to_string();
    assert!(err.contains("cuda"), "{err}");
    assert_eq!(missing.name(), "cuda:1000");
    assert!(Stream::new(&missing).is_err());
}
