//! Every HDF5 fixture reads as its `.json` says (groups, datasets, dtypes,
//! shapes, values, h5py's slices, attributes, filters and fill values); the
//! truncated ones are refused at open; a hyperslab decodes only the chunks
//! it touches; files axial writes read back.

mod common;

use axial_core::{DType, RawTensor};
use axial_io::hdf5::{self, Attr, AttrValue, Compression, H5Writer, Layout, Select};
use axial_io::{ErrorKind, StoredTensor};
use common::{check_values, expected, fixture, number, usizes};
use serde_json::Value as Json;

/// A NumPy index expression (`[2:5, :]`, `[1, :, 1:3]`, `[3:5, ::3]`) as selections.
fn selections(expr: &str) -> Vec<Select> {
    expr.trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|part| {
            let part = part.trim();
            if !part.contains(':') {
                return Select::Index(part.parse().unwrap());
            }
            let mut it = part.split(':');
            let field = |s: Option<&str>, default: usize| {
                s.filter(|s| !s.is_empty())
                    .map_or(default, |s| s.parse().unwrap())
            };
            let (start, end, step) = (
                field(it.next(), 0),
                field(it.next(), usize::MAX),
                field(it.next(), 1),
            );
            if (start, end, step) == (0, usize::MAX, 1) {
                Select::All
            } else {
                Select::Range { start, end, step }
            }
        })
        .collect()
}

fn flat(v: &Json) -> Vec<f64> {
    match v {
        Json::Array(xs) => xs.iter().flat_map(flat).collect(),
        x => vec![number(x)],
    }
}

fn check_attr(what: &str, got: &Attr, want: &Json) {
    match (want["kind"].as_str().unwrap(), got) {
        ("str", Attr::Str(s)) => assert_eq!(s, want["value"].as_str().unwrap(), "{what}"),
        ("scalar", Attr::Tensor(t)) => {
            assert!(t.shape().is_empty(), "{what}: a scalar");
            assert_eq!(common::values(t), vec![number(&want["value"])], "{what}");
        }
        ("array", Attr::Tensor(t)) => {
            assert_eq!(t.shape(), usizes(&want["shape"]), "{what}");
            assert_eq!(common::values(t), flat(&want["values"]), "{what}");
        }
        (kind, got) => panic!("{what}: expected {kind}, got {got:?}"),
    }
}

/// A dataset's filters, compression, shuffle, fletcher32 and fill value
/// against h5py's (`filters_in_pipeline_order` holds ids and `cd_values`).
fn check_storage(what: &str, ds: &hdf5::Dataset, want: &Json) {
    let filters: Vec<(u64, Vec<u64>)> = want["filters_in_pipeline_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["id"].as_u64().unwrap(),
                usizes(&f["cd_values"])
                    .into_iter()
                    .map(|v| v as u64)
                    .collect(),
            )
        })
        .collect();
    let got: Vec<(u64, Vec<u64>)> = ds
        .filters()
        .iter()
        .map(|f| {
            (
                u64::from(f.id),
                f.client_data.iter().map(|&v| u64::from(v)).collect(),
            )
        })
        .collect();
    assert_eq!(got, filters, "{what}: filters");
    let compression = match (
        want["compression"].as_str(),
        want["compression_opts"].as_u64(),
    ) {
        (None, _) => None,
        (Some("gzip"), Some(level)) => Some(Compression::Gzip {
            level: level as u32,
        }),
        (Some("lzf"), _) => Some(Compression::Lzf),
        (other, _) => panic!("{what}: compression {other:?}"),
    };
    assert_eq!(ds.compression(), compression, "{what}: compression");
    assert_eq!(
        ds.shuffle(),
        want["shuffle"].as_bool().unwrap(),
        "{what}: shuffle"
    );
    assert_eq!(
        ds.fletcher32(),
        want["fletcher32"].as_bool().unwrap(),
        "{what}: fletcher32"
    );
    let fill = ds.fill_value().unwrap();
    assert!(fill.shape().is_empty(), "{what}: a 0-d fill value");
    assert_eq!(fill.dtype(), ds.dtype().unwrap(), "{what}: fill dtype");
    // A complex fill value is [re, im].
    let fill_want: Vec<f64> = match &want["fillvalue"] {
        Json::Array(parts) => parts.iter().map(number).collect(),
        v => vec![number(v)],
    };
    assert_eq!(common::values(&fill), fill_want, "{what}: fill value");
}

