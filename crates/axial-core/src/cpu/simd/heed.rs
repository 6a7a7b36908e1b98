//! Every kernel that chooses an instruction set heeds the one detection
//! ([`level`], `AXIAL_SIMD`): run in a process with `AXIAL_SIMD=portable`
//! or `=avx2`, no kernel runs above that level. The kernels below reach
//! every [`Site`]; in debug builds each site records the levels it ran at.

use super::{Level, SITES, Site, bf16_dot, level, used, vnni};
use crate::quantized::{PackedLinearWeight, QDType, linear, quantize_per_tensor};
use crate::{BinaryOp, DType, RawTensor, ReduceOp, Result, UnaryOp};

/// One kernel of each site, on inputs large enough to take its fast path.
fn run_every_site() -> Result<()> {
    let x = RawTensor::arange(0.0, 4096.0, 1.0, DType::F32)?;
    let x = x.view().view(&[64, 64])?;
    x.unary(UnaryOp::Exp)?; // Isa: vmath
    x.softmax(-1)?; // Isa: softmax
    x.binary(BinaryOp::Add, &x)?; // Map: a unit-stride run
    x.reduce(ReduceOp::Sum, &[1], false)?; // Reduce: contiguous runs
    x.t()?.to_contiguous()?; // Transpose
    x.matmul(&x)?; // Gemm
    let h = x.to_dtype(DType::F16)?;
    h.view().reduce(ReduceOp::Sum, &[1], false)?; // Convert: f16 runs widened
    crate::sparse::SparseCsr::from_dense(&x)?.matmul(&x)?; // Host: the sparse product
    let qx = quantize_per_tensor(&x, 0.5, 0, QDType::QUInt8)?;
    let qw = quantize_per_tensor(&x, 0.5, 0, QDType::QInt8)?;
    let packed = PackedLinearWeight::new(&qw.view(), None)?;
    linear(&qx.view(), &packed, 1.0, 0)?; // Vnni (or its portable loop)
    let layer = crate::cpu::infer::Bf16Linear::new(&x, None)?;
    layer.forward(&x)?; // Bf16 (or its portable loop)
    Ok(())
}

#[test]
fn no_kernel_runs_above_the_level_in_use() -> Result<()> {
    run_every_site()?;
    let top = level();
    let allowed = (1u8 << (top as u8 + 1)) - 1;
    for site in SITES {
        let ran = used(site);
        if cfg!(debug_assertions) {
            assert_ne!(ran, 0, "{site:?} chose no instruction set");
        }
        assert_eq!(ran & !allowed, 0, "{site:?} ran above {top:?}: {ran:#05b}");
    }
    let cap = match std::env::var("AXIAL_SIMD").as_deref() {
        Ok("portable") => Level::Portable,
        Ok("avx2") => Level::Avx2,
        Ok("avx512") => Level::Avx512,
        _ => return Ok(()),
    };
    assert!(top <= cap, "{top:?} above AXIAL_SIMD's {cap:?}");
    assert!(!vnni(Site::Vnni), "AXIAL_SIMD leaves VNNI off");
    assert!(!bf16_dot(Site::Bf16), "AXIAL_SIMD leaves BF16 off");
    Ok(())
}

/// The one detection is the only one: no other file of the crate asks
/// the CPU for its features or reads `AXIAL_SIMD`.
#[test]
fn the_instruction_set_is_detected_in_one_place() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let simd = path.parent().is_some_and(|p| p.ends_with("cpu/simd"));
            if path.extension().is_none_or(|e| e != "rs") || simd {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            for word in ["feature_detected", "AXIAL_SIMD\")", "cpuid"] {
                assert!(
                    !text.contains(word),
                    "{} detects the CPU itself ({word})",
                    path.display()
                );
            }
        }
    }
}
