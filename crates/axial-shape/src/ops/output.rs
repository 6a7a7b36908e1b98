//! The output shapes of the views that take a list, as aliases whose trait
//! has the list as `Self`. A method's return type names these: while rustc
//! looks a method up it does not know the list yet, and with the list first
//! it stops at once instead of trying every list.

use super::{AlignAs, AlignTo, Merge, RefineNames};

/// The shape `align_to::<L>()` gives on `S`.
///
/// ```
/// use axial_shape::{Aligned, Shape, axes, names, shape};
/// axes!(N, C, H);
/// type Out = Aligned<shape![N: 2, C: 3, H: 4], names![H, ...]>;
/// let mut names = [None; 3];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("H"), Some("N"), Some("C")]);
/// ```
pub type Aligned<S, L> = <L as AlignOutput<S>>::Output;
/// The shape `align_as` a tensor of shape `Other` gives on `S`.
///
/// ```
/// use axial_shape::{AlignedAs, Shape, axes, shape};
/// axes!(N, C, H);
/// // a tensor of shape (C) aligned as one of (N, C, H)
/// type Out = AlignedAs<shape![C: 3], shape![N: 2, C: 3, H: 4]>;
/// let mut sizes = [None; 3];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(1), Some(3), Some(1)]);
/// ```
pub type AlignedAs<S, Other> = <Other as AlignAsOutput<S>>::Output;
/// The shape `merge::<L, New>()` gives on `S`.
///
/// ```
/// use axial_shape::{Merged, Shape, axes, names, shape};
/// axes!(N, H, W, HW);
/// type Out = Merged<shape![N: 2, H: 3, W: 4], names![H, W], HW>;
/// let mut sizes = [None; 2];
/// Out::write_static_sizes(&mut sizes);
/// assert_eq!(sizes, [Some(2), Some(12)]);
/// ```
pub type Merged<S, L, New> = <L as MergeOutput<S, New>>::Output;
/// The shape `refine_names::<L>()` gives on `S`.
///
/// ```
/// use axial_shape::{Refined, Shape, axes, names, shape};
/// axes!(Rows, Cols);
/// type Out = Refined<shape![3, 4], names![Rows, Cols]>;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("Rows"), Some("Cols")]);
/// ```
pub type Refined<S, L> = <L as RefineOutput<S>>::Output;

/// [`Aligned`]'s trait.
///
/// ```
/// use axial_shape::{AlignOutput, Shape, axes, names, shape};
/// axes!(N, C);
/// // the list first, as a method's return type names it
/// fn align_to<S, L: AlignOutput<S>>() -> usize
/// where
///     L::Output: Shape,
/// {
///     <L::Output as Shape>::RANK
/// }
/// assert_eq!(align_to::<shape![N: 2, C: 3], names![C, N]>(), 2);
/// ```
pub trait AlignOutput<S> {
    /// The output shape.
    type Output;
}
impl<L, S: AlignTo<L>> AlignOutput<S> for L {
    type Output = S::Output;
}

/// [`AlignedAs`]'s trait, and what `align_as` names in its `where` clause
/// (its other operand's shape is known only from the argument).
///
/// ```
/// use axial_shape::{AlignAsOutput, axes, shape};
/// axes!(N, C, H);
/// let mut plan = [None; 3];
/// <shape![N: 2, C: 3, H: 4] as AlignAsOutput<shape![H: 4, N: 2]>>::plan(&mut plan);
/// assert_eq!(plan, [Some(1), None, Some(0)]);
/// ```
pub trait AlignAsOutput<S> {
    /// The output shape.
    type Output;
    /// As [`AlignAs::plan`](super::AlignAs::plan).
    fn plan(out: &mut [Option<usize>]);
}
impl<Other, S: AlignAs<Other>> AlignAsOutput<S> for Other {
    type Output = S::Output;

    fn plan(out: &mut [Option<usize>]) {
        <S as AlignAs<Other>>::plan(out);
    }
}

/// [`Merged`]'s trait.
///
/// ```
/// use axial_shape::{MergeOutput, Shape, axes, names, shape};
/// axes!(H, W, HW);
/// fn merge<S, L: MergeOutput<S, New>, New>() -> usize
/// where
///     L::Output: Shape,
/// {
///     <L::Output as Shape>::RANK
/// }
/// assert_eq!(merge::<shape![H: 3, W: 4], names![H, W], HW>(), 1);
/// ```
pub trait MergeOutput<S, New> {
    /// The output shape.
    type Output;
}
impl<L, S: Merge<L, New>, New> MergeOutput<S, New> for L {
    type Output = S::Output;
}

/// [`Refined`]'s trait.
///
/// ```
/// use axial_shape::{RefineOutput, Shape, axes, names, shape};
/// axes!(Rows);
/// fn refine<S, L: RefineOutput<S>>() -> usize
/// where
///     L::Output: Shape,
/// {
///     <L::Output as Shape>::RANK
/// }
/// assert_eq!(refine::<shape![3, 4], names![Rows, _]>(), 2);
/// ```
pub trait RefineOutput<S> {
    /// The output shape.
    type Output;
}
impl<L, S: RefineNames<L>> RefineOutput<S> for L {
    type Output = S::Output;
}