#[test]
fn every_fixture_reads_as_h5py_reads_it() {
    for name in ["chapter_features.h5", "datasets.h5"] {
        let json = expected("hdf5", name);
        let file = hdf5::open(fixture("hdf5", name)).unwrap();
        let mut datasets = Vec::new();
        for object in json["objects"].as_array().unwrap() {
            let path = object["path"].as_str().unwrap();
            let attrs = object["attrs"].as_object().unwrap();
            let got_attrs = if object["kind"] == "group" {
                let mut members: Vec<String> = file.groups(path).unwrap();
                members.extend(file.datasets(path).unwrap());
                members.sort();
                let want: Vec<String> = object["members"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_string())
                    .collect();
                assert_eq!(members, want, "{name}{path}");
                file.group_attributes(path).unwrap()
            } else {
                datasets.push(path.to_string());
                let ds = file.dataset(path).unwrap();
                assert_eq!(ds.shape(), usizes(&object["shape"]), "{name}{path}");
                assert_eq!(
                    ds.chunks(),
                    object["chunks"]
                        .as_array()
                        .map(|_| usizes(&object["chunks"])),
                    "{name}{path}"
                );
                let t = ds.read().unwrap();
                check_values(&format!("{name}{path}"), &t, object);
                check_storage(&format!("{name}{path}"), &ds, object);
                for (expr, want) in object["slices"].as_object().into_iter().flatten() {
                    let s = ds.read_slice(&selections(expr)).unwrap();
                    assert_eq!(s.shape(), usizes(&want["shape"]), "{name}{path}{expr}");
                    assert_eq!(
                        common::values(&s),
                        flat(&want["values"]),
                        "{name}{path}{expr}"
                    );
                }
                ds.attributes().unwrap()
            };
            assert_eq!(got_attrs.len(), attrs.len(), "{name}{path}: attributes");
            for (key, got) in &got_attrs {
                check_attr(&format!("{name}{path}@{key}"), got, &attrs[key]);
            }
        }
        datasets.sort();
        assert_eq!(file.walk().unwrap(), datasets, "{name}");
        for (key, want) in json["root_attrs"].as_object().unwrap() {
            let attrs = file.group_attributes("/").unwrap();
            let got = &attrs.iter().find(|(k, _)| k == key).unwrap().1;
            check_attr(&format!("{name}@{key}"), got, want);
        }
    }
}

#[test]
fn dtypes_map_to_axials() {
    let file = hdf5::open(fixture("hdf5", "datasets.h5")).unwrap();
    for (path, dtype) in [
        ("lzf_f64", DType::F64),
        ("shuffle_gzip_i32", DType::I32),
        ("volume_3d", DType::I16),
        ("ints_i64", DType::I64),
    ] {
        assert_eq!(
            file.dataset(path).unwrap().dtype().unwrap(),
            dtype,
            "{path}"
        );
    }
}

