//! The CUDA device's compile errors (`ui-tests/cuda/*.rs`, each with its
//! `.stderr`), with the `cuda` feature: a CPU tensor and a GPU tensor do not
//! combine.

#[cfg(feature = "cuda")]
#[test]
fn ui_cuda() {
    trybuild::TestCases::new().compile_fail("ui-tests/cuda/*.rs");
}
