//! The plain twin of every `try_` method: the same call, panicking with the
//! error's message at the caller instead of returning it.

use axial_core::Result;

/// Unwraps a result, panicking with the error's message at the caller: the
/// convenience twin of every `try_` method.
///
/// A `match`, not `unwrap_or_else`: a closure would report its own line, as
/// `#[track_caller]` does not reach into closures.
///
/// # Panics
/// On an error.
#[track_caller]
pub fn or_panic<X>(result: Result<X>) -> X {
    match result {
        Ok(x) => x,
        Err(e) => panic!("{e}"),
    }
}