/// A file shorter than its superblock says is refused at open with h5py's
/// words, cut at a half or at three quarters (which used to open and fail
/// only when a read reached past the cut).
#[test]
fn a_file_cut_short_is_refused_at_open_as_h5py_refuses_it() {
    for name in [
        "corrupt_truncated.h5",
        "corrupt_truncated_three_quarters.h5",
    ] {
        let reference = expected("hdf5", name)["h5py_open"]["message"]
            .as_str()
            .unwrap()
            .to_string();
        // h5py: "Unable to synchronously open file (truncated file: ...)".
        let reason = reference
            .strip_prefix("Unable to synchronously open file (")
            .and_then(|r| r.strip_suffix(')'))
            .unwrap();
        let bytes = std::fs::read(fixture("hdf5", name)).unwrap();
        for result in [hdf5::open(fixture("hdf5", name)), hdf5::open_bytes(&bytes)] {
            let err = result.err().expect(name);
            assert_eq!(
                (err.kind(), err.to_string()),
                (ErrorKind::Truncated, format!("hdf5: {reason}")),
                "{name}"
            );
        }
    }
    let whole = std::fs::read(fixture("hdf5", "datasets.h5")).unwrap();
    for cut in (8..whole.len()).step_by(97) {
        let err = hdf5::open_bytes(&whole[..cut]).err().unwrap();
        assert_eq!(err.kind(), ErrorKind::Truncated, "{cut}: {err}");
    }
    // From disk, where the reader fails before the superblock is checked
    // (30 and 60 bytes: inside the superblock, before or after its
    // end-of-file address; 2000: before the root group).
    let dir = tempfile::tempdir().unwrap();
    for cut in [30, 60, 2000, whole.len() - 1] {
        let path = dir.path().join(format!("cut_{cut}.h5"));
        std::fs::write(&path, &whole[..cut]).unwrap();
        let err = hdf5::open(&path).err().unwrap();
        assert_eq!(err.kind(), ErrorKind::Truncated, "{cut}: {err}");
        if cut >= 2000 {
            assert_eq!(
                err.to_string(),
                format!(
                    "hdf5: truncated file: eof = {cut}, sblock->base_addr = 0, stored_eof = {}",
                    whole.len()
                )
            );
        }
    }
}

/// Filters (gzip with shuffle, LZF, fletcher32), fill values (rows never
/// written, a dataset never written) and uint16 and complex64 datasets (the
/// latter h5py's `{r, i}` compound), in a file h5py wrote: every dataset
/// reads as h5py reads it.
#[test]
fn filters_fill_values_and_uint16_and_complex64_are_as_h5py_sees_them() {
    let name = "filters_fill.h5";
    let json = expected("hdf5", name);
    let file = hdf5::open(fixture("hdf5", name)).unwrap();
    for (path, want) in json["datasets"].as_object().unwrap() {
        let ds = file.dataset(path).unwrap();
        assert_eq!(ds.shape(), usizes(&want["shape"]), "{path}");
        let dtype = ds.dtype().unwrap_or_else(|e| panic!("{path}: {e}"));
        let numpy = match dtype {
            DType::U16 => "<u2",
            DType::C64 => "<c8",
            _ => want["dtype"].as_str().unwrap(),
        };
        assert_eq!(want["dtype"].as_str().unwrap(), numpy, "{path}");
        check_storage(path, &ds, want);
        let t = ds.read().unwrap();
        assert_eq!(common::values(&t), flat(&want["values_flat"]), "{path}");
        let names: Vec<&str> = want["filters_in_pipeline_order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        let got: Vec<&str> = ds.filters().iter().map(|f| f.name.as_str()).collect();
        assert_eq!(got, names, "{path}: filter names");
    }
    assert_eq!(
        file.dataset("missing").err().unwrap().kind(),
        ErrorKind::NotFound
    );
}

#[test]
fn a_hyperslab_decodes_only_the_chunks_it_touches() {
    // 10 × 10 in 2 × 10 gzip chunks; damage the last chunk's bytes in the file.
    let x = RawTensor::arange(0.0, 100.0, 1.0, DType::F32)
        .unwrap()
        .view()
        .view(&[10, 10])
        .unwrap()
        .to_contiguous()
        .unwrap();
    let mut w = H5Writer::new();
    w.dataset(
        "p",
        &x.view(),
        Layout::Chunked {
            chunks: vec![2, 10],
            gzip: Some(4),
            shuffle: false,
        },
    )
    .unwrap();
    let mut bytes = w.to_bytes().unwrap();
    // The last chunk (rows 8..10) is the deflate stream of its 80 bytes.
    let last: Vec<u8> = x
        .view()
        .narrow(0, 8, 2)
        .unwrap()
        .to_contiguous()
        .unwrap()
        .storage()
        .as_bytes()
        .to_vec();
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(4));
    std::io::Write::write_all(&mut enc, &last).unwrap();
    let stream = enc.finish().unwrap();
    let at = bytes
        .windows(stream.len())
        .position(|w| w == stream)
        .expect("the last chunk is in the file");
    for b in &mut bytes[at + 2..at + stream.len()] {
        *b = !*b;
    }
    let file = hdf5::open_bytes(&bytes).unwrap();
    let ds = file.dataset("p").unwrap();
    let rows = ds.read_slice(&[Select::from(2..5), Select::All]).unwrap();
    assert_eq!(rows.to_vec::<f32>().unwrap()[..3], [20.0, 21.0, 22.0]);
    assert!(
        ds.read().is_err(),
        "the whole read reaches the damaged chunk"
    );
    assert!(ds.read_slice(&[Select::from(7..9), Select::All]).is_err());
}

