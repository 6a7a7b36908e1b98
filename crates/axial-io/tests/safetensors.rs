//! Every safetensors fixture reads as its `.json` says (dtypes, shapes,
//! values, `__metadata__`), or fails with `safetensors.torch.load_file`'s
//! message; files axial writes read back.

mod common;

use axial::prelude::*;
use axial_core::{DType, RawTensor};
use axial_io::{ErrorKind, TensorMap, safetensors};
use common::{check_values, dtype, expected, fixture, fixtures, flat_numbers, usizes};

#[test]
fn every_valid_fixture_reads_as_its_json_says() {
    let names: Vec<String> = fixtures("safetensors", "")
        .into_iter()
        // new_dtypes.safetensors has its own test (tests/new_dtypes.rs).
        .filter(|n| {
            !n.starts_with("corrupt_") && !n.starts_with("unsupported_") && !n.starts_with("new_")
        })
        .collect();
    assert_eq!(names.len(), 4);
    for name in names {
        let json = expected("safetensors", &name);
        let file = safetensors::load(fixture("safetensors", &name)).unwrap();
        let tensors = json["tensors"].as_object().unwrap();
        assert_eq!(file.len(), tensors.len(), "{name}");
        for (key, entry) in tensors {
            let t = file.tensor(key).unwrap();
            assert_eq!(
                t.dtype(),
                dtype(entry["dtype"].as_str().unwrap()),
                "{name}/{key}"
            );
            assert_eq!(t.shape(), usizes(&entry["shape"]), "{name}/{key}");
            check_values(&format!("{name}/{key}"), t, entry);
        }
        let metadata = json["safe_open_metadata"].as_object();
        let want: Vec<(String, String)> = metadata
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let mut want = want;
        want.sort();
        let got: Vec<(String, String)> = file
            .metadata()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(got, want, "{name}: metadata");
    }
}

#[test]
fn every_damaged_fixture_fails_with_the_reference_message() {
    let names = fixtures("safetensors", "corrupt_");
    assert_eq!(names.len(), 11);
    for name in names {
        let json = expected("safetensors", &name);
        let reference = json["safetensors_load_file"]["message"].as_str().unwrap();
        let err = safetensors::load(fixture("safetensors", &name)).unwrap_err();
        // A file shorter than its header says is cut short; the others are malformed.
        let kind = match name.as_str() {
            "corrupt_short_file.safetensors" | "corrupt_header_len_past_eof.safetensors" => {
                ErrorKind::Truncated
            }
            _ => ErrorKind::Corrupt,
        };
        assert_eq!(err.kind(), kind, "{name}: {err:?}");
        assert_eq!(
            err.to_string(),
            format!("safetensors: {reference}"),
            "{name}"
        );
    }
}

#[test]
fn aligned_tensors_are_views_of_the_mapping_and_misaligned_ones_copies() {
    let path = fixture("safetensors", "edge_misaligned_f32.safetensors");
    let file = safetensors::load(&path).unwrap();
    let b = file.tensor("b").unwrap();
    assert_eq!(b.to_vec::<f32>().unwrap(), vec![1.5, -2.0, 0.25]);
    assert_eq!(
        b.storage().data_ptr() % 4,
        0,
        "the misaligned f32s were copied"
    );
    // In the chapter's file the one tensor starts 8-aligned: it is not copied,
    // so it lies at its file offset inside one mapping of the file.
    let json = expected("safetensors", "chapter.safetensors");
    let file = safetensors::load(fixture("safetensors", "chapter.safetensors")).unwrap();
    let w = file.tensor("model_weights").unwrap();
    let start = json["tensors"]["model_weights"]["absolute_byte_range"][0]
        .as_u64()
        .unwrap();
    assert_eq!(start % 8, 0);
    assert_eq!(
        w.storage().data_ptr() % 4096,
        start as usize % 4096,
        "a view of the mapping"
    );
}

#[test]
fn the_typed_conversion_names_the_key_and_both_shapes() {
    axes!(Rows, Cols);
    let file = safetensors::load(fixture("safetensors", "chapter.safetensors")).unwrap();
    let m = file
        .typed::<f32, shape![Rows: 4, Cols: 4]>("model_weights")
        .unwrap();
    assert_eq!(m.get([0, 0]), -1.125_839_8);
    let err = file
        .typed::<f32, shape![Rows: 4, Cols: 3]>("model_weights")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "tensor `model_weights`: from_raw: expected a float32 tensor of shape (Rows: 4, Cols: 3), found a float32 tensor of shape [4, 4]"
    );
    let err = file
        .typed::<f64, shape![Rows: 4, Cols: 4]>("model_weights")
        .unwrap_err();
    assert!(
        err.to_string().contains("expected a float64 tensor"),
        "{err}"
    );
    let err = file
        .typed::<f32, shape![Rows: 4, Cols: 4]>("bias")
        .unwrap_err();
    assert_eq!(err.to_string(), "safetensors: no tensor `bias` in the file");
}

