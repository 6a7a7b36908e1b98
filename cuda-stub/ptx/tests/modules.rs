//! Every PTX module `axial-cuda` ships parses, and every one of its kernels
//! decodes: each instruction is one the executor implements.

use std::path::PathBuf;

fn modules() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../crates/axial-cuda/ptx");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("the committed PTX")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_committed_module_parses_and_every_kernel_decodes() {
    let modules = modules();
    assert_eq!(modules.len(), 25);
    let mut kernels = 0;
    for (name, text) in &modules {
        let m = axial_ptx::Module::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(m.target(), "sm_80", "{name}");
        for k in m.kernel_names() {
            let kernel = m.kernel(k).unwrap_or_else(|e| panic!("{name}: {k}: {e}"));
            assert!(kernel.instructions() > 0);
            assert!(kernel.static_shared() <= 48 * 1024, "{k}");
            kernels += 1;
        }
    }
    assert!(kernels > 500, "{kernels} kernels");
}