#[test]
fn written_files_read_back_with_every_dtype_layout_and_attribute() {
    let mut w = H5Writer::new();
    let dtypes: Vec<DType> = DType::ALL
        .into_iter()
        .filter(|d| !matches!(d, DType::F16 | DType::BF16))
        .collect();
    let tensors: Vec<RawTensor> = dtypes
        .iter()
        .map(|&d| {
            RawTensor::arange(0.0, 24.0, 1.0, d)
                .unwrap()
                .view()
                .view(&[4, 6])
                .unwrap()
                .to_contiguous()
                .unwrap()
        })
        .collect();
    for (i, t) in tensors.iter().enumerate() {
        let layout = match i % 3 {
            0 => Layout::Contiguous,
            1 => Layout::Chunked {
                chunks: vec![2, 3],
                gzip: None,
                shuffle: false,
            },
            _ => Layout::Chunked {
                chunks: vec![3, 4],
                gzip: Some(6),
                shuffle: true,
            },
        };
        w.dataset(&format!("g/{}", t.dtype().name()), &t.view(), layout)
            .unwrap();
    }
    let x = &tensors[0];
    w.dataset("transposed", &x.view().t().unwrap(), Layout::Contiguous)
        .unwrap();
    w.attribute("/", "title", AttrValue::Str("axial".into()))
        .unwrap();
    w.attribute("g", "version", AttrValue::Int(2)).unwrap();
    w.attribute("transposed", "ids", AttrValue::Ints(vec![1, 2]))
        .unwrap();
    w.attribute("transposed", "scale", AttrValue::Float(0.5))
        .unwrap();
    assert!(
        w.dataset("transposed", &x.view(), Layout::Contiguous)
            .is_err()
    );
    let file = hdf5::open_bytes(&w.to_bytes().unwrap()).unwrap();
    for t in &tensors {
        let ds = file.dataset(&format!("g/{}", t.dtype().name())).unwrap();
        assert_eq!(ds.dtype().unwrap(), t.dtype());
        let back = ds.read().unwrap();
        assert_eq!(
            common::values(&back),
            common::values(&StoredTensor::from_raw(t.view().to_contiguous().unwrap())),
            "{}",
            t.dtype()
        );
        let s = ds
            .read_slice(&[
                Select::Range {
                    start: 1,
                    end: 4,
                    step: 2,
                },
                Select::from(2..),
            ])
            .unwrap();
        assert_eq!(s.shape(), &[2, 4]);
    }
    let t = file.dataset("transposed").unwrap();
    assert_eq!(t.shape(), vec![6, 4]);
    let attrs = t.attributes().unwrap();
    assert_eq!(
        attrs.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["ids", "scale"]
    );
    assert_eq!(file.group_attributes("g").unwrap()[0].1.as_f64(), Some(2.0));
    assert_eq!(
        file.group_attributes("/").unwrap()[0].1.as_str(),
        Some("axial")
    );
}

/// Found by the `hdf5` fuzz target: a dataset whose dataspace sizes multiply
/// past `usize::MAX`. Reading it panicked on the overflowing product (and
/// would have wrapped in a release build); every read is now an `Ok` or an
/// `Err`.
#[test]
fn a_dataspace_whose_sizes_overflow_is_an_error_not_a_panic() {
    let file = hdf5::open_bytes(include_bytes!("data/hdf5_shape_product_overflows.h5"))
        .expect("the superblock is valid");
    let mut datasets = 0;
    for path in file.walk().expect("the tree walks") {
        let Ok(ds) = file.dataset(&path) else {
            continue;
        };
        datasets += 1;
        let _ = ds.read();
        let all: Vec<Select> = ds
            .shape()
            .iter()
            .map(|&n| Select::Range {
                start: n / 3,
                end: n,
                step: 2,
            })
            .collect();
        let _ = ds.read_slice(&all);
    }
    assert!(datasets > 0);
}
