//! A device that writes the primitives only: the fused ops (softmax,
//! log_softmax, layer_norm, addmm through `linear`, index_select and
//! `embedding`) run as the `Backend` trait's defaults, composed of its
//! primitives, and give what the CPU's fused kernels give, with the same
//! errors.
//!
//! `Primitives` keeps its bytes in host buffers and runs each primitive on
//! the CPU over a host copy of the storages (the way a device crate would
//! launch its own kernels); it overrides none of the fused ops.

use axial_core::cpu::CpuBuffer;
use axial_core::device::transfer;
use axial_core::{
    Arg, ArgReduceOp, Backend, BinaryOp, CmpOp, Cpu, DType, Device, Generator, Input, Output,
    RawTensor, ReduceOp, Result, Scalar, Storage, UnaryOp,
};

/// A device with the CPU's memory and only the primitives of a device.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Primitives;

impl Device for Primitives {
    type Buffer = CpuBuffer;

    fn name(&self) -> String {
        "primitives".into()
    }
    fn alloc(&self, nbytes: usize) -> Result<CpuBuffer> {
        Cpu.alloc(nbytes)
    }
    fn alloc_zeroed(&self, nbytes: usize) -> Result<CpuBuffer> {
        Cpu.alloc_zeroed(nbytes)
    }
    fn buffer_len(&self, buffer: &CpuBuffer) -> usize {
        Cpu.buffer_len(buffer)
    }
    fn buffer_addr(&self, buffer: &CpuBuffer) -> usize {
        Cpu.buffer_addr(buffer)
    }
    fn copy_from_host(&self, buffer: &mut CpuBuffer, offset: usize, src: &[u8]) -> Result<()> {
        Cpu.copy_from_host(buffer, offset, src)
    }
    fn copy_to_host(&self, buffer: &CpuBuffer, offset: usize, dst: &mut [u8]) -> Result<()> {
        Cpu.copy_to_host(buffer, offset, dst)
    }
    fn duplicate(&self, buffer: &CpuBuffer) -> Result<CpuBuffer> {
        Cpu.duplicate(buffer)
    }
}

/// A host copy of a storage of the device.
fn host(s: &Storage<Primitives>) -> Result<Storage<Cpu>> {
    let mut bytes = vec![0u8; s.nbytes()];
    Primitives.copy_to_host(s.buffer(), 0, &mut bytes)?;
    Storage::from_host_bytes(&Cpu, &bytes)
}

/// Runs `kernel` on the CPU over host copies: the output's storage (which
/// an input without a storage of its own reads) and each input's, then
/// writes the output's storage back.
fn on_host(
    inputs: &[Option<&Storage<Primitives>>],
    dst: Output<'_, Primitives>,
    kernel: impl FnOnce(&[Option<Storage<Cpu>>], Output<'_, Cpu>) -> Result<()>,
) -> Result<()> {
    let copies = inputs
        .iter()
        .map(|s| s.map(host).transpose())
        .collect::<Result<Vec<_>>>()?;
    let mut out = host(dst.storage)?;
    let host_dst = Output {
        storage: &mut out,
        layout: dst.layout,
        dtype: dst.dtype,
    };
    kernel(&copies, host_dst)?;
    Primitives.copy_from_host(dst.storage.buffer_mut(), 0, out.as_bytes())
}

/// `input` over its host copy (`None`: the output's storage).
fn on<'a>(input: &Input<'_, Primitives>, copy: &'a Option<Storage<Cpu>>) -> Input<'a, Cpu> {
    Input {
        storage: copy.as_ref(),
        layout: input.layout.clone(),
        dtype: input.dtype,
    }
}

fn arg_storage<'a>(a: &Arg<'a, Primitives>) -> Option<&'a Storage<Primitives>> {
    a.tensor().and_then(|t| t.storage)
}

fn arg_on<'a>(a: &Arg<'_, Primitives>, copy: &'a Option<Storage<Cpu>>) -> Arg<'a, Cpu> {
    match a {
        Arg::Tensor(t) => Arg::Tensor(on(t, copy)),
        Arg::Scalar(s) => Arg::Scalar(*s),
    }
}

