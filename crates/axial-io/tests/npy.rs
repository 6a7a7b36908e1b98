//! Every `.npy` and `.npz` fixture reads as its `.json` says (dtype, shape,
//! values in logical order, Fortran order as a transposed view), or fails
//! as numpy's loader does, before allocating; files axial writes read back.

mod common;

use axial_core::{DType, RawTensor};
use axial_io::{Error, ErrorKind, TensorMap, npy, npz};
use common::{check_values, expected, fixture, fixtures, flat_numbers, usizes};

fn npy_dtype(descr: &str) -> DType {
    match &descr[1..] {
        "b1" => DType::Bool,
        "u1" => DType::U8,
        "i1" => DType::I8,
        "i2" => DType::I16,
        "i4" => DType::I32,
        "i8" => DType::I64,
        "f2" => DType::F16,
        "f4" => DType::F32,
        "f8" => DType::F64,
        other => panic!("unexpected descr {other}"),
    }
}

#[test]
fn every_valid_npy_fixture_reads_as_numpy_loads_it() {
    let names: Vec<String> = fixtures("npy", "")
        .into_iter()
        .filter(|n| {
            n.ends_with(".npy") && !n.starts_with("corrupt_") && !n.starts_with("unsupported_")
        })
        .collect();
    assert_eq!(names.len(), 12);
    for name in names {
        let json = expected("npy", &name);
        let t = npy::load(fixture("npy", &name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            t.dtype(),
            npy_dtype(json["descr"].as_str().unwrap()),
            "{name}"
        );
        assert_eq!(t.shape(), usizes(&json["shape"]), "{name}");
        let itemsize = json["itemsize"].as_u64().unwrap() as isize;
        let strides: Vec<isize> = json["loaded_strides_bytes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_i64().unwrap() as isize / itemsize)
            .collect();
        if t.numel() > 1 {
            assert_eq!(t.strides(), strides, "{name}: strides as numpy's");
        }
        check_values(&name, &t, &json);
        if json["descr"].as_str().unwrap().starts_with('<') && t.numel() > 0 {
            assert_eq!(
                t.storage().data_ptr() % 64,
                0,
                "{name}: zero-copy, 64-aligned"
            );
        }
    }
}

#[test]
fn every_damaged_npy_fixture_fails_with_numpys_reason() {
    for name in fixtures("npy", "corrupt_")
        .into_iter()
        .filter(|n| n.ends_with(".npy"))
    {
        let json = expected("npy", &name);
        let error = npy::load(fixture("npy", &name)).unwrap_err();
        let err = error.to_string();
        let reference = json["numpy_load"]["message"].as_str().unwrap();
        let kind = if name.starts_with("corrupt_truncated_") {
            ErrorKind::Truncated
        } else {
            ErrorKind::Corrupt
        };
        match name.as_str() {
            // numpy allocates 4 TiB first; axial refuses before allocating.
            "corrupt_shape_too_big.npy" => assert_eq!(
                (err.as_str(), error.kind()),
                (
                    "npy: Failed to read all data for array. Expected (1099511627776,) = 1099511627776 elements, could only read 6 elements. (file seems not fully written?)",
                    ErrorKind::Truncated
                )
            ),
            // numpy refuses unless asked to unpickle; axial has no dtype of
            // Python objects at all.
            "corrupt_object_dtype.npy" => assert!(
                matches!(&error, Error::UnsupportedDType { key: None, dtype, .. } if dtype == "object"),
                "{err}"
            ),
            _ => assert_eq!(
                (err, error.kind()),
                (format!("npy: {reference}"), kind),
                "{name}"
            ),
        }
    }
}

/// An `.npy` of header `dict` and no data.
fn header_only(dict: &str) -> Vec<u8> {
    let mut h = b"\x93NUMPY\x01\x00".to_vec();
    h.extend_from_slice(&(dict.len() as u16 + 1).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h.push(b'\n');
    h
}

#[test]
fn shapes_whose_element_count_overflows_are_refused() {
    let huge = header_only(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }",
    );
    let err = npy::load_bytes(&huge).unwrap_err().to_string();
    assert!(err.contains("more elements than memory"), "{err}");
    let neg = header_only("{'descr': '<f4', 'fortran_order': False, 'shape': (-6,), }");
    assert_eq!(
        npy::load_bytes(&neg).unwrap_err().to_string(),
        "npy: shape is not valid: (-6,)"
    );
    let fortran = header_only("{'descr': '<f4', 'fortran_order': 1, 'shape': (0,), }");
    assert_eq!(
        npy::load_bytes(&fortran).unwrap_err().to_string(),
        "npy: fortran_order is not a valid bool: 1"
    );
    let empty = npy::load_bytes(&header_only(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }",
    ))
    .unwrap();
    assert_eq!(empty.shape(), &[0, 3]);
}

#[test]
fn every_npz_fixture_reads_and_the_truncated_one_fails() {
    for name in ["arrays_stored.npz", "arrays_compressed.npz"] {
        let json = expected("npy", name);
        let file = npz::load(fixture("npy", name)).unwrap();
        let keys: Vec<&str> = file.keys().collect();
        let want: Vec<&str> = json["np_load_files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap())
            .collect();
        assert_eq!(keys, want, "{name}");
        for (key, entry) in json["arrays"].as_object().unwrap() {
            let t = file.tensor(key).unwrap();
            assert_eq!(t.shape(), usizes(&entry["shape"]), "{name}/{key}");
            check_values(&format!("{name}/{key}"), t, entry);
        }
    }
    let err = npz::load(fixture("npy", "corrupt_truncated.npz"))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("npz: File is not a zip file"), "{err}");
}

#[test]
fn a_damaged_member_fails_its_crc_as_in_numpy() {
    let x = RawTensor::arange(0.0, 4.0, 1.0, DType::F32).unwrap();
    let mut bytes = npz::to_bytes(&[("w", x.view())], false).unwrap();
    let at = bytes.len() / 3 + 100; // inside the member's data
    let at = (0..bytes.len())
        .find(|&i| i > 128 && bytes[i..].starts_with(&1.0f32.to_le_bytes()))
        .unwrap_or(at);
    bytes[at + 1] ^= 0xff;
    assert_eq!(
        npz::load_bytes(&bytes).unwrap_err().to_string(),
        "npz: Bad CRC-32 for file 'w.npy'"
    );
}

#[test]
fn written_arrays_read_back_in_every_dtype_and_order() {
    for dtype in DType::ALL.into_iter().filter(|&d| d != DType::BF16) {
        let x = RawTensor::arange(0.0, 6.0, 1.0, dtype).unwrap();
        let m = x.view().view(&[2, 3]).unwrap();
        for view in [m.clone(), m.t().unwrap(), m.narrow(1, 1, 2).unwrap()] {
            let back = npy::load_bytes(&npy::to_bytes(&view).unwrap()).unwrap();
            assert_eq!(back.shape(), view.shape());
            let want = axial_io::StoredTensor::from_raw(view.to_contiguous().unwrap());
            assert_eq!(common::values(&back), common::values(&want), "{dtype}");
        }
    }
    let bytes = npy::to_bytes(
        &RawTensor::arange(0.0, 6.0, 1.0, DType::F32)
            .unwrap()
            .view()
            .view(&[2, 3])
            .unwrap()
            .t()
            .unwrap(),
    )
    .unwrap();
    assert!(
        String::from_utf8_lossy(&bytes[..128]).contains("'fortran_order': True, 'shape': (3, 2)")
    );
    let (a, b) = (
        RawTensor::zeros(&[2, 3], DType::F64).unwrap(),
        RawTensor::zeros(&[5], DType::Bool).unwrap(),
    );
    for compressed in [false, true] {
        let file = npz::load_bytes(
            &npz::to_bytes(&[("a", a.view()), ("b", b.view())], compressed).unwrap(),
        )
        .unwrap();
        assert_eq!(file.tensor("a").unwrap().shape(), &[2, 3]);
        assert_eq!(file.tensor("b").unwrap().dtype(), DType::Bool);
    }
}

/// Found by the `npz` fuzz target: a 600-byte archive whose deflated member
/// claims about 4 GiB of compressed bytes (and so, by the 1032:1 bound, could
/// claim 4 TiB of output). The reader allocated the claimed size before
/// reading; it now refuses a compressed size the archive does not hold.
#[test]
fn a_member_claiming_more_compressed_bytes_than_the_archive_holds_is_refused() {
    let bytes = include_bytes!("data/npz_claims_4gb_compressed.npz");
    let err = axial_io::npz::load_bytes(bytes).unwrap_err().to_string();
    assert!(
        err.contains("compressed bytes where the archive holds"),
        "{err}"
    );
}

/// numpy reads the header it is told of before judging its length: a file
/// cut anywhere before its data is reported as cut, in numpy's words.
#[test]
fn a_file_cut_anywhere_is_reported_as_truncated() {
    let x = RawTensor::arange(0.0, 6.0, 1.0, DType::F32).unwrap();
    let bytes = npy::to_bytes(&x.view()).unwrap();
    for cut in 1..bytes.len() {
        let err = npy::load_bytes(&bytes[..cut]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Truncated, "{cut}: {err}");
    }
    assert_eq!(
        npy::load_bytes(&bytes[..50]).unwrap_err().to_string(),
        "npy: EOF: reading array header, expected 118 bytes got 40"
    );
    // A header longer than numpy's limit: cut, it is cut; whole, too long.
    let dict = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }}{}",
        " ".repeat(20_000)
    );
    let long = header_only(&dict);
    assert_eq!(
        npy::load_bytes(&long[..100]).unwrap_err().to_string(),
        "npy: EOF: reading array header, expected 20058 bytes got 90"
    );
    let err = npy::load_bytes(&long).unwrap_err();
    assert_eq!(
        (err.kind(), err.to_string()),
        (
            ErrorKind::Corrupt,
            "npy: Header info length (20058) is large and may not be safe to load securely.".into()
        )
    );
}

