//! The recipe of one macro call site, built once on first use.

use std::sync::OnceLock;

use axial_core::einops::{Einsum, Operation, Pattern, PatternError, Recipe};
use axial_core::{Error, Result};

/// The einops recipe of a `rearrange!`, `reduce!` or `repeat!` call site: a
/// `static` the macro writes, built on first use from the pattern the macro
/// already checked.
///
/// ```
/// use axial::__private::{Operation, RecipeCell};
/// static CELL: RecipeCell = RecipeCell::new("a b -> b a", Operation::Rearrange, &[]);
/// assert_eq!(CELL.get()?.pattern(), "a b -> b a");
/// # Ok::<(), axial::Error>(())
/// ```
pub struct RecipeCell {
    pattern: &'static str,
    operation: Operation,
    sized: &'static [&'static str],
    recipe: OnceLock<std::result::Result<Recipe, PatternError>>,
}

impl RecipeCell {
    /// The cell of `pattern` for `operation`, with sizes given for `sized`.
    pub const fn new(
        pattern: &'static str,
        operation: Operation,
        sized: &'static [&'static str],
    ) -> Self {
        RecipeCell {
            pattern,
            operation,
            sized,
            recipe: OnceLock::new(),
        }
    }

    /// The recipe.
    ///
    /// # Errors
    /// The pattern einops refuses (the macros check it first, so theirs never do).
    pub fn get(&self) -> Result<&Recipe> {
        let recipe = self.recipe.get_or_init(|| {
            Pattern::parse(self.pattern).and_then(|p| Recipe::new(&p, self.operation, self.sized))
        });
        recipe.as_ref().map_err(|e| Error::from(e.clone()))
    }
}

/// The checked subscripts of an `einsum!` call site, built on first use.
///
/// ```
/// use axial::__private::EinsumCell;
/// static CELL: EinsumCell = EinsumCell::new("i j, j k -> i k");
/// assert_eq!(CELL.get()?.inputs.len(), 2);
/// # Ok::<(), axial::Error>(())
/// ```
pub struct EinsumCell {
    pattern: &'static str,
    spec: OnceLock<std::result::Result<Einsum, PatternError>>,
}

impl EinsumCell {
    /// The cell of `pattern`.
    pub const fn new(pattern: &'static str) -> Self {
        EinsumCell {
            pattern,
            spec: OnceLock::new(),
        }
    }

    /// The subscripts.
    ///
    /// # Errors
    /// The pattern einops refuses (the macro checks it first, so its never does).
    pub fn get(&self) -> Result<&Einsum> {
        let spec = self
            .spec
            .get_or_init(|| Pattern::parse_einsum(self.pattern).and_then(|p| Einsum::new(&p)));
        spec.as_ref().map_err(|e| Error::from(e.clone()))
    }
}