impl Backend for Primitives {
    fn copy(&self, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        on_host(&[src.storage], dst, |c, d| Cpu.copy(on(&src, &c[0]), d))
    }
    fn fill(&self, dst: Output<'_, Self>, value: Scalar) -> Result<()> {
        on_host(&[], dst, |_, d| Cpu.fill(d, value))
    }
    fn unary(&self, op: UnaryOp, src: Input<'_, Self>, dst: Output<'_, Self>) -> Result<()> {
        on_host(&[src.storage], dst, |c, d| {
            Cpu.unary(op, on(&src, &c[0]), d)
        })
    }
    fn binary(
        &self,
        op: BinaryOp,
        lhs: Arg<'_, Self>,
        rhs: Arg<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        let inputs = [arg_storage(&lhs), arg_storage(&rhs)];
        on_host(&inputs, dst, |c, d| {
            Cpu.binary(op, arg_on(&lhs, &c[0]), arg_on(&rhs, &c[1]), d)
        })
    }
    fn compare(
        &self,
        op: CmpOp,
        lhs: Arg<'_, Self>,
        rhs: Arg<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        let inputs = [arg_storage(&lhs), arg_storage(&rhs)];
        on_host(&inputs, dst, |c, d| {
            Cpu.compare(op, arg_on(&lhs, &c[0]), arg_on(&rhs, &c[1]), d)
        })
    }
    fn select_where(
        &self,
        cond: Input<'_, Self>,
        a: Input<'_, Self>,
        b: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        on_host(&[cond.storage, a.storage, b.storage], dst, |c, d| {
            Cpu.select_where(on(&cond, &c[0]), on(&a, &c[1]), on(&b, &c[2]), d)
        })
    }
    fn reduce(
        &self,
        op: ReduceOp,
        src: Input<'_, Self>,
        dims: &[usize],
        dst: Output<'_, Self>,
    ) -> Result<()> {
        on_host(&[src.storage], dst, |c, d| {
            Cpu.reduce(op, on(&src, &c[0]), dims, d)
        })
    }
    fn arg_reduce(
        &self,
        op: ArgReduceOp,
        src: Input<'_, Self>,
        dim: usize,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        on_host(&[src.storage], dst, |c, d| {
            Cpu.arg_reduce(op, on(&src, &c[0]), dim, d)
        })
    }
    fn matmul(
        &self,
        lhs: Input<'_, Self>,
        rhs: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        on_host(&[lhs.storage, rhs.storage], dst, |c, d| {
            Cpu.matmul(on(&lhs, &c[0]), on(&rhs, &c[1]), d)
        })
    }
    fn gather(
        &self,
        src: Input<'_, Self>,
        dim: usize,
        index: Input<'_, Self>,
        dst: Output<'_, Self>,
    ) -> Result<()> {
        on_host(&[src.storage, index.storage], dst, |c, d| {
            Cpu.gather(on(&src, &c[0]), dim, on(&index, &c[1]), d)
        })
    }
    fn cumsum(&self, src: Input<'_, Self>, dim: usize, dst: Output<'_, Self>) -> Result<()> {
        on_host(&[src.storage], dst, |c, d| {
            Cpu.cumsum(on(&src, &c[0]), dim, d)
        })
    }
}

/// A random tensor of `dtype` on both devices.
fn pair(shape: &[usize], dtype: DType, seed: u64) -> (RawTensor, RawTensor<Primitives>) {
    let x = RawTensor::randn(shape, DType::F32, &mut Generator::seed(seed)).unwrap();
    let x = x.view().to_dtype(dtype).unwrap();
    let y = transfer(&x.view(), &Primitives).unwrap();
    (x, y)
}

fn values(t: &RawTensor<Primitives>) -> Vec<f64> {
    let on_cpu = transfer(&t.view(), &Cpu).unwrap();
    on_cpu
        .view()
        .to_dtype(DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap()
}

fn cpu_values(t: &RawTensor) -> Vec<f64> {
    t.view()
        .to_dtype(DType::F64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap()
}

/// Close within `tol` relative to the magnitude (the composites round
/// their steps, the fused kernels do not), NaN where NaN.
#[track_caller]
fn assert_close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || (g - w).abs() <= tol * (1.0 + w.abs());
        assert!(ok, "{what}: element {i}: {g} where the CPU gives {w}");
    }
}

/// The tolerance of a composite against the fused kernel in `dtype`: a
/// rounding or two of the dtype.
fn tol(dtype: DType) -> f64 {
    match dtype {
        DType::F64 => 1e-12,
        DType::F32 => 1e-5,
        DType::F16 => 2e-3,
        _ => 2e-2,
    }
}

