//! The one error type of the runtime core.

use crate::DType;

/// What went wrong, worded as PyTorch words it, naming the op, the sizes and the dim.
///
/// # Example
/// ```
/// use axial_core::{Error, Layout};
/// let x = Layout::contiguous(&[3, 4, 5]);
/// let err = x.select(0, 3).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "select(): index 3 out of range for tensor of size [3, 4, 5] at dimension 0"
/// );
/// assert!(matches!(err, Error::IndexOutOfRange { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A dim argument outside `[-rank, rank - 1]`.
    #[error("Dimension out of range (expected to be in range of [{}, {}], but got {dim})", -(rank.max(&1).min(&(isize::MAX as usize)).cast_signed()), rank.max(&1).min(&(isize::MAX as usize)).cast_signed() - 1)]
    DimOutOfRange {
        /// The dim asked for.
        dim: isize,
        /// The tensor's rank.
        rank: usize,
    },
    /// An index outside a dim (`select`, integer indexing).
    #[error("{op}(): index {index} out of range for tensor of size {shape:?} at dimension {dim}")]
    IndexOutOfRange {
        /// The op.
        op: &'static str,
        /// The index asked for.
        index: isize,
        /// The dim indexed.
        dim: usize,
        /// The tensor's shape.
        shape: Vec<usize>,
    },
    /// An element index outside its dim (indexing with integers).
    #[error("index {index} is out of bounds for dimension {dim} with size {size}")]
    IndexOutOfBounds {
        /// The index asked for.
        index: isize,
        /// The dim indexed.
        dim: usize,
        /// The dim's size.
        size: usize,
    },
    /// `view` asked of a layout it cannot express without a copy.
    #[error(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."
    )]
    NotViewable,
    /// A target shape whose element count differs from the input's.
    #[error("shape '{shape:?}' is invalid for input of size {numel}")]
    InvalidShape {
        /// The shape asked for (with any `-1`).
        shape: Vec<isize>,
        /// The input's element count.
        numel: usize,
    },
    /// Two shapes that do not broadcast.
    #[error(
        "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim}"
    )]
    Broadcast {
        /// Size in the first operand.
        a: usize,
        /// Size in the second operand.
        b: usize,
        /// The dim, counted in the broadcast result.
        dim: usize,
    },
    /// `expand` to a size other than a dim's own, which is not 1.
    #[error(
        "expand: The expanded size of the tensor ({target}) must match the existing size ({size}) at non-singleton dimension {dim}.  Target sizes: {sizes:?}.  Tensor sizes: {shape:?}"
    )]
    Expand {
        /// The size asked for.
        target: isize,
        /// The dim's size.
        size: usize,
        /// The dim, counted in the target sizes.
        dim: usize,
        /// The target sizes.
        sizes: Vec<isize>,
        /// The tensor's shape.
        shape: Vec<usize>,
    },
    /// An in-place op whose broadcast result is not the output's shape.
    #[error("output with shape {output:?} doesn't match the broadcast shape {broadcast:?}")]
    InPlaceShape {
        /// The written-to tensor's shape.
        output: Vec<usize>,
        /// The broadcast shape of the operands.
        broadcast: Vec<usize>,
    },
    /// An `as_strided` (or a layout) that reaches past the end of its storage.
    #[error(
        "setStorage: sizes {sizes:?}, strides {strides:?}, storage offset {offset}, and itemsize {itemsize} requiring a storage size of {required} are out of bounds for storage of size {available}"
    )]
    OutOfBounds {
        /// Sizes asked for.
        sizes: Vec<usize>,
        /// Strides asked for.
        strides: Vec<isize>,
        /// Storage offset asked for.
        offset: usize,
        /// Element size in bytes.
        itemsize: usize,
        /// Bytes the layout needs.
        required: usize,
        /// Bytes the storage has.
        available: usize,
    },
    /// A write into a layout where two elements share one memory location.
    #[error(
        "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
    )]
    InternalOverlap,
    /// A write whose input partly aliases the output.
    #[error(
        "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation."
    )]
    PartialOverlap,
    /// Operands of different dtypes where one is required.
    #[error("{op}: expected dtype {expected}, got {got}")]
    DTypeMismatch {
        /// The op.
        op: &'static str,
        /// The dtype required.
        expected: DType,
        /// The dtype given.
        got: DType,
    },
    /// An op that does not exist for a dtype.
    #[error("\"{op}\" not implemented for '{}'", dtype.scalar_type_name())]
    Unsupported {
        /// The op.
        op: &'static str,
        /// The dtype given.
        dtype: DType,
    },
    /// A result that cannot be cast to the output's dtype.
    #[error(
        "result type {} can't be cast to the desired output type {}",
        from.scalar_type_name(),
        to.scalar_type_name()
    )]
    CannotCast {
        /// The computed dtype.
        from: DType,
        /// The output's dtype.
        to: DType,
    },
    /// A storage of another size than the layout or data needs.
    #[error("{op}: expected {expected} elements, got {got}")]
    ElementCount {
        /// The op.
        op: &'static str,
        /// Elements needed.
        expected: usize,
        /// Elements given.
        got: usize,
    },
    /// Matrix operands whose contracted sizes differ: `m × k` by `k2 × n`
    /// (`matmul`, `linear`), or two vectors of `k` and `k2` elements
    /// (`dot`, PyTorch's words for a `matmul` of two vectors).
    #[error("{}", contraction(op, *m, *k, *k2, *n, *vectors))]
    Contraction {
        /// The op.
        op: &'static str,
        /// Rows of the left operand.
        m: usize,
        /// Its contracted size.
        k: usize,
        /// The right operand's contracted size.
        k2: usize,
        /// Columns of the right operand.
        n: usize,
        /// Both operands are vectors.
        vectors: bool,
    },
    /// Any other invalid argument, with PyTorch's message for it.
    #[error("{op}: {message}")]
    Invalid {
        /// The op.
        op: &'static str,
        /// What is wrong, as PyTorch says it.
        message: String,
    },
    /// The device failed (allocation, a kernel launch, a copy).
    #[error("device error in {op}: {message}")]
    Device {
        /// The op.
        op: &'static str,
        /// The device's own message.
        message: String,
    },
    /// A tensor the backward pass needs was written in place after the
    /// graph kept it (PyTorch's version-counter error, at `backward`).
    #[error(
        "one of the variables needed for gradient computation has been modified by an inplace operation: [{tensor}]{} is at version {version}; expected version {expected} instead.",
        producer.map(|p| format!(", which is output 0 of {p},")).unwrap_or_default()
    )]
    ModifiedInPlace {
        /// The tensor, as PyTorch prints it (`torch.FloatTensor [3]`).
        tensor: String,
        /// The op whose output it is now, if any.
        producer: Option<&'static str>,
        /// Its version now.
        version: u64,
        /// Its version when the graph kept it.
        expected: u64,
    },
    /// An einops pattern that does not parse, does not suit its operation, or
    /// does not fit the tensor and the sizes, wrapped as einops wraps it.
    #[error("{0}")]
    Einops(Box<EinopsError>),
    /// An einops pattern error that einops reports unwrapped (`einsum`,
    /// `parse_shape`), with the span of the token it concerns.
    #[error("{op}: {error}")]
    Pattern {
        /// The op.
        op: &'static str,
        /// What einops says, and where in the pattern.
        error: Box<axial_pattern::PatternError>,
    },
}

