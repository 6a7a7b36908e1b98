//! Kernels of `axial-cuda`'s committed PTX run here directly (the CUDA
//! device's own suites run them all through the stand-in driver): an
//! elementwise add over a strided walk, a block reduction with shuffles,
//! and the same kernels with one instruction patched or a barrier removed,
//! which the results or the race checker must expose.

use std::path::PathBuf;

use axial_ptx::{FaultKind, HostMemory, Launch, Module, Options, run};

fn ptx(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../crates/axial-cuda/ptx/{name}.ptx"));
    std::fs::read_to_string(p).expect("committed PTX")
}

/// `Walk<N>` of `common.cuh`: numel, 8 sizes, N×8 strides, ndim, contiguous.
fn walk(sizes: &[u64], strides: &[&[i64]]) -> Vec<u8> {
    let mut b = vec![];
    b.extend(sizes.iter().product::<u64>().to_le_bytes());
    for d in 0..8 {
        b.extend(sizes.get(d).copied().unwrap_or(0).to_le_bytes());
    }
    for s in strides {
        for d in 0..8 {
            b.extend(s.get(d).copied().unwrap_or(0).to_le_bytes());
        }
    }
    b.extend((sizes.len() as i32).to_le_bytes());
    b.extend(0i32.to_le_bytes());
    b
}

/// The parameter buffer of `kernel` from one byte string per parameter.
fn params(module: &Module, kernel: &str, values: &[Vec<u8>]) -> Vec<u8> {
    let k = module.kernel(kernel).unwrap();
    let mut buf = vec![0u8; k.param_size() as usize];
    assert_eq!(k.params().len(), values.len());
    for (p, v) in k.params().iter().zip(values) {
        assert_eq!(p.size as usize, v.len(), "{}", p.name);
        buf[p.offset as usize..][..v.len()].copy_from_slice(v);
    }
    buf
}

fn f32s(mem: &HostMemory, at: u64, n: usize) -> Vec<f32> {
    mem.read(at, 4 * n)
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// `o = a + b` with `b` read transposed, through `binary_add_f32` of `text`.
fn strided_add(text: &str) -> (Vec<f32>, Vec<f32>) {
    let m = Module::parse(text).unwrap();
    let (rows, cols) = (37usize, 41usize);
    let mut mem = HostMemory::default();
    let (o, a, b) = (
        mem.alloc(4 * rows * cols),
        mem.alloc(4 * rows * cols),
        mem.alloc(4 * rows * cols),
    );
    let av: Vec<f32> = (0..rows * cols).map(|i| i as f32 * 0.5).collect();
    let bv: Vec<f32> = (0..rows * cols).map(|i| 1000.0 - i as f32).collect();
    mem.write(
        a,
        &av.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>(),
    );
    mem.write(
        b,
        &bv.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>(),
    );
    let w = walk(
        &[rows as u64, cols as u64],
        &[&[cols as i64, 1], &[cols as i64, 1], &[1, rows as i64]],
    );
    let p = params(
        &m,
        "binary_add_f32",
        &[
            o.to_le_bytes().to_vec(),
            a.to_le_bytes().to_vec(),
            b.to_le_bytes().to_vec(),
            w,
            vec![0; 48],
        ],
    );
    let k = m.kernel("binary_add_f32").unwrap();
    let launch = Launch {
        grid: [3, 1, 1],
        block: [256, 1, 1],
        dynamic_shared: 0,
        params: &p,
    };
    run(&k, &launch, &mem, &Options::default()).unwrap();
    let want = (0..rows * cols)
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            av[i] + bv[c * rows + r]
        })
        .collect();
    (f32s(&mem, o, rows * cols), want)
}

#[test]
fn the_strided_add_of_the_committed_ptx_computes_the_sum() {
    let (got, want) = strided_add(&ptx("elementwise_f32"));
    assert_eq!(got, want);
}

#[test]
fn one_patched_instruction_changes_the_result() {
    let text = ptx("elementwise_f32");
    let start = text.find(".entry binary_add_f32(").unwrap();
    let at = start + text[start..].find("add.rn.f32").unwrap();
    let patched = format!(
        "{}sub.rn.f32{}",
        &text[..at],
        &text[at + "add.rn.f32".len()..]
    );
    let (got, want) = strided_add(&patched);
    assert_ne!(got, want);
}

/// `softmax_rows_f32` over `rows × len` (block reductions with shuffles
/// and shared memory), against the f64 softmax.
fn softmax(text: &str) -> Result<(), axial_ptx::Fault> {
    let m = Module::parse(text).unwrap();
    let (rows, len) = (5usize, 300usize);
    let mut mem = HostMemory::default();
    let (o, a) = (mem.alloc(4 * rows * len), mem.alloc(4 * rows * len));
    let x: Vec<f32> = (0..rows * len)
        .map(|i| ((i * 7919) % 23) as f32 / 3.0 - 2.0)
        .collect();
    mem.write(
        a,
        &x.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>(),
    );
    let mut shape = vec![];
    for v in [rows as u64, len as u64, 1] {
        shape.extend(v.to_le_bytes());
    }
    shape.extend([0u8; 8]);
    let p = params(
        &m,
        "softmax_rows_f32",
        &[o.to_le_bytes().to_vec(), a.to_le_bytes().to_vec(), shape],
    );
    let k = m.kernel("softmax_rows_f32").unwrap();
    let launch = Launch {
        grid: [2, 1, 1],
        block: [128, 1, 1],
        dynamic_shared: 0,
        params: &p,
    };
    run(&k, &launch, &mem, &Options::default())?;
    let got = f32s(&mem, o, rows * len);
    for r in 0..rows {
        let row = &x[r * len..(r + 1) * len];
        let max = row.iter().cloned().fold(f32::MIN, f32::max) as f64;
        let sum: f64 = row.iter().map(|&v| (v as f64 - max).exp()).sum();
        for j in 0..len {
            let want = (row[j] as f64 - max).exp() / sum;
            let g = got[r * len + j] as f64;
            assert!(
                (g - want).abs() <= 1e-6 * want.max(1e-3),
                "row {r} col {j}: {g} vs {want}"
            );
        }
    }
    Ok(())
}

