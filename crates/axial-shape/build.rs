//! Writes the two tables behind `Sz<N>`, the spelling of a static size that
//! compile errors print as a number: `Sz<N>` to its typenum number (the
//! proofs' arithmetic), and each typenum number below `2^BITS` back to
//! `Sz<N>` (the results of that arithmetic), with typenum numbers of more
//! bits left as they are. Generated rather than written out: 2 × 8192 impls.

use std::fmt::Write as _;
use std::{env, fs, path::PathBuf};

/// Sizes below `2^BITS` are spelled `Sz<N>`.
const BITS: u32 = 13;

fn typenum(n: u64) -> String {
    if n == 0 {
        return "UTerm".to_owned();
    }
    format!("UInt<{}, typenum::B{}>", typenum(n >> 1), n & 1)
}

fn main() {
    let mut out = String::new();
    for n in 0..1u64 << BITS {
        let t = typenum(n);
        writeln!(out, "impl Spelled for Sz<{n}> {{ type Number = {t}; }}").unwrap();
        writeln!(out, "impl Canonical for {t} {{ type Out = Sz<{n}>; }}").unwrap();
    }
    // Every number of more than BITS bits: BITS + 1 nested `UInt`s around
    // any inner number, which no smaller number matches.
    let mut pattern = "U".to_owned();
    let mut params = vec!["U".to_owned()];
    for i in 0..=BITS {
        pattern = format!("UInt<{pattern}, X{i}>");
        params.push(format!("X{i}"));
    }
    writeln!(
        out,
        "impl<{}> Canonical for {pattern} {{ type Out = Self; }}",
        params.join(", ")
    )
    .unwrap();
    writeln!(out, "/// The largest size spelled `Sz<N>`.").unwrap();
    writeln!(out, "pub const SZ_MAX: usize = {};", (1u64 << BITS) - 1).unwrap();
    let dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(dir.join("size_tables.rs"), out).expect("OUT_DIR is writable");
    println!("cargo::rerun-if-changed=build.rs");
}
