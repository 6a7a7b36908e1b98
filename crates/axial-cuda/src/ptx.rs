//! The PTX modules compiled from `kernels/` by `gen-ptx.sh` (committed, so
//! that users need only the driver). The kernels' names and the modules
//! they are in come from the op table ([`axial_core::ops::cuda`]).

use crate::launch::ParamType;

/// Every module's name.
pub(crate) const MODULES: [&str; 25] = [
    "elementwise_bool",
    "elementwise_u8",
    "elementwise_i8",
    "elementwise_i16",
    "elementwise_i32",
    "elementwise_i64",
    "elementwise_f16",
    "elementwise_bf16",
    "elementwise_f32",
    "elementwise_f64",
    "reduce_bool",
    "reduce_u8",
    "reduce_i8",
    "reduce_i16",
    "reduce_i32",
    "reduce_i64",
    "reduce_f16",
    "reduce_bf16",
    "reduce_f32",
    "reduce_f64",
    "move",
    "norm",
    "index",
    "scan",
    "cnn",
];

/// The kernels (`.entry` names) of a module's PTX.
pub(crate) fn entries(ptx: &str) -> impl Iterator<Item = &str> {
    ptx.lines().filter_map(|l| {
        let rest = l.strip_prefix(".visible .entry ")?;
        Some(rest.split('(').next().unwrap_or(rest).trim())
    })
}

/// The parameters of kernel `kernel` as its `.entry` declares them in
/// `ptx` (nvcc writes one per line), or `None` when there is no such kernel
/// or a parameter is of a kind this crate does not pass.
pub(crate) fn params(ptx: &str, kernel: &str) -> Option<Vec<ParamType>> {
    let head = format!(".visible .entry {kernel}(");
    let mut lines = ptx.lines().skip_while(|l| l.trim_end() != head);
    lines.next()?;
    let mut out = vec![];
    for line in lines {
        let line = line.trim().trim_end_matches(',');
        if line == ")" {
            return Some(out);
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        out.push(match words[..] {
            [".param", ".u64" | ".b64" | ".s64", _] => ParamType::B64,
            [".param", ".u32" | ".b32" | ".s32", _] => ParamType::B32,
            [".param", ".align", align, ".b8", array] => {
                let size = array.split_once('[')?.1.strip_suffix(']')?.parse().ok()?;
                ParamType::Bytes {
                    size,
                    align: align.parse().ok()?,
                }
            }
            _ => return None,
        });
    }
    None
}

/// The PTX text of module `name`.
pub(crate) fn module(name: &str) -> Option<&'static str> {
    Some(match name {
        "elementwise_bool" => include_str!("../ptx/elementwise_bool.ptx"),
        "elementwise_u8" => include_str!("../ptx/elementwise_u8.ptx"),
        "elementwise_i8" => include_str!("../ptx/elementwise_i8.ptx"),
        "elementwise_i16" => include_str!("../ptx/elementwise_i16.ptx"),
        "elementwise_i32" => include_str!("../ptx/elementwise_i32.ptx"),
        "elementwise_i64" => include_str!("../ptx/elementwise_i64.ptx"),
        "elementwise_f16" => include_str!("../ptx/elementwise_f16.ptx"),
        "elementwise_bf16" => include_str!("../ptx/elementwise_bf16.ptx"),
        "elementwise_f32" => include_str!("../ptx/elementwise_f32.ptx"),
        "elementwise_f64" => include_str!("../ptx/elementwise_f64.ptx"),
        "reduce_bool" => include_str!("../ptx/reduce_bool.ptx"),
        "reduce_u8" => include_str!("../ptx/reduce_u8.ptx"),
        "reduce_i8" => include_str!("../ptx/reduce_i8.ptx"),
        "reduce_i16" => include_str!("../ptx/reduce_i16.ptx"),
        "reduce_i32" => include_str!("../ptx/reduce_i32.ptx"),
        "reduce_i64" => include_str!("../ptx/reduce_i64.ptx"),
        "reduce_f16" => include_str!("../ptx/reduce_f16.ptx"),
        "reduce_bf16" => include_str!("../ptx/reduce_bf16.ptx"),
        "reduce_f32" => include_str!("../ptx/reduce_f32.ptx"),
        "reduce_f64" => include_str!("../ptx/reduce_f64.ptx"),
        "move" => include_str!("../ptx/move.ptx"),
        "norm" => include_str!("../ptx/norm.ptx"),
        "index" => include_str!("../ptx/index.ptx"),
        "scan" => include_str!("../ptx/scan.ptx"),
        "cnn" => include_str!("../ptx/cnn.ptx"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use axial_core::DType;
    use axial_core::ops::cuda::{
        elementwise_module as elementwise, reduce_module as reduce, short,
    };

    use super::*;

    #[test]
    fn every_dtype_has_its_modules() {
        for dtype in DType::ALL {
            assert!(module(elementwise(dtype)).is_some_and(|p| p.contains(".entry")));
            assert!(module(reduce(dtype)).is_some());
            assert!(elementwise(dtype).ends_with(short(dtype)));
        }
        assert!(module("move").is_some());
        for m in MODULES {
            assert!(entries(module(m).expect("listed")).count() > 0, "{m}");
        }
        let f32_kernels: Vec<_> = entries(module("elementwise_f32").unwrap()).collect();
        assert!(f32_kernels.contains(&"unary_exp_f32") && f32_kernels.contains(&"cast_f32_bf16"));
        let norm: Vec<_> = entries(module("norm").unwrap()).collect();
        assert!(norm.contains(&"softmax_rows_bf16") && norm.contains(&"layer_norm_f64"));
        let scan: Vec<_> = entries(module("scan").unwrap()).collect();
        assert!(scan.contains(&"cumsum_block_i64") && scan.contains(&"cumsum_rows_f16"));
        assert!(entries(module("index").unwrap()).any(|e| e == "gather_b8"));
    }
}
