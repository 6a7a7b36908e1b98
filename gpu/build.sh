#!/usr/bin/env bash
# Builds, on a development machine, everything gpu/check.sh runs on a GPU
# machine that has a driver but no Rust toolchain and no network: the test
# binaries of the kernel suites and of axial-cuda (release, symbols
# stripped) and the report binary, into gpu/bin (ignored by git; take it
# along). The PTX is inside the binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
bash cuda-stub/build.sh >/dev/null
export CARGO_PROFILE_RELEASE_STRIP=symbols
rm -rf gpu/bin
mkdir -p gpu/bin/tests
features=(--features axial-cuda/cuda)
# The kernel suites (instantiated for Cuda) and axial-cuda's own tests.
cargo test --release --no-run --message-format=json -p axial-core -p axial-cuda "${features[@]}" \
    --test prop_elementwise --test prop_reduce --test cuda 2>/dev/null |
    python3 -c '
import json, shutil, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        name = m["target"]["name"]
        shutil.copy(m["executable"], f"gpu/bin/tests/{name}")
        print("test binary", name)
'
cargo build --release -p axial-cuda --features cuda --example gpu_report
cp "${CARGO_TARGET_DIR:-target}/release/examples/gpu_report" gpu/bin/
cp gpu/torch_gpu.py gpu/bin/
du -sh gpu/bin
