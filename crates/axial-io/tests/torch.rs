//! Every torch fixture reads as its `.json` says (the value tree, each
//! tensor's dtype, sizes, strides, offset and values, and which tensors
//! share a storage), is refused as `torch.load(weights_only=True)` refuses
//! it, or fails as a damaged file; checkpoints axial writes read back.

mod common;

use std::collections::HashMap;

use axial::prelude::*;
use axial_core::{DType, Layout, RawTensor};
use axial_io::{DictKind, Error, ErrorKind, StoredTensor, TensorMap, Value, torch};
use common::{
    check_values, dtype, expected, fixture, fixtures, flat_numbers, isizes, number, usizes,
};
use serde_json::Value as Json;

/// Checks a value against the fixture's description of it; records each
/// tensor's storage group (equal groups must share a storage).
fn check(path: &str, got: &Value, want: &Json, groups: &mut Vec<(i64, StoredTensor)>) {
    let kind = want["type"].as_str().unwrap();
    match (kind, got) {
        ("dict" | "OrderedDict", Value::Dict(d)) => {
            let k = if kind == "dict" {
                DictKind::Dict
            } else {
                DictKind::OrderedDict
            };
            assert_eq!(d.kind, k, "{path}: kind");
            let items = want["items"].as_array().unwrap();
            assert_eq!(d.items.len(), items.len(), "{path}: length");
            for (i, ((gk, gv), pair)) in d.items.iter().zip(items).enumerate() {
                check(&format!("{path}.key{i}"), gk, &pair[0], groups);
                check(&format!("{path}.{gk}"), gv, &pair[1], groups);
            }
        }
        ("list", Value::List(xs)) | ("tuple", Value::Tuple(xs)) | ("set", Value::Set(xs)) => {
            let items = want["items"].as_array().unwrap();
            assert_eq!(xs.len(), items.len(), "{path}: length");
            for (i, (x, w)) in xs.iter().zip(items).enumerate() {
                check(&format!("{path}[{i}]"), x, w, groups);
            }
        }
        ("str", Value::Str(s)) => assert_eq!(s, want["value"].as_str().unwrap(), "{path}"),
        ("int", Value::Int(i)) => {
            let w = &want["value"];
            match w.as_i64() {
                Some(w) => assert_eq!(*i, i128::from(w), "{path}"),
                // Past i64 the JSON number is a float (2**70 is exact in one).
                None => assert_eq!(*i as f64, w.as_f64().unwrap(), "{path}"),
            }
        }
        ("float", Value::Float(f)) => assert_eq!(*f, number(&want["value"]), "{path}"),
        ("bool", Value::Bool(b)) => assert_eq!(*b, want["value"].as_bool().unwrap(), "{path}"),
        ("None", Value::None) => {}
        ("bytes", Value::Bytes(b)) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            assert_eq!(hex, want["hex"].as_str().unwrap(), "{path}");
        }
        ("complex", Value::Complex(re, im)) => {
            assert_eq!(
                [*re, *im],
                [number(&want["value"][0]), number(&want["value"][1])],
                "{path}"
            )
        }
        ("torch.Size", Value::Size(s)) => {
            let w: Vec<i64> = want["value"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            assert_eq!(s, &w, "{path}");
        }
        ("torch.device", Value::Device(d)) => {
            assert_eq!(d, want["value"].as_str().unwrap(), "{path}")
        }
        ("global", Value::DType(name) | Value::Global(name)) => {
            assert_eq!(name, want["name"].as_str().unwrap(), "{path}")
        }
        ("Parameter", Value::Tensor(t)) => {
            assert!(t.parameter, "{path}: a parameter");
            assert_eq!(
                t.requires_grad,
                want["loaded_requires_grad"].as_bool().unwrap(),
                "{path}"
            );
            check(
                path,
                &Value::tensor(t.tensor.clone()),
                &want["data"],
                groups,
            );
        }
        ("tensor", Value::Tensor(t)) => {
            let s = &t.tensor;
            assert_eq!(
                s.dtype(),
                dtype(want["dtype"].as_str().unwrap()),
                "{path}: dtype"
            );
            assert_eq!(s.shape(), usizes(&want["loaded_shape"]), "{path}: shape");
            assert_eq!(
                s.strides(),
                isizes(&want["loaded_stride"]),
                "{path}: strides"
            );
            assert_eq!(
                s.offset() as u64,
                want["loaded_storage_offset"].as_u64().unwrap(),
                "{path}: offset"
            );
            assert_eq!(
                s.storage().nbytes() as u64,
                want["storage_nbytes"].as_u64().unwrap(),
                "{path}: storage"
            );
            assert_eq!(
                t.requires_grad,
                want["requires_grad"].as_bool().unwrap(),
                "{path}: requires_grad"
            );
            check_values(path, s, want);
            if let Some(g) = want["loaded_storage_group"].as_i64() {
                groups.push((g, s.clone()));
            }
        }
        ("tensor", Value::Foreign(t)) => {
            assert_eq!(t.dtype, want["dtype"].as_str().unwrap(), "{path}: dtype");
            assert_eq!(t.shape, usizes(&want["loaded_shape"]), "{path}: shape");
            assert_eq!(
                t.storage.nbytes() as u64,
                want["storage_nbytes"].as_u64().unwrap(),
                "{path}"
            );
            // The raw bytes hold the values: check the unsigned ones little-endian.
            let w: Vec<u64> = want["values_flat"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            let got: Vec<u64> = t
                .storage
                .as_bytes()
                .chunks_exact(t.element_size)
                .map(|c| c.iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b)))
                .collect();
            assert_eq!(got, w, "{path}: values");
        }
        (kind, got) => panic!("{path}: expected {kind}, got {got}"),
    }
}

