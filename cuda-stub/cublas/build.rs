//! Names the library as cuBLAS 13 names itself.

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcublas.so.13");
}
