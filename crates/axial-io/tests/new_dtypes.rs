//! uint16/32/64, complex64/128 and the four float8s as torch, safetensors,
//! numpy and h5py wrote them (`new_dtypes.*`, made by
//! `tests/python/make_fixtures.py`, extremes included): every tensor reads
//! with its dtype, shape, strides and exact values, and writes back to the
//! same through axial's writer of the format.

mod common;

use axial_core::DType;
use axial_io::{StoredTensor, TensorMap, hdf5, npz, safetensors, torch};
use common::{expected, fixture};
use num_complex::Complex;
use serde_json::Value as Json;

/// The exact values of a tensor, as the record writes them: integers as
/// themselves, floats and complex parts as f64 (exact for every dtype here).
fn exact(t: &StoredTensor) -> Vec<Json> {
    let d = t.dtype();
    let num = |v: f64| -> Json {
        if v.is_nan() {
            Json::from("nan")
        } else {
            Json::from(v)
        }
    };
    if d == DType::U64 {
        return t
            .to_vec::<u64>()
            .unwrap()
            .into_iter()
            .map(Json::from)
            .collect();
    }
    if d.is_int() {
        let v = t.view().to_dtype(DType::I64).unwrap();
        return v
            .to_vec::<i64>()
            .unwrap()
            .into_iter()
            .map(Json::from)
            .collect();
    }
    if d.is_complex() {
        let v = t.view().to_dtype(DType::C128).unwrap();
        return v
            .to_vec::<Complex<f64>>()
            .unwrap()
            .into_iter()
            .map(|z| Json::from(vec![num(z.re), num(z.im)]))
            .collect();
    }
    let v = t.view().to_dtype(DType::F64).unwrap();
    v.to_vec::<f64>().unwrap().into_iter().map(num).collect()
}

fn check(what: &str, t: &StoredTensor, want: &Json, strides: bool) {
    assert_eq!(
        t.dtype().name(),
        want["dtype"].as_str().unwrap(),
        "{what}: dtype"
    );
    let shape: Vec<usize> = serde_json::from_value(want["shape"].clone()).unwrap();
    assert_eq!(t.shape(), shape.as_slice(), "{what}: shape");
    if strides {
        let s: Vec<isize> = serde_json::from_value(want["strides"].clone()).unwrap();
        assert_eq!(t.strides(), s.as_slice(), "{what}: strides");
    }
    assert_eq!(
        &exact(t),
        want["values_flat"].as_array().unwrap(),
        "{what}: values"
    );
}

#[test]
fn a_checkpoint_of_every_new_dtype_reads_exactly_and_writes_back() {
    let json = expected("torch", "new_dtypes.pt");
    assert!(json["torch_load"]["ok"].as_bool().unwrap());
    let ckpt = torch::load(fixture("torch", "new_dtypes.pt")).unwrap();
    let again = torch::load_bytes(&torch::to_bytes(ckpt.value()).unwrap()).unwrap();
    for (key, want) in json["tensors"].as_object().unwrap() {
        check(
            &format!("torch {key}"),
            ckpt.tensor(key).unwrap(),
            want,
            true,
        );
        check(
            &format!("torch again {key}"),
            again.tensor(key).unwrap(),
            want,
            true,
        );
    }
    let (u, t) = (again.tensor("u16").unwrap(), again.tensor("u16_t").unwrap());
    assert!(
        t.shares_storage_with(u),
        "the transposed view shares its storage"
    );
}

#[test]
fn a_safetensors_file_of_every_new_dtype_reads_exactly_and_writes_back() {
    let json = expected("safetensors", "new_dtypes.safetensors");
    assert!(json["load_file"]["ok"].as_bool().unwrap());
    let file = safetensors::load(fixture("safetensors", "new_dtypes.safetensors")).unwrap();
    let refs: Vec<(&str, _)> = file.iter().map(|(k, t)| (k, t.view())).collect();
    let again = safetensors::load_bytes(&safetensors::to_bytes(&refs, &[]).unwrap()).unwrap();
    for (key, want) in json["tensors"].as_object().unwrap() {
        check(
            &format!("safetensors {key}"),
            file.tensor(key).unwrap(),
            want,
            true,
        );
        check(
            &format!("safetensors again {key}"),
            again.tensor(key).unwrap(),
            want,
            true,
        );
    }
    assert_eq!(file.unsupported().count(), 0);
}

#[test]
fn an_npz_of_the_new_dtypes_numpy_has_reads_exactly_and_writes_back() {
    let json = expected("npy", "new_dtypes.npz");
    let file = npz::load(fixture("npy", "new_dtypes.npz")).unwrap();
    let refs: Vec<(&str, _)> = file.iter().map(|(k, t)| (k, t.view())).collect();
    let again = npz::load_bytes(&npz::to_bytes(&refs, true).unwrap()).unwrap();
    for (key, want) in json["arrays"].as_object().unwrap() {
        check(
            &format!("npz {key}"),
            file.tensor(key).unwrap(),
            want,
            false,
        );
        check(
            &format!("npz again {key}"),
            again.tensor(key).unwrap(),
            want,
            false,
        );
    }
}

#[test]
fn an_hdf5_file_of_the_new_dtypes_h5py_writes_reads_exactly_and_writes_back() {
    let json = expected("hdf5", "new_dtypes.h5");
    let file = hdf5::open(fixture("hdf5", "new_dtypes.h5")).unwrap();
    let mut w = hdf5::H5Writer::new();
    for (key, want) in json["datasets"].as_object().unwrap() {
        let t = file.dataset(key).unwrap().read().unwrap();
        check(&format!("hdf5 {key}"), &t, want, false);
        w.dataset(key, &t.view(), hdf5::Layout::Contiguous).unwrap();
    }
    let again = hdf5::open_bytes(&w.to_bytes().unwrap()).unwrap();
    for (key, want) in json["datasets"].as_object().unwrap() {
        let t = again.dataset(key).unwrap().read().unwrap();
        check(&format!("hdf5 again {key}"), &t, want, false);
    }
}
