#!/usr/bin/env bash
# Writes kernels/ops.cuh (the op numbers and kernel lists, from axial-core's
# op table: `cargo run --example ops_header`), then compiles the CUDA C
# kernels of kernels/ to the PTX under ptx/ with nvcc 13.0 from PyPI wheels
# (installed into the workspace's ignored .tools/ when missing), one module
# per source and dtype.
#
#   gen-ptx.sh           regenerate kernels/ops.cuh and ptx/
#   gen-ptx.sh --check   fail when kernels/ops.cuh is not what the op table
#                        generates, or when the PTX regenerated into a
#                        temporary folder differs from ptx/; then assemble
#                        every module with ptxas for sm_80 and sm_90
#
# nvcc 13.0 is pinned: PTX from a newer nvcc needs a newer driver than 580.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tools="$root/.tools/cuda"
bin="$tools/nvidia/cu13/bin"

if [[ ! -x "$bin/nvcc" ]]; then
    python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$tools" \
        "nvidia-cuda-nvcc==13.0.88" "nvidia-cuda-crt==13.0.88" "nvidia-cuda-runtime==13.0.96" \
        "nvidia-cuda-cccl==13.0.85" "nvidia-nvvm==13.0.88"
fi
export PATH="$bin:$PATH"

check=false
[[ "${1:-}" == "--check" ]] && check=true
out="$here/ptx"
if $check; then
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

# The header of op numbers, from the op table.
header="$(cd "$root" && cargo run -q -p axial-cuda --example ops_header)"
if $check; then
    if [[ "$header" != "$(cat "$here/kernels/ops.cuh")" ]]; then
        echo "kernels/ops.cuh is not what the op table generates:" >&2
        diff <(printf '%s\n' "$header") "$here/kernels/ops.cuh" >&2 || true
        echo "Run crates/axial-cuda/gen-ptx.sh and commit kernels/ops.cuh and ptx/." >&2
        exit 1
    fi
else
    printf '%s\n' "$header" > "$here/kernels/ops.cuh"
fi

# The dtypes in the order of AXIAL_DT in kernels/common.cuh.
dtypes=(bool u8 i8 i16 i32 i64 f16 bf16 f32 f64)
jobs=()
# One module per dtype for the kernels that have one.
for src in elementwise reduce; do
    for id in "${!dtypes[@]}"; do
        jobs+=("$src ${dtypes[$id]} -DAXIAL_DT=$id")
    done
done
# Kernels by element size: one module.
jobs+=("move all" "norm all" "index all" "scan all" "cnn all")

compile() {
    local src=$1 dt=$2 def=${3:-}
    local name="$src"
    [[ "$dt" != all ]] && name="${src}_$dt"
    # shellcheck disable=SC2086
    nvcc -ptx -arch=compute_80 -fmad=false -std=c++17 -diag-suppress 186 $def \
        "$here/kernels/$src.cu" -o "$out/$name.ptx"
}
export -f compile
export here out

# Two at a time (CI has two cores).
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c 'compile {}'

if $check; then
    if ! diff -r -q "$here/ptx" "$out" >/dev/null; then
        echo "The committed PTX differs from what kernels/ compiles to:" >&2
        diff -r -q "$here/ptx" "$out" >&2 || true
        echo "Run crates/axial-cuda/gen-ptx.sh and commit kernels/ops.cuh and ptx/." >&2
        exit 1
    fi
    echo "ptx/ is current ($(ls "$out" | wc -l) modules)."
    for f in "$here"/ptx/*.ptx; do
        for arch in sm_80 sm_90; do
            echo "$f $arch"
        done
    done | xargs -P 2 -n 2 bash -c 'ptxas -arch="$1" "$0" -o /dev/null || { echo "ptxas -arch=$1 refused $0" >&2; exit 255; }'
    echo "ptxas accepts every module for sm_80 and sm_90."
fi
