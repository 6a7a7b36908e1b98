//! The einops macros: declarative wrappers that hand `axial`'s path to the
//! procedural macros of `axial-macros`.

/// einops' `rearrange`, checked while the program compiles:
/// `rearrange!(x, "Batch Channels Rows Cols -> Batch Rows Cols Channels")`.
///
/// The pattern is einops' (`left -> right`, space-separated) and its names
/// are axis types in scope (declared with `axes!`, so spelled as types:
/// einops' lowercase `"b h w"` is a compile error that says what to write):
/// - the left side names the tensor's axes **in order** (a mistake is a
///   compile error naming the pattern's axis and the tensor's); `...` stands
///   for the axes not named; `1` or `()` takes an axis of size 1;
/// - a group on the left decomposes the axis at its place into its parts,
///   which are the names of the result, as written. On a named axis the
///   group is made of that axis' name and of names the tensor does not
///   have: `(Rows P)` on `Rows` splits it into a `Rows` of the size left
///   after the others and a new `P`; `(Heads HeadDim)` on `Inner` splits it
///   into two new axes, and `Inner` is gone. A group that uses the name of
///   *another* axis of the tensor, such as `(Cols P)` or `(Rows Cols)` on
///   `Rows` (the NCHW/NHWC mistake of patch code, which would come out with
///   the type of the right one), is a compile error. A merged
///   `Composed<(Rows, Cols)>` axis splits back into `(Rows Cols)` or into new
///   names, an anonymous axis into any group. Give every size but one after
///   the pattern, `P = 2` (a literal, proven to divide a static size) or
///   `P = n` (any `usize` expression, checked at run time);
/// - the right side has the same axes in any order; a group `(C H W)` merges
///   them into one axis named [`Composed<(C, H, W)>`](crate::Composed) of the
///   product of their sizes; `1` or `()` adds an axis of size 1
///   ([`Unnamed<i>`](crate::Unnamed), `i` its position on the right).
///
/// The result is a view whenever einops' is (einops' torch recipe runs on
/// the layout). When the right side merges no axes it is always one, in the
/// input's storage kind (a mutable view stays writable); otherwise it may be
/// a copy, as [`reshape`](crate::TensorBase::reshape)'s (`R::MaybeCopy`).
///
/// # Panics
/// A size known only at run time that does not fit (only with `Dyn` sizes
/// or run-time values): use [`try_rearrange!`](crate::try_rearrange) for a `Result`. A fully
/// static call cannot panic.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(Batch, Channels, Rows, Cols, P);
/// let x = Tensor::<f32, shape![Batch: 2, Channels: 3, Rows: 4, Cols: 5]>::arange();
/// let nhwc = rearrange!(x.as_view(), "Batch Channels Rows Cols -> Batch Rows Cols Channels");
/// assert_eq!(nhwc.strides().as_slice(), &[60, 5, 1, 20]);
/// let flat = rearrange!(x.as_view(), "Batch Channels Rows Cols -> Batch (Channels Rows Cols)");
/// assert_eq!(flat.names().as_slice(), &[Some("Batch"), Some("(Channels Rows Cols)")]);
/// let halves = rearrange!(x.as_view(), "Batch Channels (Rows P) Cols -> Batch Channels Rows P Cols", P = 2);
/// assert_eq!(halves.sizes().as_slice(), &[2, 3, 2, 2, 5]);
/// ```
///
/// The head split of attention: `Inner` becomes the new axes `Heads` and
/// `HeadDim` (384 / 12 = 32, inferred while compiling).
/// ```
/// use axial::prelude::*;
/// axes!(Batch, Seq, Inner, Heads, HeadDim);
/// let q = Tensor::<f32, shape![Batch: 2, Seq: 5, Inner: 384]>::zeros();
/// let heads = rearrange!(q.as_view(), "Batch Seq (Heads HeadDim) -> Batch Heads Seq HeadDim", Heads = 12);
/// let _: &TensorView<'_, f32, shape![Batch: 2, Heads: 12, Seq: 5, HeadDim: 32]> = &heads;
/// ```
#[macro_export]
macro_rules! rearrange {
    ($($tokens:tt)*) => { $crate::__private::rearrange_impl!{ [$crate] $($tokens)* } };
}