#[test]
fn written_files_read_back_with_metadata_and_every_dtype() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("all.safetensors");
    let tensors: Vec<(String, RawTensor)> = DType::ALL
        .iter()
        .map(|&d| {
            (
                d.name().to_string(),
                RawTensor::arange(0.0, 6.0, 1.0, d).unwrap(),
            )
        })
        .collect();
    let transposed = RawTensor::arange(0.0, 6.0, 1.0, DType::F32).unwrap();
    let m = transposed.view().view(&[2, 3]).unwrap().t().unwrap();
    let mut refs: Vec<(&str, axial_core::TensorRef<'_>)> = tensors
        .iter()
        .map(|(k, t)| (k.as_str(), t.view()))
        .collect();
    refs.push(("transposed", m));
    safetensors::save(&path, &refs, &[("format", "pt"), ("epoch", "10")]).unwrap();
    let file = safetensors::load(&path).unwrap();
    assert_eq!(file.len(), 11);
    assert_eq!(file.metadata()["epoch"], "10");
    for (key, t) in &tensors {
        let back = file.tensor(key).unwrap();
        assert_eq!(back.dtype(), t.dtype());
        let want = common::values(&axial_io::StoredTensor::from_raw(
            t.view().to_contiguous().unwrap(),
        ));
        assert_eq!(common::values(back), want, "{key}");
    }
    let t = file.tensor("transposed").unwrap();
    assert_eq!(t.shape(), &[3, 2]);
    assert_eq!(
        t.to_vec::<f32>().unwrap(),
        vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    );
    let dup = safetensors::to_bytes(&[("a", refs[0].1.clone()), ("a", refs[1].1.clone())], &[]);
    assert!(dup.unwrap_err().to_string().contains("share the key `a`"));
}

#[test]
fn a_loaded_tensor_can_be_written_without_touching_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.safetensors");
    let w = RawTensor::zeros(&[4], DType::F32).unwrap();
    safetensors::save(&path, &[("w", w.view())], &[]).unwrap();
    let before = std::fs::read(&path).unwrap();
    let file = safetensors::load(&path).unwrap();
    let mut typed = file.typed::<f32, shape![4]>("w").unwrap();
    typed.set([1], 5.0);
    assert_eq!(typed.to_vec(), vec![0.0, 5.0, 0.0, 0.0]);
    let mut storage = (**file.tensor("w").unwrap().storage()).try_clone().unwrap();
    storage.write_byte(0, 1).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// A file with uint16, complex64 and float8 tensors beside float32 and
/// int64 ones (written by safetensors from torch): every tensor reads, with
/// torch's values, shapes and dtypes.
#[test]
fn a_file_with_uint16_complex64_and_float8_tensors_reads_them_exactly() {
    let name = "unsupported_dtypes.safetensors";
    let json = expected("safetensors", name);
    assert!(json["load_file"]["ok"].as_bool().unwrap());
    let file = safetensors::load(fixture("safetensors", name)).unwrap();
    let tensors = json["tensors"].as_object().unwrap();
    assert_eq!(file.len(), tensors.len());
    assert_eq!(file.unsupported().count(), 0);
    for (key, entry) in tensors {
        let t = file.tensor(key).unwrap();
        assert_eq!(t.dtype().name(), entry["dtype"].as_str().unwrap(), "{key}");
        assert_eq!(t.shape(), usizes(&entry["shape"]), "{key}");
        assert_eq!(
            common::values(t),
            flat_numbers(&entry["values_flat"]),
            "{key}"
        );
    }
}

/// A file cut inside its tensors' bytes: the header is whole, the data short.
#[test]
fn a_file_cut_in_its_data_is_truncated_and_one_with_bytes_past_it_malformed() {
    let w = RawTensor::zeros(&[16], DType::F32).unwrap();
    let bytes = safetensors::to_bytes(&[("w", w.view())], &[]).unwrap();
    for cut in [1, 7, 9, bytes.len() / 2, bytes.len() - 1] {
        let err = safetensors::load_bytes(&bytes[..cut]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Truncated, "{cut}: {err}");
    }
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 4]);
    let err = safetensors::load_bytes(&longer).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Corrupt, "{err}");
}
