#!/usr/bin/env bash
# Fuzzes one reader of axial-io: fuzz/run.sh TARGET [RUNS] (default 1,000,000).
# TARGET is safetensors, torch, npy, npz or hdf5; the seeds are the fixtures
# of its format (crates/axial-io/tests/fixtures/), and what the fuzzer finds
# grows fuzz/corpus/TARGET. Needs nightly and `cargo install cargo-fuzz`.
set -euo pipefail
cd "$(dirname "$0")"
target="$1"
runs="${2:-1000000}"
case "$target" in
    safetensors) seeds=safetensors ;;
    torch) seeds=torch ;;
    npy | npz) seeds=npy ;;
    hdf5) seeds=hdf5 ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
esac
mkdir -p "corpus/$target"
exec nice -n 19 cargo +nightly fuzz run "$target" "corpus/$target" "../crates/axial-io/tests/fixtures/$seeds" -- \
    -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=65536 -timeout=20 -runs="$runs" -print_final_stats=1