#[test]
fn the_block_reductions_of_softmax_compute_it() {
    softmax(&ptx("norm")).unwrap();
}

#[test]
fn a_removed_barrier_of_a_block_reduction_is_a_race() {
    let text = ptx("norm");
    let start = text.find(".entry softmax_rows_f32(").unwrap();
    let end = start + text[start..].find("\n}\n").unwrap();
    // Drop the barrier after each warp's lane 0 writes its partial result.
    let body = &text[start..end];
    let bars: Vec<usize> = body.match_indices("bar.sync").map(|(i, _)| i).collect();
    assert!(bars.len() >= 3);
    let at = start + bars[2];
    let patched = format!(
        "{}// removed{}",
        &text[..at],
        &text[at + "bar.sync \t0;".len()..]
    );
    let e = softmax(&patched).unwrap_err();
    assert!(
        matches!(e.kind, FaultKind::Race | FaultKind::Uninitialized),
        "{e}"
    );
    assert_eq!(e.kernel, "softmax_rows_f32");
}

/// `offsets_of<2>` of the committed `move` module (the index math every
/// strided kernel shares) at flat index `i` of a walk, through a probe
/// kernel appended to the module.
fn offsets_of(sizes: &[u64], strides: [&[i64]; 2], i: u64) -> [i64; 2] {
    let probe = r#"
.visible .entry probe(.param .u64 out, .param .u64 i, .param .align 8 .b8 w[208])
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [i];
    mov.b64 %rd3, w;
    mov.u32 %r1, walk_smem;
    mov.u32 %r2, 0;
COPY:
    mul.wide.u32 %rd4, %r2, 8;
    add.s64 %rd5, %rd3, %rd4;
    ld.param.u64 %rd6, [%rd5];
    shl.b32 %r3, %r2, 3;
    add.s32 %r4, %r1, %r3;
    st.shared.u64 [%r4], %rd6;
    add.s32 %r2, %r2, 1;
    setp.lt.u32 %p1, %r2, 26;
    @%p1 bra COPY;
    cvt.u64.u32 %rd7, %r1;
    cvta.shared.u64 %rd7, %rd7;
    {
    .param .b64 param0;
    st.param.b64 [param0], %rd7;
    .param .b64 param1;
    st.param.b64 [param1], %rd2;
    .param .align 8 .b8 retval0[16];
    call.uni (retval0), _Z10offsets_ofILi2EE4OffsIXT_EEPK4WalkIXT_EEy, (param0, param1);
    ld.param.b64 %rd8, [retval0];
    ld.param.b64 %rd9, [retval0+8];
    }
    cvta.to.global.u64 %rd10, %rd1;
    st.global.u64 [%rd10], %rd8;
    st.global.u64 [%rd10+8], %rd9;
    ret;
}
"#;
    let m = Module::parse(&format!("{}{probe}", ptx("move"))).unwrap();
    let mut mem = HostMemory::default();
    let out = mem.alloc(16);
    let p = params(
        &m,
        "probe",
        &[
            out.to_le_bytes().to_vec(),
            i.to_le_bytes().to_vec(),
            walk(sizes, &strides),
        ],
    );
    let k = m.kernel("probe").unwrap();
    let launch = Launch {
        grid: [1, 1, 1],
        block: [1, 1, 1],
        dynamic_shared: 0,
        params: &p,
    };
    run(&k, &launch, &mem, &Options::default()).unwrap();
    let b = mem.read(out, 16);
    [
        i64::from_le_bytes(b[..8].try_into().unwrap()),
        i64::from_le_bytes(b[8..].try_into().unwrap()),
    ]
}

/// The offsets of flat index `i` computed on the host.
fn host_offsets(sizes: &[u64], strides: [&[i64]; 2], mut i: u64) -> [i64; 2] {
    let mut o = [0i64; 2];
    for d in (0..sizes.len()).rev() {
        let r = i % sizes[d];
        i /= sizes[d];
        for k in 0..2 {
            o[k] += r as i64 * strides[k][d];
        }
    }
    o
}

#[test]
fn the_shared_index_math_is_64_bit_past_four_billion_elements() {
    // A walk of 3 × (2^31 + 7) × 5 elements (past 2^32: the u64 branch),
    // and one of fewer (the u32 branch), at indices throughout.
    let big = [3u64, (1 << 31) + 7, 5];
    let strides: [&[i64]; 2] = [&[-((1i64 << 34) + 3), 5, 1 << 32], &[1, 3, -7]];
    for i in [
        0u64,
        4,
        5,
        1 << 32,
        (1 << 33) + 12_345,
        big.iter().product::<u64>() - 1,
    ] {
        assert_eq!(
            offsets_of(&big, strides, i),
            host_offsets(&big, strides, i),
            "index {i}"
        );
    }
    let small = [7u64, 1000, 3];
    for i in [0u64, 2, 3001, 20_999] {
        assert_eq!(
            offsets_of(&small, strides, i),
            host_offsets(&small, strides, i),
            "index {i}"
        );
    }
}
