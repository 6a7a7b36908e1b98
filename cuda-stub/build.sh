#!/usr/bin/env bash
# Builds the stand-ins for the CUDA driver and cuBLAS (Rust crates of this
# workspace, release profile) into cuda-stub/lib64/stubs:
#   libcuda.so, libcuda.so.1    the driver API over host memory; kernels run
#                               by the PTX executor (crate axial-ptx), which
#                               checks bounds and races
#   libcublas.so.13             the cuBLAS entry points axial-cuda calls,
#                               computed on the CPU in cuBLAS's precision
# Nothing links them: axial-cuda loads `libcuda.so.1` (and cuBLAS) when a
# program first asks for a device, so with LD_LIBRARY_PATH=cuda-stub/lib64/stubs
# test binaries built with the `cuda` feature run on the stand-ins; on a
# machine with a GPU, without that variable, the same binaries use the real
# driver. These are test tools, not drivers: never put them on an rpath.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="$here/lib64/stubs"
mkdir -p "$out"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" \
    -p axial-cuda-stand-in -p axial-cublas-stand-in
release="${CARGO_TARGET_DIR:-$root/target}/release"
# Copies, not links into target/: `cargo clean` must not break a built tree.
install -m 0755 "$release/libaxial_cuda_stand_in.so" "$out/libcuda.so"
ln -sf libcuda.so "$out/libcuda.so.1"
install -m 0755 "$release/libaxial_cublas_stand_in.so" "$out/libcublas.so.13"
echo "stand-ins: $out/libcuda.so.1 ($(nm -D --defined-only "$out/libcuda.so" | grep -c ' T cu') driver functions), $out/libcublas.so.13"
