//! Any bytes as a checkpoint (zip or legacy): an `Err` or a value tree
//! whose tensors read whole.
#![no_main]
use axial_io::Value;

fn walk(v: &Value, depth: usize) {
    match v {
        Value::Tensor(t) => {
            let _ = t.tensor.to_raw();
        }
        Value::List(xs) | Value::Tuple(xs) | Value::Set(xs) => xs.iter().for_each(|x| walk(x, depth + 1)),
        Value::Dict(d) => d.items.iter().for_each(|(k, x)| {
            walk(k, depth + 1);
            walk(x, depth + 1)
        }),
        _ => {}
    }
    let _ = v.to_string();
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(ckpt) = axial_io::torch::load_bytes(data) {
        walk(ckpt.value(), 0);
        // What was read is written again.
        let _ = axial_io::torch::to_bytes(ckpt.value());
    }
});
