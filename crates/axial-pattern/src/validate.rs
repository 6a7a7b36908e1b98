//! One check per operation, for callers that only want to know whether a
//! pattern is valid (the macros, while the program compiles).

use crate::{Einsum, Operation, Pattern, PatternError, Recipe, Reduction};

/// Checks `pattern` for `rearrange` with sizes given for `sized`.
///
/// # Errors
/// As [`Recipe::new`].
///
/// ```
/// # use axial_pattern::{Pattern, validate_rearrange};
/// let p = Pattern::parse("b (h 2) -> b h")?;
/// assert_eq!(
///     validate_rearrange(&p, &[]).unwrap_err().to_string(),
///     "Non-unitary anonymous axes are not supported in rearrange (exception is length 1)"
/// );
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
pub fn validate_rearrange(pattern: &Pattern, sized: &[&str]) -> Result<(), PatternError> {
    Recipe::new(pattern, Operation::Rearrange, sized).map(drop)
}

/// Checks `pattern` for `reduce` by `reduction` with sizes given for `sized`.
///
/// # Errors
/// As [`Recipe::new`].
///
/// ```
/// # use axial_pattern::{Pattern, Reduction, validate_reduce};
/// let p = Pattern::parse("a b -> a e")?;
/// assert_eq!(
///     validate_reduce(&p, Reduction::Sum, &[]).unwrap_err().to_string(),
///     "Unexpected identifiers on the right side of reduce sum: {'e'}"
/// );
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
pub fn validate_reduce(
    pattern: &Pattern,
    reduction: Reduction,
    sized: &[&str],
) -> Result<(), PatternError> {
    Recipe::new(pattern, Operation::Reduce(reduction), sized).map(drop)
}

/// Checks `pattern` for `repeat` with sizes given for `sized`.
///
/// # Errors
/// As [`Recipe::new`].
///
/// ```
/// # use axial_pattern::{Pattern, validate_repeat};
/// let p = Pattern::parse("h w -> h w c")?;
/// assert!(validate_repeat(&p, &["c"]).is_ok());
/// assert_eq!(
///     validate_repeat(&p, &[]).unwrap_err().to_string(),
///     "Specify sizes for new axes in repeat: {'c'}"
/// );
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
pub fn validate_repeat(pattern: &Pattern, sized: &[&str]) -> Result<(), PatternError> {
    Recipe::new(pattern, Operation::Repeat, sized).map(drop)
}

/// Checks an einsum pattern (parsed with [`Pattern::parse_einsum`]).
///
/// # Errors
/// As [`Einsum::new`].
///
/// ```
/// # use axial_pattern::{Pattern, validate_einsum};
/// let p = Pattern::parse_einsum("a 2, a -> a")?;
/// assert_eq!(
///     validate_einsum(&p).unwrap_err().to_string(),
///     "Anonymous axes are not yet supported in einsum."
/// );
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
pub fn validate_einsum(pattern: &Pattern) -> Result<(), PatternError> {
    Einsum::new(pattern).map(drop)
}
