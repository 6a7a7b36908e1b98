//! Prints the header of op numbers and kernel lists that `kernels/*.cu`
//! include (`kernels/ops.cuh`), from the op table of `axial-core`:
//! `gen-ptx.sh` writes it before it compiles the kernels, and
//! `gen-ptx.sh --check` fails when the committed one differs.
//!
//! ```sh
//! cargo run -q -p axial-cuda --example ops_header > crates/axial-cuda/kernels/ops.cuh
//! ```

fn main() {
    print!("{}", axial_core::ops::cuda::header());
}
