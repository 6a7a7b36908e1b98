#!/usr/bin/env bash
# How long `cargo check` takes on model code written with axial, once the
# dependencies are built: the cost of the compile-time proofs to a user.
#
# It builds a throwaway crate whose main.rs is a copy of a ui-tests pass
# case (default: the MLP and attention model), checks it once to build the
# dependencies, then times `cargo check` after an edit to main.rs (a new
# function appended: incremental) and after removing the crate's own
# artifacts (from scratch).
#
#   bash bench/check_time.sh [ui-tests/pass/model.rs] [runs]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
case_file="${1:-ui-tests/pass/model.rs}"
runs="${2:-5}"
work="$root/target/check-time"
mkdir -p "$work/src"
cp "$root/rust-toolchain.toml" "$work/"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "check-time-case"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
axial = { path = "$root/crates/axial" }

[workspace]
TOML
cp "$root/$case_file" "$work/src/main.rs"
cd "$work"
cargo check -q 2>/dev/null || cargo check
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
echo "cargo check of $case_file ($(wc -l < src/main.rs) lines), dependencies built:"
for _ in $(seq "$runs"); do
    echo "fn _edit_$RANDOM() {}" >> src/main.rs
    inc=$(seconds cargo check -q)
    cargo clean -q -p check-time-case
    full=$(seconds cargo check -q)
    printf '  incremental %5.2f s   from scratch %5.2f s\n' "$inc" "$full"
done
