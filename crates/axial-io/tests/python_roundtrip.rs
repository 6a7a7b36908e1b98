//! Files axial writes read back in the reference libraries: torch
//! (`weights_only=True`, shared storages kept), numpy, h5py and safetensors
//! (`tests/python/read_back.py`), with the environment `bench/setup.sh`
//! makes. Without it the test says so and passes, unless
//! `AXIAL_REQUIRE_PYTHON=1` (as `.ci/run` sets after making it).

use std::path::{Path, PathBuf};
use std::process::Command;

use axial_core::{DType, Layout, RawTensor};
use axial_io::hdf5::{AttrValue, H5Writer, Layout as H5Layout};
use axial_io::{StoredTensor, Value, npy, npz, safetensors, torch};

fn python() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("AXIAL_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/.venv/bin/python");
    venv.exists().then_some(venv)
}

fn grid(dtype: DType) -> RawTensor {
    RawTensor::arange(0.0, 6.0, 1.0, dtype)
        .unwrap()
        .view()
        .view(&[2, 3])
        .unwrap()
        .to_contiguous()
        .unwrap()
}

/// `[[0, 1, 2], [3, 4, 5]]` with imaginary parts `-x / 2`.
fn complex_grid(dtype: DType) -> RawTensor {
    let z: Vec<num_complex::Complex<f64>> = (0..6)
        .map(|i| num_complex::Complex::new(f64::from(i), -f64::from(i) / 2.0))
        .collect();
    RawTensor::from_vec(z, &[2, 3])
        .unwrap()
        .view()
        .to_dtype(dtype)
        .unwrap()
}

