//! The three einops operations and the reductions `reduce` knows.

use std::fmt;
use std::str::FromStr;

use crate::{ErrorKind, PatternError};

/// A reduction of `reduce`, by einops' name.
///
/// # Example
/// ```
/// use axial_pattern::Reduction;
/// let r: Reduction = "mean".parse()?;
/// assert_eq!(r, Reduction::Mean);
/// assert_eq!(
///     "median".parse::<Reduction>().unwrap_err().to_string(),
///     "Unknown reduction median. Expect one of ('min', 'max', 'sum', 'mean', 'prod', 'any', 'all')."
/// );
/// # Ok::<(), axial_pattern::PatternError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// Smallest element.
    Min,
    /// Largest element.
    Max,
    /// Sum.
    Sum,
    /// Mean (floating dtypes only).
    Mean,
    /// Product.
    Prod,
    /// True when some element is non-zero.
    Any,
    /// True when every element is non-zero.
    All,
}

impl Reduction {
    /// Every reduction, in einops' order.
    ///
    /// ```
    /// # use axial_pattern::Reduction;
    /// let names: Vec<_> = Reduction::ALL.iter().map(|r| r.name()).collect();
    /// assert_eq!(names, ["min", "max", "sum", "mean", "prod", "any", "all"]);
    /// ```
    pub const ALL: [Reduction; 7] = [
        Reduction::Min,
        Reduction::Max,
        Reduction::Sum,
        Reduction::Mean,
        Reduction::Prod,
        Reduction::Any,
        Reduction::All,
    ];

    /// einops' name.
    ///
    /// ```
    /// # use axial_pattern::Reduction;
    /// assert_eq!(Reduction::Prod.name(), "prod");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Reduction::Min => "min",
            Reduction::Max => "max",
            Reduction::Sum => "sum",
            Reduction::Mean => "mean",
            Reduction::Prod => "prod",
            Reduction::Any => "any",
            Reduction::All => "all",
        }
    }
}

impl FromStr for Reduction {
    type Err = PatternError;

    fn from_str(name: &str) -> Result<Self, PatternError> {
        Reduction::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| {
                PatternError::unplaced(ErrorKind::UnknownReduction {
                    name: name.to_owned(),
                })
            })
    }
}

impl fmt::Display for Reduction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a pattern is used for.
///
/// # Example
/// ```
/// use axial_pattern::{Operation, Reduction};
/// assert_eq!(Operation::Reduce(Reduction::Max).name(), "max");
/// assert_eq!(Operation::Repeat.name(), "repeat");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// `rearrange`: the same axes on both sides.
    Rearrange,
    /// `reduce`: axes missing on the right are reduced.
    Reduce(Reduction),
    /// `repeat`: axes new on the right are repeated.
    Repeat,
}

impl Operation {
    /// The name einops uses in `Error while processing {name}-reduction pattern`.
    ///
    /// ```
    /// # use axial_pattern::Operation;
    /// assert_eq!(Operation::Rearrange.name(), "rearrange");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Operation::Rearrange => "rearrange",
            Operation::Reduce(r) => r.name(),
            Operation::Repeat => "repeat",
        }
    }
}
