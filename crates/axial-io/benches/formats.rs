//! Loading speed of the storage formats, beside the reference libraries
//! (`compare_formats.py` runs these and the same cases in Python):
//! - the all-MiniLM-L6-v2 weights (90 MB of safetensors) loaded, and loaded
//!   with every tensor summed (every byte read);
//! - a checkpoint of the same weights (`torch.save`), the same two ways;
//! - rows 2..5 of a chunked, compressed 1000×1000 f32 HDF5 dataset, and the
//!   whole dataset.
//!
//! The files live in `$AXIAL_IO_BENCH_DIR` (default `target/io-bench/`):
//! `minilm.safetensors` (from `bench/fetch_minilm.sh`), `minilm.pt` and
//! `features.h5` (written by `compare_formats.py` with torch and h5py, or
//! here with axial's writers when absent).
// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use axial_core::{DType, RawTensor, ReduceOp};
use axial_io::hdf5::{self, Layout, Select};
use axial_io::{StoredTensor, Value, safetensors, torch};
use criterion::{Criterion, criterion_group, criterion_main};

fn dir() -> PathBuf {
    std::env::var_os("AXIAL_IO_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/io-bench"))
}

/// Sums every tensor (reads every byte), as the Python side does.
fn touch<'a>(tensors: impl Iterator<Item = &'a StoredTensor>) -> f64 {
    let mut total = 0.0;
    for t in tensors {
        let v = t.view();
        let all: Vec<isize> = (0..v.dim() as isize).collect();
        let s = v
            .to_dtype(DType::F64)
            .and_then(|f| f.view().reduce(ReduceOp::Sum, &all, false));
        total += s.and_then(|s| s.to_vec::<f64>()).map_or(0.0, |v| v[0]);
    }
    total
}

fn tensors_of(v: &Value, out: &mut Vec<StoredTensor>) {
    match v {
        Value::Tensor(t) => out.push(t.tensor.clone()),
        Value::Dict(d) => d.items.iter().for_each(|(_, x)| tensors_of(x, out)),
        Value::List(xs) | Value::Tuple(xs) => xs.iter().for_each(|x| tensors_of(x, out)),
        _ => {}
    }
}

fn prepare(dir: &Path) -> Option<()> {
    let st = dir.join("minilm.safetensors");
    if !st.exists() {
        eprintln!(
            "{} is missing: run bench/fetch_minilm.sh, or compare_formats.py",
            st.display()
        );
        return None;
    }
    let pt = dir.join("minilm.pt");
    if !pt.exists() {
        let file = safetensors::load(&st).ok()?;
        let sd = Value::ordered_dict(file.iter().map(|(k, t)| (k, Value::tensor(t.clone()))));
        torch::save(&pt, &sd).ok()?;
    }
    let h5 = dir.join("features.h5");
    if !h5.exists() {
        let x = RawTensor::randn(
            &[1000, 1000],
            DType::F32,
            &mut axial_core::Generator::seed(0),
        )
        .ok()?;
        let mut w = hdf5::H5Writer::new();
        w.dataset(
            "features",
            &x.view(),
            Layout::Chunked {
                chunks: vec![100, 100],
                gzip: Some(4),
                shuffle: true,
            },
        )
        .ok()?;
        w.save(&h5).ok()?;
    }
    Some(())
}

fn formats(c: &mut Criterion) {
    let dir = dir();
    if prepare(&dir).is_none() {
        return;
    }
    let st = dir.join("minilm.safetensors");
    let pt = dir.join("minilm.pt");
    let h5 = dir.join("features.h5");

    let mut g = c.benchmark_group("safetensors");
    g.sample_size(20).measurement_time(Duration::from_secs(4));
    g.bench_function("load", |b| b.iter(|| safetensors::load(&st).unwrap()));
    g.bench_function("load_touch", |b| {
        b.iter(|| {
            let f = safetensors::load(&st).unwrap();
            touch(f.iter().map(|(_, t)| t))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("torch");
    g.sample_size(20).measurement_time(Duration::from_secs(4));
    g.bench_function("load", |b| b.iter(|| torch::load(&pt).unwrap()));
    g.bench_function("load_touch", |b| {
        b.iter(|| {
            let ckpt = torch::load(&pt).unwrap();
            let mut ts = Vec::new();
            tensors_of(ckpt.value(), &mut ts);
            touch(ts.iter())
        })
    });
    g.finish();

    let mut g = c.benchmark_group("hdf5");
    g.sample_size(20).measurement_time(Duration::from_secs(4));
    g.bench_function("rows_2_5", |b| {
        b.iter(|| {
            let f = hdf5::open(&h5).unwrap();
            f.dataset("features")
                .unwrap()
                .read_slice(&[Select::from(2..5), Select::All])
                .unwrap()
        })
    });
    g.bench_function("whole", |b| {
        b.iter(|| {
            let f = hdf5::open(&h5).unwrap();
            f.dataset("features").unwrap().read().unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, formats);
criterion_main!(benches);
