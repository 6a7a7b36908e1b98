//! The executor against the PTX ISA on small kernels: reconvergence,
//! barriers, shuffles and votes, calls, local memory, carries, atomics,
//! conversions; and the checker's faults, each naming its kernel, block,
//! thread and line.

use axial_ptx::{Fault, FaultKind, HostMemory, Launch, Module, Options, run};

const HEAD: &str = ".version 7.8\n.target sm_80\n.address_size 64\n";

/// Runs kernel `k` of `body` (after the header) on `block` threads of one
/// block with one u64 parameter, the address of `n` zeroed u32.
fn run_one(body: &str, block: u32, n: usize) -> Result<Vec<u32>, Fault> {
    run_grid(body, [1, 1, 1], [block, 1, 1], n, 0)
}

fn run_grid(
    body: &str,
    grid: [u32; 3],
    block: [u32; 3],
    n: usize,
    dynamic_shared: u32,
) -> Result<Vec<u32>, Fault> {
    let text = format!("{HEAD}{body}");
    let m = Module::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let k = m.kernel("k").unwrap_or_else(|e| panic!("{e}"));
    let mut mem = HostMemory::default();
    let out = mem.alloc(4 * n);
    let params = out.to_le_bytes();
    let launch = Launch {
        grid,
        block,
        dynamic_shared,
        params: &params,
    };
    run(&k, &launch, &mem, &Options::default())?;
    Ok(mem
        .read(out, 4 * n)
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

/// out[tid] = value of %r9 at the end (the kernel computes it).
fn store_r9(code: &str) -> String {
    format!(
        ".visible .entry k(.param .u64 out)\n{{\n.reg .pred %p<8>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n{code}\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
         st.global.u32 [%rd3], %r9;\nret;\n}}\n"
    )
}

#[test]
fn diverged_lanes_reconverge_and_each_takes_its_path() {
    // Odd lanes add 100, even lanes loop tid times.
    let code = "
        and.b32 %r2, %r1, 1;
        setp.eq.s32 %p1, %r2, 1;
        mov.u32 %r9, 0;
        @%p1 bra ODD;
        mov.u32 %r3, 0;
    LOOP:
        setp.ge.u32 %p2, %r3, %r1;
        @%p2 bra JOIN;
        add.s32 %r9, %r9, 2;
        add.s32 %r3, %r3, 1;
        bra.uni LOOP;
    ODD:
        add.s32 %r9, %r9, 100;
    JOIN:
        add.s32 %r9, %r9, 1;";
    let got = run_one(&store_r9(code), 64, 64).unwrap();
    for (t, v) in got.iter().enumerate() {
        let want = if t % 2 == 1 { 101 } else { 2 * t as u32 + 1 };
        assert_eq!(*v, want, "thread {t}");
    }
}

#[test]
fn shuffles_follow_the_isa_with_clamps_and_segments() {
    // down by 1 in the full warp: lane 31 keeps its own value, p false.
    let code = "
        mul.lo.s32 %r2, %r1, 10;
        shfl.sync.down.b32 %r3|%p1, %r2, 1, 31, -1;
        selp.u32 %r4, 1000, 0, %p1;
        add.s32 %r9, %r3, %r4;";
    let got = run_one(&store_r9(code), 32, 32).unwrap();
    for (t, v) in got.iter().enumerate() {
        let want = if t < 31 {
            (t as u32 + 1) * 10 + 1000
        } else {
            310
        };
        assert_eq!(*v, want, "lane {t}");
    }
    // idx within segments of 8 (c = 0x1807: mask 0x18, clamp 7): lane 2 of each.
    let code = "
        shfl.sync.idx.b32 %r9, %r1, 2, 0x181f, -1;";
    let got = run_one(&store_r9(code), 32, 32).unwrap();
    for (t, v) in got.iter().enumerate() {
        assert_eq!(*v, (t as u32 & 0x18) | 2, "lane {t}");
    }
    // up by 4: the first four lanes keep their own.
    let code = "shfl.sync.up.b32 %r9, %r1, 4, 0, -1;";
    let got = run_one(&store_r9(code), 32, 32).unwrap();
    for (t, v) in got.iter().enumerate() {
        assert_eq!(*v, if t < 4 { t as u32 } else { t as u32 - 4 });
    }
}

