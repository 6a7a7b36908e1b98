//! Any bytes as an `.npz`: an `Err` or arrays that read whole.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(file) = axial_io::npz::load_bytes(data) {
        for (_, t) in file.iter() {
            let _ = t.to_raw();
        }
    }
});