#[test]
fn an_npy_of_uint16_or_complex64_reads_exactly_and_writes_back() {
    for name in ["unsupported_u2.npy", "unsupported_c8.npy"] {
        let json = expected("npy", name);
        assert!(
            json["np_load"]["ok"].as_bool().unwrap(),
            "numpy reads {name}"
        );
        let t = npy::load(fixture("npy", name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.dtype().name(), json["dtype"].as_str().unwrap(), "{name}");
        assert_eq!(t.shape(), usizes(&json["shape"]), "{name}");
        let values = flat_numbers(&json["values_flat"]);
        assert_eq!(common::values(&t), values, "{name}");
        let back = npy::load_bytes(&npy::to_bytes(&t.view()).unwrap()).unwrap();
        assert_eq!(common::values(&back), values, "{name}");
    }
}

/// An `.npz` with uint16, big-endian uint32 and complex64 arrays beside
/// float32 and int64 ones: every array reads with numpy's values, shapes
/// and dtypes (the big-endian one in native order).
#[test]
fn an_npz_with_uint16_uint32_and_complex64_arrays_reads_them_exactly() {
    for name in [
        "unsupported_dtypes.npz",
        "unsupported_dtypes_compressed.npz",
    ] {
        let json = expected("npy", name);
        let file = npz::load(fixture("npy", name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want: Vec<&str> = json["np_load_files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap())
            .collect();
        assert_eq!(file.keys().collect::<Vec<_>>(), want, "{name}");
        for (key, entry) in json["arrays"].as_object().unwrap() {
            let t = file
                .tensor(key)
                .unwrap_or_else(|e| panic!("{name}/{key}: {e}"));
            assert_eq!(
                t.dtype().name(),
                entry["dtype"].as_str().unwrap(),
                "{name}/{key}"
            );
            assert_eq!(t.shape(), usizes(&entry["shape"]), "{name}/{key}");
            assert_eq!(
                common::values(t),
                flat_numbers(&entry["values_flat"]),
                "{name}/{key}"
            );
        }
        assert_eq!(file.unsupported().count(), 0, "{name}");
        assert_eq!(file.iter().count(), 5, "{name}");
    }
}
