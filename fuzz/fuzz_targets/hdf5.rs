//! Any bytes as an HDF5 file: an `Err`, or groups, datasets and
//! attributes that read (whole and a hyperslab) or fail with an `Err`.
#![no_main]
use axial_io::hdf5::{self, Select};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(file) = hdf5::open_bytes(data) else { return };
    let _ = file.group_attributes("/");
    let Ok(paths) = file.walk() else { return };
    for path in paths.iter().take(16) {
        let Ok(ds) = file.dataset(path) else { continue };
        let _ = ds.attributes();
        let _ = ds.read();
        let sel: Vec<Select> = ds.shape().iter().map(|&n| Select::Range { start: n / 3, end: n, step: 2 }).collect();
        let _ = ds.read_slice(&sel);
    }
});
