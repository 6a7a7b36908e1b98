//! Any bytes as a safetensors file: an `Err` or tensors that read whole.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(file) = axial_io::safetensors::load_bytes(data) {
        for (_, t) in file.iter() {
            let _ = t.to_raw();
        }
    }
});
