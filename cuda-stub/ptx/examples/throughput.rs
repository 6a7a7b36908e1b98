//! How fast the executor runs committed kernels: a strided add and an
//! exponential over a million f32, and a row softmax, with and without the
//! race checker (`cargo run --release -p axial-ptx --example throughput`).

use std::time::Instant;

use axial_ptx::{HostMemory, Launch, Module, Options, run};

fn ptx(name: &str) -> String {
    let p = format!(
        "{}/../../crates/axial-cuda/ptx/{name}.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(p).expect("committed PTX")
}

/// `Walk<N>` of `common.cuh`.
fn walk(sizes: &[u64], strides: &[&[i64]], contiguous: bool) -> Vec<u8> {
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
    b.extend((contiguous as i32).to_le_bytes());
    b
}

fn time(
    what: &str,
    elements: u64,
    m: &Module,
    kernel: &str,
    args: &[Vec<u8>],
    grid: u32,
    mem: &HostMemory,
) {
    let k = m.kernel(kernel).unwrap();
    let mut params = vec![0u8; k.param_size() as usize];
    for (p, v) in k.params().iter().zip(args) {
        params[p.offset as usize..][..v.len()].copy_from_slice(v);
    }
    let checks: &[bool] = if std::env::var_os("NO_CHECK").is_some() {
        &[false]
    } else {
        &[false, true]
    };
    for &check in checks {
        let launch = Launch {
            grid: [grid, 1, 1],
            block: [256, 1, 1],
            dynamic_shared: 0,
            params: &params,
        };
        let options = Options {
            check_races: check,
            ..Options::default()
        };
        let start = Instant::now();
        let stats = run(&k, &launch, mem, &options).unwrap();
        let s = start.elapsed().as_secs_f64();
        println!(
            "{what:<34} checker {:<3}: {:7.1} ms, {:6.1} ns/element, {:5.1} ns/warp instruction",
            if check { "on" } else { "off" },
            s * 1e3,
            s * 1e9 / elements as f64,
            s * 1e9 / stats.steps as f64
        );
    }
}

fn main() {
    let n = 1u64 << 20;
    let mut mem = HostMemory::default();
    let (o, a, b) = (
        mem.alloc(4 * n as usize),
        mem.alloc(4 * n as usize),
        mem.alloc(4 * n as usize),
    );
    let ew = Module::parse(&ptx("elementwise_f32")).unwrap();
    let le = |v: u64| v.to_le_bytes().to_vec();
    let contiguous = walk(&[n], &[&[1], &[1], &[1]], true);
    time(
        "add f32, contiguous",
        n,
        &ew,
        "binary_add_f32",
        &[le(o), le(a), le(b), contiguous, vec![0; 48]],
        64,
        &mem,
    );
    let (r, c) = (1024u64, n / 1024);
    let strided = walk(
        &[r, c],
        &[&[c as i64, 1], &[c as i64, 1], &[1, r as i64]],
        false,
    );
    time(
        "add f32, one operand transposed",
        n,
        &ew,
        "binary_add_f32",
        &[le(o), le(a), le(b), strided, vec![0; 48]],
        64,
        &mem,
    );
    let unary = walk(&[n], &[&[1], &[1]], true);
    time(
        "exp f32, contiguous",
        n,
        &ew,
        "unary_exp_f32",
        &[le(o), le(a), unary, vec![0; 48]],
        64,
        &mem,
    );
}