/// [`rearrange!`](crate::rearrange) giving a `Result`: the errors sizes known only at run time
/// leave, in einops' words.
///
/// # Errors
/// A `Dyn` axis or a run-time size that does not fit the pattern.
///
/// ```
/// use axial::prelude::*;
/// axes!(Batch, Rows, Cols);
/// // The second axis is anonymous, so any group may split it.
/// let x = Tensor::<f32, shape![Batch: 2, Dyn]>::zeros_dyn(6);
/// let ok = try_rearrange!(x.as_view(), "Batch (Rows Cols) -> Batch Rows Cols", Cols = 3)?;
/// assert_eq!(ok.sizes().as_slice(), &[2, 2, 3]);
/// let err = try_rearrange!(x.as_view(), "Batch (Rows Cols) -> Batch Rows Cols", Cols = 4).unwrap_err();
/// assert!(err.to_string().ends_with("Shape mismatch, can't divide axis of length 6 in chunks of 4"));
/// # Ok::<(), axial::Error>(())
/// ```
#[macro_export]
macro_rules! try_rearrange {
    ($($tokens:tt)*) => { $crate::__private::try_rearrange_impl!{ [$crate] $($tokens)* } };
}

/// einops' `repeat`, checked while the program compiles:
/// `repeat!(x, "Rows Cols -> Rows Cols Copies", Copies = 3)`.
///
/// The pattern is as [`rearrange!`](crate::rearrange)'s, except that the right side may add
/// axes: a name not on the left (its size given after the pattern, a
/// literal or a run-time value) or an anonymous length (`3`, named
/// [`Unnamed<i>`](crate::Unnamed)). New axes are stride-0 views, so the
/// result is read-only; it is copied only where einops copies (a new axis
/// merged into a group).
///
/// # Panics
/// As [`rearrange!`](crate::rearrange); use [`try_repeat!`](crate::try_repeat) for a `Result`.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols, Copies);
/// let x = Tensor::<f32, shape![Rows: 30, Cols: 40]>::zeros();
/// let y = repeat!(x.as_view(), "Rows Cols -> Rows Cols Copies", Copies = 3);
/// assert_eq!(y.strides().as_slice(), &[40, 1, 0]);
/// assert!(y.shares_storage_with(&x));
/// let tiled = repeat!(x.as_view(), "Rows Cols -> (Copies Rows) Cols", Copies = 2);
/// assert_eq!(tiled.sizes().as_slice(), &[60, 40]);
/// ```
#[macro_export]
macro_rules! repeat {
    ($($tokens:tt)*) => { $crate::__private::repeat_impl!{ [$crate] $($tokens)* } };
}

/// [`repeat!`](crate::repeat) giving a `Result`.
///
/// # Errors
/// A `Dyn` axis or a run-time size that does not fit the pattern.
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Copies);
/// let x = Tensor::<f32, shape![Rows: 3]>::zeros();
/// let n = 4;
/// let y = try_repeat!(x.as_view(), "Rows -> Copies Rows", Copies = n)?;
/// assert_eq!(y.sizes().as_slice(), &[4, 3]);
/// # Ok::<(), axial::Error>(())
/// ```
#[macro_export]
macro_rules! try_repeat {
    ($($tokens:tt)*) => { $crate::__private::try_repeat_impl!{ [$crate] $($tokens)* } };
}