/// The context einops adds to a pattern error: the operation, the pattern,
/// the input's shape and the sizes given; printed as einops prints it.
///
/// # Example
/// ```
/// use axial_core::{DType, Error, RawTensor, einops};
/// let x = RawTensor::zeros(&[6], DType::F32)?;
/// let Some(Error::Einops(e)) = einops::rearrange(&x.view(), "(a b) -> a b", &[("b", 4)]).err() else {
///     panic!("an einops error")
/// };
/// assert_eq!(e.error.to_string(), "Shape mismatch, can't divide axis of length 6 in chunks of 4");
/// assert_eq!(e.error.span().map(|s| s.text(&e.pattern)), Some("(a b)"));
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct EinopsError {
    /// `rearrange`, `repeat`, or the reduction's name.
    pub reduction: &'static str,
    /// The pattern.
    pub pattern: String,
    /// The input's shape (`None` for a list of tensors).
    pub shape: Option<Vec<usize>>,
    /// The sizes given, by axis name.
    pub sizes: Vec<(String, usize)>,
    /// What einops says, and where in the pattern.
    pub error: axial_pattern::PatternError,
}

impl std::fmt::Display for EinopsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            " Error while processing {}-reduction pattern \"{}\".\n ",
            self.reduction, self.pattern
        )?;
        match &self.shape {
            Some(shape) => write!(f, "Input tensor shape: {shape:?}. ")?,
            None => f.write_str("Input is list. ")?,
        }
        let sizes: Vec<String> = self
            .sizes
            .iter()
            .map(|(k, v)| format!("'{k}': {v}"))
            .collect();
        write!(
            f,
            "Additional info: {{{}}}.\n {}",
            sizes.join(", "),
            self.error
        )
    }
}

