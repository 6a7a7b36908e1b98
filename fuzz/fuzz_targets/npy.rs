//! Any bytes as an `.npy`: an `Err` or an array that reads whole.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(t) = axial_io::npy::load_bytes(data) {
        let _ = t.to_raw();
    }
});