/// einops' `reduce`, checked while the program compiles:
/// `reduce!(x, "Batch Channels Rows Cols -> Batch Channels", mean)`.
///
/// The pattern is as [`rearrange!`](crate::rearrange)'s, except that axes of the left side
/// missing on the right are reduced (anonymous lengths such as `(Rows 2)`
/// are allowed on the left) by `min`, `max`, `sum`, `mean`, `prod`, `any` or
/// `all`. The result is a new tensor whose dtype is PyTorch's: `sum` and
/// `prod` of integers and bools give `i64`, `any` and `all` give bools (`u8`
/// stays `u8`), and `mean` of integers is a compile error.
///
/// # Panics
/// As [`rearrange!`](crate::rearrange), and an empty axis reduced by `min` or `max`; use
/// [`try_reduce!`](crate::try_reduce) for a `Result`.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(Batch, Channels, Rows, Cols);
/// let x = Tensor::<f32, shape![Batch: 2, Channels: 3, Rows: 4, Cols: 6]>::arange();
/// let pooled = reduce!(x.as_view(), "Batch Channels (Rows 2) (Cols 2) -> Batch Channels Rows Cols", max);
/// assert_eq!(pooled.sizes().as_slice(), &[2, 3, 2, 3]);
/// assert_eq!(pooled.get([0, 0, 0, 0]), 7.0);
/// ```
#[macro_export]
macro_rules! reduce {
    ($($tokens:tt)*) => { $crate::__private::reduce_impl!{ [$crate] $($tokens)* } };
}

/// [`reduce!`](crate::reduce) giving a `Result`.
///
/// # Errors
/// A `Dyn` axis or a run-time size that does not fit the pattern; the
/// reduction's errors.
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Cols);
/// let x = Tensor::<f64, shape![Rows: 2, Cols: 3]>::arange();
/// let m = try_reduce!(x.as_view(), "Rows Cols -> Rows", mean)?;
/// assert_eq!(m.to_vec(), vec![1.0, 4.0]);
/// # Ok::<(), axial::Error>(())
/// ```
#[macro_export]
macro_rules! try_reduce {
    ($($tokens:tt)*) => { $crate::__private::try_reduce_impl!{ [$crate] $($tokens)* } };
}

/// einops' `einsum`, checked while the program compiles:
/// `einsum!("Batch Rows Inner, Batch Inner Cols -> Batch Rows Cols", a, b)`.
///
/// The pattern comes first, then one tensor per input (a tensor, a view, or
/// a reference to one at any depth, as code holding a `&Tensor` has it; each
/// is borrowed; one element type and one device). Each input's names are the operand's axes in order
/// (`...` for axes not named: the same axes in every operand that has
/// some); a name shared by operands must have one size (proven when static,
/// checked at run time with `Dyn`); the output names axes of the inputs, and
/// the names missing from it are summed. The result is a new tensor, each
/// contraction of two operands one batched matmul.
///
/// # Panics
/// Sizes known only at run time that disagree: use [`try_einsum!`](crate::try_einsum) for a
/// `Result`.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(Batch, Rows, Inner, Cols);
/// let a = Tensor::<f32, shape![Batch: 2, Rows: 2, Inner: 3]>::arange();
/// let b = Tensor::<f32, shape![Batch: 2, Inner: 3, Cols: 1]>::ones();
/// let c = einsum!("Batch Rows Inner, Batch Inner Cols -> Batch Rows Cols", a, b);
/// assert_eq!(c.names().as_slice(), &[Some("Batch"), Some("Rows"), Some("Cols")]);
/// assert_eq!(c.to_vec(), vec![3.0, 12.0, 21.0, 30.0]);
/// ```
#[macro_export]
macro_rules! einsum {
    ($($tokens:tt)*) => { $crate::__private::einsum_impl!{ [$crate] $($tokens)* } };
}

/// [`einsum!`](crate::einsum) giving a `Result`.
///
/// # Errors
/// Sizes known only at run time that disagree (PyTorch's message).
///
/// ```
/// use axial::prelude::*;
/// axes!(Rows, Inner);
/// let a = Tensor::<f32, shape![Rows: 2, Inner: Dyn]>::zeros_dyn(3);
/// let b = Tensor::<f32, shape![Inner: Dyn]>::zeros_dyn(4);
/// assert!(try_einsum!("Rows Inner, Inner -> Rows", a, b).is_err());
/// ```
#[macro_export]
macro_rules! try_einsum {
    ($($tokens:tt)*) => { $crate::__private::try_einsum_impl!{ [$crate] $($tokens)* } };
}