/// Tensors in one storage group share a storage; tensors of two groups do not.
fn check_sharing(name: &str, groups: &[(i64, StoredTensor)]) {
    for (i, (ga, a)) in groups.iter().enumerate() {
        for (gb, b) in &groups[i + 1..] {
            assert_eq!(
                ga == gb,
                a.shares_storage_with(b),
                "{name}: groups {ga} and {gb}"
            );
        }
    }
}

#[test]
fn every_valid_fixture_reads_as_torch_loads_it() {
    let names: Vec<String> = fixtures("torch", "")
        .into_iter()
        .filter(|n| {
            // new_dtypes.pt has its own test (tests/new_dtypes.rs).
            !n.starts_with("corrupt_")
                && !n.starts_with("unsupported_")
                && !n.starts_with("new_")
                && n != "custom_class.pt"
        })
        .collect();
    assert_eq!(names.len(), 9);
    for name in names {
        let json = expected("torch", &name);
        let ckpt = torch::load(fixture("torch", &name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut groups = Vec::new();
        check(&name, ckpt.value(), &json["object"], &mut groups);
        check_sharing(&name, &groups);
    }
}

/// torch names the archive's folder after the file, so the first entry of
/// the central directory grows with the name; with a 21-character name it
/// is 76 bytes, as long as the zip64 records torch writes before the end
/// record, and a reader that takes the directory to end at the end record
/// started reading it at its second entry.
#[test]
fn checkpoints_under_every_archive_name_length_read_as_torch_loads_them() {
    let json = expected("torch", "archive_names");
    let files = json["files"].as_array().unwrap();
    let lengths: Vec<u64> = files
        .iter()
        .map(|f| f["name_length"].as_u64().unwrap())
        .collect();
    assert!((1..=64).all(|n| lengths.contains(&n)), "{lengths:?}");
    let mut failures = Vec::new();
    for f in files {
        let name = f["file"].as_str().unwrap();
        let path = fixture("torch", &format!("archive_names/{name}"));
        let want: Vec<f32> = f["w"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| number(v) as f32)
            .collect();
        let bytes = std::fs::read(&path).unwrap();
        for (how, result) in [
            ("load", torch::load(&path)),
            ("load_bytes", torch::load_bytes(&bytes)),
        ] {
            match result.and_then(|c| c.tensor("w")?.to_vec::<f32>()) {
                Ok(got) => assert_eq!(got, want, "{name} ({how})"),
                Err(e) => failures.push(format!("{name} ({how}): {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A checkpoint with complex64, uint16 and float8 tensors beside float32
/// and int64 ones: every tensor reads with torch's values, shapes and
/// dtypes, and written again by axial it reads back the same.
#[test]
fn a_checkpoint_with_complex64_uint16_and_float8_tensors_reads_them_exactly() {
    let name = "unsupported_dtypes.pt";
    let json = expected("torch", name);
    assert!(
        json["torch_load_weights_only_True"]["ok"]
            .as_bool()
            .unwrap()
    );
    let ckpt = torch::load(fixture("torch", name)).unwrap();
    let again = torch::load_bytes(&torch::to_bytes(ckpt.value()).unwrap()).unwrap();
    for (key, entry) in json["tensors"].as_object().unwrap() {
        let values = flat_numbers(&entry["values_flat"]);
        for c in [&ckpt, &again] {
            let t = c.tensor(key).unwrap();
            assert_eq!(t.dtype().name(), entry["dtype"].as_str().unwrap(), "{key}");
            assert_eq!(t.shape(), usizes(&entry["shape"]), "{key}");
            assert_eq!(common::values(t), values, "{key}");
        }
    }
    assert_eq!(
        ckpt.tensor("nothing").unwrap_err().kind(),
        ErrorKind::NotFound
    );
}

#[test]
fn the_views_of_shared_views_pt_are_views_of_one_storage() {
    let ckpt = torch::load(fixture("torch", "shared_views.pt")).unwrap();
    let base = ckpt.tensor("base").unwrap();
    for key in ["transposed", "window", "row2", "every_other_col"] {
        assert!(ckpt.tensor(key).unwrap().shares_storage_with(base), "{key}");
    }
    let t = ckpt.tensor("transposed").unwrap();
    assert_eq!(
        (t.shape(), t.strides(), t.offset()),
        (&[4, 3][..], &[1, 4][..], 0)
    );
    let w = ckpt.tensor("window").unwrap();
    assert_eq!(
        (w.shape(), w.strides(), w.offset()),
        (&[2, 2][..], &[4, 1][..], 5)
    );
    let e = ckpt.tensor("expanded").unwrap();
    assert_eq!(e.strides(), &[0, 1]);
    assert!(!e.shares_storage_with(base));
    // One storage for all five, so one 48-byte record: a zero-copy view of the mapping.
    assert_eq!(base.storage().nbytes(), 48);
    // Typed, they still share: a write to a copy-on-write clone does not show in the others.
    axes!(Rows, Cols);
    let typed_t = ckpt
        .typed::<f32, shape![Cols: 4, Rows: 3]>("transposed")
        .unwrap();
    let typed_b = ckpt.typed::<f32, shape![Rows: 3, Cols: 4]>("base").unwrap();
    assert!(typed_t.shares_storage_with(&typed_b));
    assert_eq!(typed_t.get([1, 2]), typed_b.get([2, 1]));
}

#[test]
fn the_chapter_checkpoint_and_its_legacy_twin_hold_the_same_values() {
    axes!(Rows, Cols);
    let zip = torch::load(fixture("torch", "chapter_checkpoint.pt")).unwrap();
    let legacy = torch::load(fixture("torch", "legacy_checkpoint.pt")).unwrap();
    for ckpt in [&zip, &legacy] {
        assert_eq!(ckpt.keys(), ["model_weights", "epoch", "learning_rate"]);
        assert_eq!(ckpt.value().get("epoch").and_then(Value::as_int), Some(10));
        assert_eq!(
            ckpt.value().get("learning_rate").and_then(Value::as_float),
            Some(1e-3)
        );
    }
    let a = zip
        .typed::<f32, shape![Rows: 4, Cols: 4]>("model_weights")
        .unwrap();
    let b = legacy
        .typed::<f32, shape![Rows: 4, Cols: 4]>("model_weights")
        .unwrap();
    assert_eq!(a.to_vec(), b.to_vec());
    let err = zip
        .typed::<f32, shape![Rows: 4, Cols: 3]>("model_weights")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "tensor `model_weights`: from_raw: expected a float32 tensor of shape (Rows: 4, Cols: 3), found a float32 tensor of shape [4, 4]"
    );
    let err = zip
        .typed::<i64, shape![Rows: 4, Cols: 4]>("model_weights")
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("expected a int64 tensor of shape (Rows: 4, Cols: 4), found a float32"),
        "{err}"
    );
}

#[test]
fn a_custom_class_is_refused_naming_the_global() {
    let err = torch::load(fixture("torch", "custom_class.pt")).unwrap_err();
    assert!(
        matches!(&err, Error::UnsupportedGlobal { global } if global == "__main__.TrainingConfig"),
        "{err}"
    );
    assert_eq!(err.kind(), ErrorKind::Refused);
    assert_eq!(
        err.to_string(),
        "torch: Weights only load failed: Unsupported global: GLOBAL __main__.TrainingConfig was not an allowed global by default"
    );
}

/// A zip checkpoint whose data.pkl is `pickle`, written with axial's writer
/// around it (the archive layout is torch's).
fn archive_with_pickle(pickle: &[u8]) -> Vec<u8> {
    let mut bytes = torch::to_bytes(&Value::None).unwrap();
    // The writer's pickle of None is `\x80\x02N.`; swap in ours by rewriting
    // through the zip crate.
    let reader = zip::ZipArchive::new(std::io::Cursor::new(&bytes)).unwrap();
    let names: Vec<String> = reader
        .file_names()
        .map(|n| n.unwrap().to_string())
        .collect();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut reader = reader;
    for name in names {
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut reader.by_name(&name).unwrap(), &mut data).unwrap();
        if name.ends_with("data.pkl") {
            data = pickle.to_vec();
        }
        out.start_file(
            name,
            zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated),
        )
        .unwrap();
        std::io::Write::write_all(&mut out, &data).unwrap();
    }
    bytes = out.finish().unwrap().into_inner();
    bytes
}

#[test]
fn a_whole_pickled_module_and_code_are_refused() {
    // torch.save(nn.Linear(2, 2)): the pickle starts with the module's class.
    let module = b"\x80\x02ctorch.nn.modules.linear\nLinear\nq\x00)\x81q\x01}b.";
    let err = torch::load_bytes(&archive_with_pickle(module)).unwrap_err();
    assert!(
        matches!(&err, Error::UnsupportedGlobal { global } if global == "torch.nn.modules.linear.Linear"),
        "{err}"
    );
    let eval = b"\x80\x02c__builtin__\neval\nX\x01\x00\x00\x001\x85R.";
    let err = torch::load_bytes(&archive_with_pickle(eval)).unwrap_err();
    assert!(
        matches!(&err, Error::UnsupportedGlobal { global } if global == "eval"),
        "{err}"
    );
    let system = b"\x80\x02cos\nsystem\nX\x02\x00\x00\x00ls\x85R.";
    let err = torch::load_bytes(&archive_with_pickle(system)).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("Trying to load unsupported GLOBAL os.system whose module os is blocked.")
    );
    // Deflated records (Python's zipfile rewrites) are read too.
    let ok = torch::load_bytes(&archive_with_pickle(b"\x80\x02K\x07.")).unwrap();
    assert_eq!(ckpt_int(&ok), Some(7));
}

fn ckpt_int(c: &torch::Checkpoint) -> Option<i64> {
    c.value().as_int()
}

#[test]
fn every_damaged_fixture_is_an_error_except_the_crc_one_which_torch_loads_too() {
    let names = fixtures("torch", "corrupt_");
    assert_eq!(names.len(), 11);
    for name in names {
        let result = torch::load(fixture("torch", &name));
        if name == "corrupt_bad_crc.pt" {
            let json = expected("torch", &name);
            let want: Vec<f32> = json["torch_loaded_values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| number(v) as f32)
                .collect();
            assert_eq!(
                result
                    .unwrap()
                    .tensor("w")
                    .unwrap()
                    .to_vec::<f32>()
                    .unwrap(),
                want
            );
            continue;
        }
        let err = result.expect_err(&name);
        let message = err.to_string();
        let kind = match name.as_str() {
            "corrupt_truncated_pickle.pt"
            | "corrupt_empty_file.pt"
            | "corrupt_truncated_zip.pt" => ErrorKind::Truncated,
            "corrupt_bad_opcode.pt" => ErrorKind::Refused,
            _ => ErrorKind::Corrupt,
        };
        assert_eq!(err.kind(), kind, "{name}: {message}");
        let reference = expected("torch", &name)["torch_load_weights_only_True"]["message"]
            .as_str()
            .unwrap()
            .to_string();
        // The messages carry torch's own words where torch has them.
        let key = match name.as_str() {
            "corrupt_bad_opcode.pt" => "Unsupported operand 255",
            "corrupt_storage_too_short.pt" => {
                "record size (32 bytes) does not match expected size (64 bytes"
            }
            "corrupt_huge_size.pt" => "numel: integer multiplication overflow",
            "corrupt_huge_storage_numel.pt" => "expected size (9223372036854775808 bytes",
            "corrupt_missing_storage_record.pt" => "failed locating file data/7: file not found",
            "corrupt_negative_offset.pt" => "Tensor: invalid storage offset -1",
            "corrupt_view_out_of_bounds.pt" => "Trying to resize storage that is not resizable",
            "corrupt_truncated_pickle.pt" | "corrupt_empty_file.pt" => "EOFError",
            "corrupt_truncated_zip.pt" => "PytorchStreamReader failed reading zip archive",
            other => panic!("unexpected fixture {other}"),
        };
        assert!(
            message.contains(key),
            "{name}: {message}\n(torch: {reference})"
        );
    }
}

#[test]
fn written_checkpoints_keep_views_parameters_and_values() {
    let base = StoredTensor::from_raw(RawTensor::arange(0.0, 12.0, 1.0, DType::F32).unwrap());
    let m = base.with_layout(Layout::contiguous(&[3, 4])).unwrap();
    let t = m.with_layout(m.layout().t().unwrap()).unwrap();
    let w = m
        .with_layout(Layout::from_parts(&[2, 2], &[4, 1], 5))
        .unwrap();
    let mut bf = Value::tensor(StoredTensor::from_raw(
        RawTensor::arange(0.0, 3.0, 1.0, DType::BF16).unwrap(),
    ));
    if let Value::Tensor(p) = &mut bf {
        p.parameter = true;
        p.requires_grad = true;
    }
    let value = Value::dict([
        ("base", m.clone().into()),
        ("t", t.into()),
        ("w", w.into()),
        ("param", bf),
        ("big", Value::Int(5_000_000_000)),
        ("huge", Value::Int(1 << 70)),
        ("neg", Value::Int(-5)),
        (
            "names",
            Value::List(vec![
                Value::from("a"),
                Value::Tuple(vec![Value::Float(0.5), Value::None]),
            ]),
        ),
        ("blob", Value::Bytes(vec![0, 255, 97])),
        ("size", Value::Size(vec![2, 3])),
        ("dtype", Value::DType("torch.float16".into())),
        ("sd", Value::ordered_dict([("x", Value::Bool(true))])),
    ]);
    let back = torch::load_bytes(&torch::to_bytes(&value).unwrap()).unwrap();
    let (b, t, w) = (
        back.tensor("base").unwrap(),
        back.tensor("t").unwrap(),
        back.tensor("w").unwrap(),
    );
    assert!(b.shares_storage_with(t) && b.shares_storage_with(w));
    assert_eq!((t.strides(), w.offset()), (&[1, 4][..], 5));
    assert_eq!(w.to_vec::<f32>().unwrap(), vec![5.0, 6.0, 9.0, 10.0]);
    let Some(Value::Tensor(p)) = back.value().get("param") else {
        panic!()
    };
    assert!(p.parameter && p.requires_grad);
    assert_eq!(
        back.value()
            .get("huge")
            .map(|v| matches!(v, Value::Int(i) if *i == 1 << 70)),
        Some(true)
    );
    assert_eq!(
        back.value().get("big").and_then(Value::as_int),
        Some(5_000_000_000)
    );
    assert_eq!(back.value().get("neg").and_then(Value::as_int), Some(-5));
    assert_eq!(
        back.value().get("names").map(|v| v.to_string()).as_deref(),
        Some("['a', (0.5, None)]")
    );
    assert!(matches!(back.value().get("blob"), Some(Value::Bytes(b)) if b == &[0, 255, 97]));
    assert!(
        matches!(back.value().get("sd"), Some(Value::Dict(d)) if d.kind == DictKind::OrderedDict)
    );
    // Two dtypes over one storage cannot be saved (torch refuses too).
    let as_int = m.with_layout(Layout::contiguous(&[12])).unwrap();
    let int_view = StoredTensor::new(
        as_int.storage().clone(),
        Layout::contiguous(&[12]),
        DType::I32,
    )
    .unwrap();
    let err = torch::to_bytes(&Value::List(vec![m.into(), int_view.into()])).unwrap_err();
    assert!(
        err.to_string()
            .contains("view the same data as different types")
    );
}

#[test]
fn files_written_to_disk_are_named_after_the_file_and_aligned() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.v2.pt");
    let w = StoredTensor::from_raw(RawTensor::zeros(&[3], DType::F64).unwrap());
    torch::save(&path, &Value::dict([("w", w.into())])).unwrap();
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&path).unwrap()).unwrap();
    let names: Vec<String> = zip.file_names().map(|n| n.unwrap().to_string()).collect();
    assert!(
        names.contains(&"model.v2/data.pkl".to_string()),
        "{names:?}"
    );
    let start = zip
        .by_name("model.v2/data/0")
        .unwrap()
        .data_start()
        .unwrap();
    assert_eq!(start % 64, 0);
    let loaded = torch::load(&path).unwrap();
    let t = loaded.tensor("w").unwrap();
    assert_eq!(t.storage().data_ptr() % 64, 0, "zero-copy from the mapping");
    let _ = HashMap::<(), ()>::new();
}