#[test]
fn a_shuffle_with_lanes_elsewhere_is_a_fault() {
    let code = "
        setp.lt.u32 %p1, %r1, 16;
        mov.u32 %r9, 0;
        @%p1 bra SKIP;
        shfl.sync.down.b32 %r9, %r1, 1, 31, -1;
    SKIP:";
    let e = run_one(&store_r9(code), 32, 32).unwrap_err();
    assert_eq!(e.kind, FaultKind::Divergence);
    assert!(e.message.contains("elsewhere"), "{e}");
    assert_eq!(e.thread, [16, 0, 0]);
}

#[test]
fn votes_see_the_lanes_of_their_mask() {
    let code = "
        setp.lt.u32 %p1, %r1, 5;
        vote.sync.ballot.b32 %r2, %p1, -1;
        vote.sync.any.pred %p2, %p1, -1;
        vote.sync.all.pred %p3, %p1, -1;
        selp.u32 %r3, 1, 0, %p2;
        selp.u32 %r4, 2, 0, %p3;
        add.s32 %r5, %r3, %r4;
        shl.b32 %r6, %r5, 8;
        or.b32 %r9, %r2, %r6;";
    let got = run_one(&store_r9(code), 32, 32).unwrap();
    assert!(got.iter().all(|&v| v == 0x1f | (1 << 8)));
}

const SHARED_SUM: &str = "
.shared .align 4 .b8 buf[1024];
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<20>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, buf;
    shl.b32 %r3, %r1, 2;
    add.s32 %r4, %r2, %r3;
    st.shared.u32 [%r4], %r1;
    BARRIER1
    xor.b32 %r5, %r1, 1;
    shl.b32 %r6, %r5, 2;
    add.s32 %r7, %r2, %r6;
    ld.shared.u32 %r8, [%r7];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r8;
    ret;
}
";

#[test]
fn barriers_order_shared_memory_between_warps() {
    let body = SHARED_SUM.replace("BARRIER1", "bar.sync 0;");
    let got = run_one(&body, 256, 256).unwrap();
    for (t, v) in got.iter().enumerate() {
        assert_eq!(*v, t as u32 ^ 1);
    }
}

#[test]
fn a_missing_barrier_is_a_race_named_with_both_threads_and_the_line() {
    let body = SHARED_SUM.replace("BARRIER1", "");
    let e = run_one(&body, 256, 256).unwrap_err();
    assert_eq!(e.kind, FaultKind::Race, "{e}");
    assert_eq!(e.kernel, "k");
    // Thread 0 reads what thread 1 wrote (the line of the ld.shared).
    assert_eq!(e.thread, [0, 0, 0]);
    assert!(e.message.contains("thread (1, 0, 0)"), "{e}");
    let line = format!("{HEAD}{body}")
        .lines()
        .position(|l| l.contains("ld.shared.u32"))
        .unwrap() as u32
        + 1;
    assert_eq!(e.line, line);
}

#[test]
fn a_read_of_unwritten_shared_memory_is_a_fault() {
    let body = SHARED_SUM
        .replace("BARRIER1", "bar.sync 0;")
        .replace("xor.b32 %r5, %r1, 1;", "add.s32 %r5, %r1, 1;");
    // 255 threads: the last reads the word no thread wrote.
    let e = run_one(&body, 255, 255).unwrap_err();
    assert_eq!(e.kind, FaultKind::Uninitialized, "{e}");
    assert_eq!(e.thread, [254, 0, 0]);
}

#[test]
fn a_barrier_some_lanes_skip_is_a_fault() {
    let code = "
        setp.lt.u32 %p1, %r1, 3;
        mov.u32 %r9, 0;
        @%p1 bra SKIP;
        bar.sync 0;
    SKIP:";
    let e = run_one(&store_r9(code), 64, 64).unwrap_err();
    assert_eq!(e.kind, FaultKind::Divergence, "{e}");
}

