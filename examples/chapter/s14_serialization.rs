//! Serialization: the chapter's checkpoint `{'model_weights', 'epoch',
//! 'learning_rate'}` saved as `torch.save` writes it and loaded as
//! `torch.load(weights_only=True)` loads it, the weights checked against
//! their type on the way in; a checkpoint holding a pickled class refused,
//! naming the class; and an HDF5 dataset written in chunks, of which
//! reading rows 2..5 (`hdf5_data[2:5, :]`) decodes only the two it needs.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_core::{DType, Generator, RawTensor};
use axial_io::hdf5::{self, Layout, Select};
use axial_io::{StoredTensor, TensorMap, Value, torch};
use axial_suite::show::labelled;

axes!(Rows, Cols);

/// A checkpoint torch 2.15 wrote: `{'weights': ..., 'config': TrainingConfig(...)}`.
const CUSTOM_CLASS: &[u8] =
    include_bytes!("../../crates/axial-io/tests/fixtures/torch/custom_class.pt");

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let dir = tempfile::tempdir()?;

    // torch.save({'model_weights': torch.randn(4, 4), 'epoch': 10, 'learning_rate': 1e-3}, 'ckpt.pt')
    let weights = RawTensor::randn(&[4, 4], DType::F32, &mut Generator::seed(0))?;
    let checkpoint = Value::dict([
        (
            "model_weights",
            Value::tensor(StoredTensor::from_raw(weights)),
        ),
        ("epoch", Value::Int(10)),
        ("learning_rate", Value::Float(1e-3)),
    ]);
    let path = dir.path().join("ckpt.pt");
    torch::save(&path, &checkpoint)?;
    writeln!(
        out,
        "saved ckpt.pt: {} bytes, a zip archive as torch.save writes it",
        std::fs::metadata(&path)?.len()
    )?;

    // torch.load('ckpt.pt', weights_only=True)
    let loaded = torch::load(&path)?;
    writeln!(out, "loaded keys: {:?}", loaded.keys())?;
    writeln!(
        out,
        "epoch = {}, learning_rate = {}",
        loaded.value().get("epoch").ok_or("no epoch")?,
        loaded.value().get("learning_rate").ok_or("no lr")?
    )?;
    let w = loaded.typed::<f32, shape![Rows: 4, Cols: 4]>("model_weights")?;
    writeln!(out, "{}", labelled("model_weights", &w))?;
    let wrong = loaded.typed::<f32, shape![Rows: 4, Cols: 3]>("model_weights");
    writeln!(
        out,
        "as (Rows: 4, Cols: 3): {}",
        wrong.err().ok_or("accepted a wrong shape")?
    )?;

    // weights_only refuses any class outside torch's allow-list, before it could run.
    let refused = torch::load_bytes(CUSTOM_CLASS)
        .err()
        .ok_or("loaded a pickled class")?;
    writeln!(out, "custom_class.pt: {refused}")?;

    // with h5py.File('features.h5', 'w') as f: f.create_dataset('features', data=np.arange(100).reshape(10, 10), chunks=(2, 10), compression='gzip')
    let features = RawTensor::arange(0.0, 100.0, 1.0, DType::I64)?
        .view()
        .view(&[10, 10])?
        .to_contiguous()?;
    let mut h5 = hdf5::H5Writer::new();
    h5.dataset(
        "features",
        &features.view(),
        Layout::Chunked {
            chunks: vec![2, 10],
            gzip: Some(4),
            shuffle: true,
        },
    )?;
    let h5_path = dir.path().join("features.h5");
    h5.save(&h5_path)?;

    // hdf5_data = f['features']; hdf5_data[2:5, :]
    let file = hdf5::open(&h5_path)?;
    let data = file.dataset("features")?;
    let rows = data.read_slice(&[Select::from(2..5), Select::All])?;
    let rows = rows.typed::<i64, shape![Rows: 3, Cols: 10]>()?;
    let chunks = data.chunks().unwrap_or_default();
    writeln!(out, "features: shape {:?}, chunks {chunks:?}", data.shape())?;
    writeln!(out, "{}", labelled("hdf5_data[2:5, :]", &rows))?;
    let total = data.shape()[0].div_ceil(chunks.first().copied().unwrap_or(1));
    writeln!(out, "chunks decoded: {} of {total}", data.chunks_decoded())?;
    Ok(())
}
