//! Compile errors are the product: each `ui-tests/fail/*.rs` must fail with
//! its `.stderr` (pinned to the toolchain of `rust-toolchain.toml`), and each
//! `ui-tests/pass/*.rs` must build (which makes trybuild run `cargo build`,
//! so errors after monomorphisation would show too).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("ui-tests/pass/*.rs");
    cases.compile_fail("ui-tests/fail/*.rs");
}
