//! The CUDA kernels against the op table of axial-core, without a GPU: the
//! committed header of op numbers is the one the table generates, and the
//! committed PTX has an entry for every kernel the table's ops launch, for
//! every (op, dtype) their rules accept.

use std::collections::BTreeSet;
use std::path::Path;

use axial_core::ops::cuda::{every_kernel, header};

fn kernels_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/kernels"))
}

/// The `.entry` names of a committed module.
fn entries(module: &str) -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("ptx/{module}.ptx"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|l| l.strip_prefix(".visible .entry "))
        .map(|rest| rest.split('(').next().unwrap_or(rest).trim().to_owned())
        .collect()
}

#[test]
fn the_header_is_the_tables() {
    let committed =
        std::fs::read_to_string(kernels_dir().join("ops.cuh")).expect("kernels/ops.cuh");
    assert_eq!(
        committed.trim_end(),
        header().trim_end(),
        "kernels/ops.cuh is not what the op table generates: run crates/axial-cuda/gen-ptx.sh"
    );
}

#[test]
fn every_kernel_of_the_table_is_in_the_committed_ptx() {
    let kernels = every_kernel();
    assert!(kernels.len() > 500, "{} kernels", kernels.len());
    let modules: BTreeSet<&str> = kernels.iter().map(|(m, _, _)| *m).collect();
    let mut missing = vec![];
    for module in modules {
        let have = entries(module);
        for (_, entry, what) in kernels.iter().filter(|(m, _, _)| *m == module) {
            if !have.contains(entry) {
                missing.push(format!("{module}: {entry} ({what})"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "kernels missing from ptx/:\n{}",
        missing.join("\n")
    );
}