/// The dtypes with few kernels, in every format that holds them.
fn write_new_dtypes(dir: &Path) {
    let grid = |d: DType| grid(DType::F64).view().to_dtype(d).unwrap();
    let wide = [
        ("u16", DType::U16),
        ("u32", DType::U32),
        ("u64", DType::U64),
    ];
    let float8 = [
        ("f8e4m3fn", DType::F8E4M3Fn),
        ("f8e5m2", DType::F8E5M2),
        ("f8e4m3fnuz", DType::F8E4M3FnUz),
        ("f8e5m2fnuz", DType::F8E5M2FnUz),
    ];
    let mut owned: Vec<(&str, RawTensor)> = wide
        .iter()
        .chain(&float8)
        .map(|&(k, d)| (k, grid(d)))
        .collect();
    owned.push(("c64", complex_grid(DType::C64)));
    let refs: Vec<(&str, axial_core::TensorRef<'_>)> =
        owned.iter().map(|(k, t)| (*k, t.view())).collect();
    safetensors::save(dir.join("new.safetensors"), &refs, &[]).unwrap();

    owned.push(("c128", complex_grid(DType::C128)));
    let mut items: Vec<(&str, Value)> = owned
        .iter()
        .map(|(k, t)| {
            (
                *k,
                Value::tensor(StoredTensor::from_raw(t.view().to_contiguous().unwrap())),
            )
        })
        .collect();
    // "u16" and its transpose, views of one storage.
    let u16s = StoredTensor::from_raw(grid(DType::U16));
    let t = u16s.with_layout(u16s.layout().t().unwrap()).unwrap();
    items.retain(|(k, _)| *k != "u16");
    items.push(("u16", u16s.into()));
    items.push(("u16_t", t.into()));
    torch::save(dir.join("new.pt"), &Value::dict(items)).unwrap();

    for (name, t) in [
        ("u2", grid(DType::U16)),
        ("u4", grid(DType::U32)),
        ("u8", grid(DType::U64)),
        ("c8", complex_grid(DType::C64)),
        ("c16", complex_grid(DType::C128)),
    ] {
        npy::save(dir.join(format!("new_{name}.npy")), &t.view()).unwrap();
    }

    let mut h = H5Writer::new();
    for (k, d) in wide {
        h.dataset(k, &grid(d).view(), H5Layout::Contiguous).unwrap();
    }
    for (k, d) in [("c64", DType::C64), ("c128", DType::C128)] {
        let chunked = H5Layout::Chunked {
            chunks: vec![1, 3],
            gzip: Some(1),
            shuffle: true,
        };
        h.dataset(k, &complex_grid(d).view(), chunked).unwrap();
    }
    h.save(dir.join("new.h5")).unwrap();
}

fn write_all(dir: &Path) {
    write_new_dtypes(dir);
    // safetensors
    let names = [
        "bool", "u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64",
    ];
    let tensors: Vec<RawTensor> = DType::ALL.iter().map(|&d| grid(d)).collect();
    let mut refs: Vec<(&str, axial_core::TensorRef<'_>)> = names
        .iter()
        .copied()
        .zip(tensors.iter().map(RawTensor::view))
        .collect();
    let f32s = grid(DType::F32);
    refs.push(("transposed", f32s.view().t().unwrap()));
    safetensors::save(
        dir.join("all.safetensors"),
        &refs,
        &[("format", "pt"), ("epoch", "10")],
    )
    .unwrap();

    // torch: the chapter's checkpoint, views of one storage, a parameter, values
    let w = RawTensor::arange(0.0, 2.0, 0.125, DType::F32)
        .unwrap()
        .view()
        .view(&[4, 4])
        .unwrap()
        .to_contiguous()
        .unwrap();
    let base = StoredTensor::from_raw(
        RawTensor::arange(0.0, 12.0, 1.0, DType::F32)
            .unwrap()
            .view()
            .view(&[3, 4])
            .unwrap()
            .to_contiguous()
            .unwrap(),
    );
    let t = base.with_layout(base.layout().t().unwrap()).unwrap();
    let win = base
        .with_layout(Layout::from_parts(&[2, 2], &[4, 1], 5))
        .unwrap();
    let mut param = Value::tensor(StoredTensor::from_raw(
        RawTensor::arange(0.0, 3.0, 1.0, DType::BF16).unwrap(),
    ));
    if let Value::Tensor(p) = &mut param {
        p.parameter = true;
        p.requires_grad = true;
    }
    let ckpt = Value::dict([
        ("model_weights", Value::tensor(StoredTensor::from_raw(w))),
        ("epoch", Value::Int(10)),
        ("learning_rate", Value::Float(1e-3)),
        (
            "views",
            Value::dict([("base", base.into()), ("t", t.into()), ("w", win.into())]),
        ),
        ("param", param),
        (
            "meta",
            Value::dict([
                ("name", Value::from("demo")),
                ("big", Value::Int(1 << 40)),
                ("huge", Value::Int(1 << 70)),
                ("neg", Value::Int(-5)),
                (
                    "tuple",
                    Value::Tuple(vec![Value::Float(0.5), Value::None, Value::Bool(true)]),
                ),
                ("blob", Value::Bytes(vec![0, 255, b'a', b'b'])),
                ("size", Value::Size(vec![2, 3])),
                ("dtype", Value::DType("torch.float16".into())),
                ("list", Value::List(vec![Value::Int(1), Value::from("two")])),
                ("sd", Value::ordered_dict([("fc.weight", Value::None)])),
            ]),
        ),
    ]);
    torch::save(dir.join("chapter.pt"), &ckpt).unwrap();

    // npy / npz
    for (name, dtype) in [
        ("b1", DType::Bool),
        ("u1", DType::U8),
        ("i1", DType::I8),
        ("i2", DType::I16),
        ("i4", DType::I32),
        ("i8", DType::I64),
        ("f2", DType::F16),
        ("f4", DType::F32),
        ("f8", DType::F64),
    ] {
        npy::save(dir.join(format!("{name}.npy")), &grid(dtype).view()).unwrap();
    }
    npy::save(dir.join("fortran.npy"), &f32s.view().t().unwrap()).unwrap();
    npy::save(
        dir.join("scalar.npy"),
        &RawTensor::zeros(&[], DType::F64).unwrap().view(),
    )
    .unwrap();
    npy::save(
        dir.join("empty.npy"),
        &RawTensor::zeros(&[0, 3], DType::F32).unwrap().view(),
    )
    .unwrap();
    let labels = RawTensor::from_vec(vec![1i64, -2], &[2]).unwrap();
    let mask = RawTensor::from_vec(
        vec![axial_core::Bool::from(true), axial_core::Bool::from(false)],
        &[2],
    )
    .unwrap();
    for (name, compressed) in [("stored", false), ("compressed", true)] {
        let arrays = [
            ("features", f32s.view()),
            ("labels", labels.view()),
            ("mask", mask.view()),
        ];
        npz::save(dir.join(format!("{name}.npz")), &arrays, compressed).unwrap();
    }

    // HDF5
    let mut h = H5Writer::new();
    let features = RawTensor::arange(0.0, 100.0, 1.0, DType::I64)
        .unwrap()
        .view()
        .view(&[10, 10])
        .unwrap()
        .to_contiguous()
        .unwrap();
    h.dataset("features", &features.view(), H5Layout::Contiguous)
        .unwrap();
    let big = RawTensor::arange(0.0, 1e6, 1.0, DType::F32)
        .unwrap()
        .view()
        .view(&[1000, 1000])
        .unwrap()
        .to_contiguous()
        .unwrap();
    h.dataset(
        "big",
        &big.view(),
        H5Layout::Chunked {
            chunks: vec![100, 1000],
            gzip: Some(4),
            shuffle: true,
        },
    )
    .unwrap();
    h.dataset(
        "model/encoder/weight",
        &RawTensor::eye_on(&axial_core::Cpu, 3, 3, DType::F32)
            .unwrap()
            .view(),
        H5Layout::Contiguous,
    )
    .unwrap();
    let bools = RawTensor::from_vec(
        [true, false, true].map(axial_core::Bool::from).to_vec(),
        &[3],
    )
    .unwrap();
    h.dataset(
        "mask",
        &bools.view(),
        H5Layout::Chunked {
            chunks: vec![2],
            gzip: Some(1),
            shuffle: false,
        },
    )
    .unwrap();
    h.attribute("model/encoder/weight", "scale", AttrValue::Float(0.5))
        .unwrap();
    h.attribute(
        "model/encoder/weight",
        "units",
        AttrValue::Str("m/s".into()),
    )
    .unwrap();
    h.attribute("model/encoder/weight", "ids", AttrValue::Ints(vec![1, 2]))
        .unwrap();
    h.attribute("model", "version", AttrValue::Int(3)).unwrap();
    h.attribute("/", "title", AttrValue::Str("axial".into()))
        .unwrap();
    h.save(dir.join("data.h5")).unwrap();
}

#[test]
fn files_axial_writes_read_back_in_torch_numpy_h5py_and_safetensors() {
    let Some(python) = python() else {
        assert!(
            std::env::var("AXIAL_REQUIRE_PYTHON").is_err(),
            "AXIAL_REQUIRE_PYTHON is set but bench/.venv is missing: run bench/setup.sh"
        );
        eprintln!("skipped: no bench/.venv (run bench/setup.sh) and no AXIAL_PYTHON");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    write_all(dir.path());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/read_back.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg(dir.path())
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "read_back.py failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for format in [
        "safetensors: ok",
        "torch: ok",
        "npy/npz: ok",
        "hdf5: ok",
        "new dtypes: ok",
    ] {
        assert!(
            stdout.lines().any(|l| l == format),
            "{format} missing in:\n{stdout}"
        );
    }
}