#[test]
fn softmax_composes_as_the_cpu_fuses() {
    for dtype in [DType::F32, DType::F64, DType::F16, DType::BF16] {
        let (x, y) = pair(&[3, 4, 5], dtype, 1);
        for dim in -3..3 {
            for log in [false, true] {
                let (want, got) = if log {
                    (x.view().log_softmax(dim), y.view().log_softmax(dim))
                } else {
                    (x.view().softmax(dim), y.view().softmax(dim))
                };
                let (want, got) = (want.unwrap(), got.unwrap());
                assert_eq!(got.dtype(), dtype);
                let what = format!("{dtype} softmax over {dim}, log {log}");
                assert_close(&values(&got), &cpu_values(&want), tol(dtype), &what);
            }
        }
        // A strided input, and the rows with −∞ and NaN.
        let t = y.view().transpose(0, 2).unwrap();
        let got = t.softmax(0).unwrap();
        let want = x.view().transpose(0, 2).unwrap().softmax(0).unwrap();
        assert_close(&values(&got), &cpu_values(&want), tol(dtype), "strided");
    }
    let special = vec![
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
        1.0,
        f32::NAN,
        0.0,
        0.0,
    ];
    let x = RawTensor::from_vec(special, &[3, 2]).unwrap();
    let y = transfer(&x.view(), &Primitives).unwrap();
    let (want, got) = (x.view().softmax(1).unwrap(), y.view().softmax(1).unwrap());
    assert_close(&values(&got), &cpu_values(&want), 0.0, "−∞ and NaN rows");
}

#[test]
fn layer_norm_composes_as_the_cpu_fuses() {
    for dtype in [DType::F32, DType::F64, DType::F16, DType::BF16] {
        let (x, y) = pair(&[4, 3, 6], dtype, 2);
        let (w, gw) = pair(&[3, 6], dtype, 3);
        let (b, gb) = pair(&[3, 6], dtype, 4);
        for (weight, bias) in [(false, false), (true, false), (true, true)] {
            let (cw, pw) = (weight.then(|| w.view()), weight.then(|| gw.view()));
            let (cb, pb) = (bias.then(|| b.view()), bias.then(|| gb.view()));
            let want = x
                .view()
                .layer_norm(&[3, 6], cw.as_ref(), cb.as_ref(), 1e-5)
                .unwrap();
            let got = y
                .view()
                .layer_norm(&[3, 6], pw.as_ref(), pb.as_ref(), 1e-5)
                .unwrap();
            assert_eq!(got.dtype(), dtype);
            let what = format!("{dtype} layer_norm, weight {weight}, bias {bias}");
            assert_close(&values(&got), &cpu_values(&want), 4.0 * tol(dtype), &what);
        }
    }
}

#[test]
fn linear_with_a_bias_composes_as_the_cpu_fuses() {
    for dtype in [DType::F32, DType::F64, DType::BF16] {
        let (x, y) = pair(&[2, 5, 7], dtype, 5);
        let (w, gw) = pair(&[3, 7], dtype, 6);
        let (b, gb) = pair(&[3], dtype, 7);
        let want = x.view().linear(&w.view(), Some(&b.view())).unwrap();
        let got = y.view().linear(&gw.view(), Some(&gb.view())).unwrap();
        assert_eq!(got.shape(), &[2, 5, 3]);
        let what = format!("{dtype} linear");
        assert_close(&values(&got), &cpu_values(&want), 4.0 * tol(dtype), &what);
    }
}

#[test]
fn index_select_composes_with_gather() {
    let (x, y) = pair(&[4, 3], DType::F32, 8);
    let ids = RawTensor::from_vec(vec![3i64, 0, 3, 1], &[2, 2]).unwrap();
    let gids = transfer(&ids.view(), &Primitives).unwrap();
    let want = x.view().embedding(&ids.view()).unwrap();
    let got = y.view().embedding(&gids.view()).unwrap();
    assert_eq!(got.shape(), &[2, 2, 3]);
    assert_close(&values(&got), &cpu_values(&want), 0.0, "embedding");
    for dim in [0, 1] {
        let i = RawTensor::from_vec(vec![2i64, 0], &[2]).unwrap();
        let gi = transfer(&i.view(), &Primitives).unwrap();
        let want = x.view().index_select(dim, &i.view()).unwrap();
        let got = y.view().index_select(dim, &gi.view()).unwrap();
        assert_close(&values(&got), &cpu_values(&want), 0.0, "index_select");
    }
}

/// The error of a result that must be one.
#[track_caller]
fn error<T>(r: Result<T>) -> String {
    match r {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn composites_give_the_cpus_errors() {
    let (x, y) = pair(&[4, 3], DType::F32, 9);
    let bad = RawTensor::from_vec(vec![1i64, 4], &[2]).unwrap();
    let gbad = transfer(&bad.view(), &Primitives).unwrap();
    let want = error(x.view().index_select(0, &bad.view()));
    let got = error(y.view().index_select(0, &gbad.view()));
    assert_eq!(got, want);
    assert_eq!(
        got,
        "index_select: index 4 is out of bounds for dimension 0 with size 4"
    );
    let (xi, yi) = pair(&[4, 3], DType::I32, 10);
    assert_eq!(error(yi.view().softmax(0)), error(xi.view().softmax(0)));
    let want = error(x.view().layer_norm(&[4], None, None, 1e-5));
    assert_eq!(error(y.view().layer_norm(&[4], None, None, 1e-5)), want);
}