/// [`Error::Contraction`] in PyTorch's words.
fn contraction(op: &str, m: usize, k: usize, k2: usize, n: usize, vectors: bool) -> String {
    if vectors {
        format!(
            "dot: inconsistent tensor size, expected tensor [{k}] and src [{k2}] to have the same number of elements, but got {k} and {k2} elements respectively"
        )
    } else {
        format!("{op}: mat1 and mat2 shapes cannot be multiplied ({m}x{k} and {k2}x{n})")
    }
}

impl Error {
    /// An [`Error::Invalid`] with PyTorch's message.
    ///
    /// ```
    /// # use axial_core::Error;
    /// let e = Error::invalid("unfold", "step is 0 but must be > 0");
    /// assert_eq!(e.to_string(), "unfold: step is 0 but must be > 0");
    /// ```
    pub fn invalid(op: &'static str, message: impl Into<String>) -> Self {
        Error::Invalid {
            op,
            message: message.into(),
        }
    }
}

impl From<axial_pattern::PatternError> for Error {
    /// A pattern error outside any op (parsing a pattern or building a recipe
    /// ahead of time), so that `?` works on both.
    ///
    /// ```
    /// use axial_core::Error;
    /// use axial_core::einops::{Operation, Pattern, Recipe};
    /// fn recipe() -> Result<Recipe, Error> {
    ///     Ok(Recipe::new(&Pattern::parse("a b -> b c")?, Operation::Rearrange, &[])?)
    /// }
    /// assert!(matches!(recipe(), Err(Error::Pattern { op: "einops", .. })));
    /// ```
    fn from(error: axial_pattern::PatternError) -> Self {
        Error::Pattern {
            op: "einops",
            error: Box::new(error),
        }
    }
}

/// Messages that more than one op gives, each written here once.
impl Error {
    /// `t()` of a tensor of more than two dims.
    pub(crate) fn t_rank(rank: usize) -> Error {
        Error::invalid(
            "t",
            format!("t() expects a tensor with <= 2 dimensions, but self is {rank}D"),
        )
    }

    /// A layout with a negative stride, which no storage view takes.
    pub(crate) fn negative_strides(op: &'static str, strides: &[isize]) -> Error {
        Error::invalid(
            op,
            format!("Negative strides are not supported at the moment, got strides: {strides:?}"),
        )
    }

    /// A linear layer's weight that is not `[out_features, in_features]`.
    pub(crate) fn weight_not_2d(op: &'static str, shape: &[usize]) -> Error {
        Error::invalid(
            op,
            format!("weight must be 2-D (out_features, in_features), got shape {shape:?}"),
        )
    }

    /// An operand of another dtype than the op's (PyTorch's words for a
    /// weight or dense operand that must match the input).
    pub(crate) fn scalar_type(op: &'static str, expected: DType, found: DType) -> Error {
        Error::invalid(
            op,
            format!(
                "expected scalar type {} but found {}",
                expected.scalar_type_name(),
                found.scalar_type_name()
            ),
        )
    }

    /// An allocation of `bytes` that the allocator refused.
    pub(crate) fn out_of_memory(op: &'static str, bytes: usize) -> Error {
        Error::Device {
            op,
            message: format!("out of memory allocating {bytes} bytes"),
        }
    }

    /// A nested tensor asked to hold no items.
    pub(crate) fn empty_nested(op: &'static str) -> Error {
        Error::invalid(
            op,
            "Cannot construct a nested tensor from an empty tensor list",
        )
    }
}

/// `Result<T, axial_core::Error>`.
///
/// ```
/// use axial_core::layout::wrap_dim;
/// fn last_dim(rank: usize) -> axial_core::Result<usize> {
///     wrap_dim(-1, rank)
/// }
/// assert_eq!(last_dim(3)?, 2);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;