#[test]
fn accesses_outside_allocations_or_misaligned_are_faults() {
    let code = "mov.u32 %r9, 1;";
    // 33 threads write 33 words into 32.
    let e = run_one(&store_r9(code), 33, 32).unwrap_err();
    assert_eq!(
        (e.kind, e.thread),
        (FaultKind::OutOfBounds, [32, 0, 0]),
        "{e}"
    );
    let body =
        store_r9("mov.u32 %r9, 1;").replace("add.s64 %rd3, %rd1, %rd2;", "add.s64 %rd3, %rd1, 2;");
    let e = run_one(&body, 1, 4).unwrap_err();
    assert_eq!(e.kind, FaultKind::Misaligned, "{e}");
}

#[test]
fn blocks_writing_one_address_race_across_the_grid() {
    // Every block's thread 0 writes word 0.
    let body = "
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %ctaid.x;
    st.global.u32 [%rd1], %r1;
    ret;
}";
    let e = run_grid(body, [2, 1, 1], [1, 1, 1], 1, 0).unwrap_err();
    assert_eq!((e.kind, e.block), (FaultKind::Race, [1, 0, 0]), "{e}");
    // Through an atomic they do not.
    let body = body.replace(
        "st.global.u32 [%rd1], %r1;",
        "atom.global.add.u32 %r2, [%rd1], 1;",
    );
    assert_eq!(
        run_grid(&body, [5, 1, 1], [32, 1, 1], 1, 0).unwrap(),
        vec![160]
    );
}

#[test]
fn calls_pass_parameters_and_local_memory_is_per_thread() {
    let body = "
.func (.param .b32 ret) twice(.param .b32 x)
{
    .local .align 4 .b8 depot[8];
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    ld.param.u32 %r1, [x];
    mov.u64 %rd1, depot;
    st.local.u32 [%rd1+4], %r1;
    ld.local.u32 %r2, [%rd1+4];
    add.s32 %r3, %r2, %r2;
    st.param.b32 [ret], %r3;
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 7;
    mov.u32 %r9, 5;
    @%p1 bra SKIP;
    {
    .param .b32 a;
    st.param.b32 [a], %r1;
    .param .b32 r;
    call.uni (r), twice, (a);
    ld.param.b32 %r9, [r];
    }
SKIP:
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r9;
    ret;
}";
    let got = run_one(body, 32, 32).unwrap();
    for (t, v) in got.iter().enumerate() {
        assert_eq!(*v, if t < 7 { 5 } else { 2 * t as u32 });
    }
}

#[test]
fn carries_chain_through_add_and_mad() {
    // (2^32 - 1) + 1 + carry chain: a 64-bit add from 32-bit halves.
    let code = "
        mov.u32 %r2, -1;
        add.cc.u32 %r3, %r2, %r1;
        addc.u32 %r4, 0, 0;
        mad.lo.cc.u32 %r5, %r2, 2, 2;
        madc.hi.u32 %r6, %r2, 2, 0;
        shl.b32 %r7, %r4, 8;
        shl.b32 %r8, %r6, 16;
        add.s32 %r9, %r7, %r8;
        add.s32 %r9, %r9, %r5;";
    let got = run_one(&store_r9(code), 2, 2).unwrap();
    // tid 0: no carry; tid 1: carry 1. (2^32-1)*2+2 = 2^33: low 0, carry 1, hi 1 + 1.
    assert_eq!(got, vec![2 << 16, (1 << 8) | (2 << 16)]);
}

