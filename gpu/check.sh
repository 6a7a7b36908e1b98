#!/usr/bin/env bash
# The GPU check: one command on a machine with an NVIDIA GPU and driver,
# after gpu/build.sh ran on a development machine and gpu/bin came along.
# No Rust toolchain, no network. Writes a markdown report to $OUT/report.md
# (or gpu/report.md) within a few minutes:
# - the GPU and driver (nvidia-smi);
# - every kernel loads (the driver JIT-compiles every PTX module);
# - the kernel suites on the CUDA device: every op and dtype against naive
#   references on random strided layouts (the same suites the CPU passes),
#   with AXIAL_REQUIRE_GPU=1 so that a missing device fails instead of skipping;
# - axial-cuda's tests: pinned copies, streams, events, cuBLAS, errors;
# - bandwidth and FLOP/s against the device's copy bandwidth, and the same
#   cases in PyTorch when it is installed with CUDA.
# On a machine without a GPU it runs the same steps on the stand-in driver
# of cuda-stub/ when one is built there (kernels executed on the CPU, as CI
# does), else reports that the CUDA cases skipped. The report says which.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=gpu/bin
out="${OUT:-gpu}/report.md"
mkdir -p "$(dirname "$out")"
: > "$out"
say() { printf '%s\n' "$*" | tee -a "$out"; }
if [[ ! -x "$bin/gpu_report" ]]; then
    echo "gpu/bin is missing: run gpu/build.sh on a machine with Rust first" >&2
    exit 2
fi
# The real driver when there is one; else the stand-in of cuda-stub/ when
# it is built (gpu/build.sh builds it to link the binaries).
real_driver=false
if ldconfig -p 2>/dev/null | grep -q 'libcuda.so.1 '; then
    real_driver=true
elif [[ -e cuda-stub/lib64/stubs/libcuda.so.1 ]]; then
    export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$PWD/cuda-stub/lib64/stubs"
fi
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [[ -d $d ]] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done
# cuBLAS of a PyTorch install, when the toolkit has none.
torch_lib=$(python3 -c 'import nvidia.cublas, os; print(os.path.join(nvidia.cublas.__path__[0], "lib"))' 2>/dev/null || true)
[[ -n "$torch_lib" ]] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$torch_lib"

say "# GPU check of axial ($(date -u +%Y-%m-%dT%H:%MZ))"
say ""
gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true)
ignored=()
if [[ -n "$gpu" ]] && $real_driver; then
    say "- GPU: $gpu (the NVIDIA driver)"
    export AXIAL_REQUIRE_GPU=1
    # Tests too large for the stand-in (4.3 billion elements) run here.
    ignored=(--include-ignored)
elif [[ -e cuda-stub/lib64/stubs/libcuda.so.1 ]]; then
    say "- no GPU here: the CUDA cases run on the stand-in driver of cuda-stub (PTX executed on the CPU)"
    export AXIAL_REQUIRE_GPU=1
else
    say "- no GPU here (nvidia-smi finds none): the CUDA cases report that they skipped"
fi
status=0
for t in "$bin"/tests/*; do
    name=$(basename "$t")
    start=$(date +%s)
    log=$(mktemp)
    # Only the CUDA instances: the CPU ones passed where the binaries were built.
    args=(cuda --test-threads=8)
    [[ $name == cuda ]] && args=(--test-threads=8 "${ignored[@]}")
    if timeout 240 "$t" "${args[@]}" >"$log" 2>&1; then
        result=passed
    else
        result="FAILED"
        status=1
    fi
    summary=$(grep -E '^test result' "$log" | tail -1)
    skipped=$(grep -c '^skipped ' "$log" || true)
    device=$(grep -m1 '^CUDA tests run on ' "$log" | sed 's/^CUDA tests run on //' || true)
    say "- \`$name\`: $result in $(( $(date +%s) - start )) s ($summary; $skipped skip notes${device:+; on $device})"
    if [[ $result != passed ]]; then
        say '  ```'
        grep -E 'panicked|FAILED|failed|error' "$log" | head -20 | sed 's/^/  /' | tee -a "$out" >/dev/null
        say '  ```'
    fi
    rm -f "$log"
done
say ""
timeout 240 "$bin/gpu_report" | tee -a "$out" || status=1
if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    say ""
    timeout 180 python3 "$bin/torch_gpu.py" | tee -a "$out" || status=1
else
    say ""
    say "- PyTorch with CUDA is not installed here: no PyTorch column"
fi
echo "report: $out"
exit $status