#[test]
fn conversions_round_as_their_modifiers_say() {
    let code = "
        cvt.rn.f32.u32 %f1, %r1;
        mov.f32 %f2, 0f3F000000;
        mul.rn.f32 %f3, %f1, %f2;
        cvt.rni.s32.f32 %r2, %f3;
        cvt.rmi.s32.f32 %r3, %f3;
        cvt.rn.f16.f32 %rs1, %f3;
        cvt.f32.f16 %f4, %rs1;
        cvt.rzi.s32.f32 %r4, %f4;
        shl.b32 %r5, %r3, 8;
        shl.b32 %r6, %r4, 16;
        add.s32 %r9, %r2, %r5;
        add.s32 %r9, %r9, %r6;";
    let body = store_r9(code).replace(
        ".reg .b64 %rd<8>;",
        ".reg .b64 %rd<8>;\n.reg .f32 %f<6>;\n.reg .b16 %rs<3>;",
    );
    let got = run_one(&body, 6, 6).unwrap();
    for (t, v) in got.iter().enumerate() {
        let half = t as f32 / 2.0;
        let want =
            half.round_ties_even() as u32 + ((half.floor() as u32) << 8) + ((half as u32) << 16);
        assert_eq!(*v, want, "tid {t}");
    }
}

#[test]
fn dynamic_shared_memory_follows_the_static_variables() {
    let body = "
.shared .align 4 .b8 fixed[12];
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<10>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, dyn;
    mov.u32 %r3, fixed;
    sub.s32 %r4, %r2, %r3;
    shl.b32 %r5, %r1, 2;
    add.s32 %r6, %r2, %r5;
    st.shared.u32 [%r6], %r4;
    ld.shared.u32 %r9, [%r6];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r9;
    ret;
}";
    assert_eq!(
        run_grid(body, [1, 1, 1], [4, 1, 1], 4, 16).unwrap(),
        vec![16; 4]
    );
    // Past the dynamic size: outside shared memory.
    let e = run_grid(body, [1, 1, 1], [4, 1, 1], 4, 12).unwrap_err();
    assert_eq!(e.kind, FaultKind::OutOfSpace, "{e}");
}

#[test]
fn launches_outside_the_limits_of_sm_80_are_refused() {
    let body = store_r9("mov.u32 %r9, 0;");
    let e = run_grid(&body, [1, 1, 1], [2048, 1, 1], 2048, 0).unwrap_err();
    assert_eq!(e.kind, FaultKind::Invalid);
    let e = run_grid(&body, [1, 70_000, 1], [1, 1, 1], 1, 0).unwrap_err();
    assert_eq!(e.kind, FaultKind::Invalid);
}

#[test]
fn lanes_inside_a_call_finish_it_before_others_pass_the_call_site() {
    // Lanes 0..16 call a function in a loop; the rest skip the loop; all
    // meet at a barrier after it. The function's code lies after the
    // kernel's, so ordering by raw program counter alone would let the
    // skipping lanes reach the barrier first.
    let body = "
.func (.param .b32 r) inc(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.u32 %r1, [x];
    add.s32 %r2, %r1, 1;
    st.param.b32 [r], %r2;
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r9, 0;
    setp.ge.u32 %p1, %r1, 16;
    @%p1 bra JOIN;
LOOP:
    {
    .param .b32 a;
    st.param.b32 [a], %r9;
    .param .b32 r;
    call.uni (r), inc, (a);
    ld.param.b32 %r9, [r];
    }
    setp.lt.u32 %p2, %r9, %r1;
    @%p2 bra LOOP;
JOIN:
    bar.sync 0;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r9;
    ret;
}";
    let got = run_one(body, 32, 32).unwrap();
    for (t, v) in got.iter().enumerate() {
        assert_eq!(*v, if t < 16 { (t as u32).max(1) } else { 0 }, "thread {t}");
    }
}

#[test]
fn a_kernel_that_loops_for_ever_is_reported_as_hanging() {
    let text =
        format!("{HEAD}.visible .entry k(.param .u64 out)\n{{\nLOOP:\n    bra.uni LOOP;\n}}\n");
    let m = Module::parse(&text).unwrap();
    let k = m.kernel("k").unwrap();
    let params = 0u64.to_le_bytes();
    let launch = Launch {
        grid: [1, 1, 1],
        block: [32, 1, 1],
        dynamic_shared: 0,
        params: &params,
    };
    let options = Options {
        max_steps: 1000,
        ..Options::default()
    };
    let e = run(&k, &launch, &HostMemory::default(), &options).unwrap_err();
    assert_eq!((e.kind, e.line), (FaultKind::Hang, 7), "{e}");
}
