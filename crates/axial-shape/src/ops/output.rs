//! The output shapes of the views that take a list, as aliases whose trait
//! has the list as `Self`. A method's return type names these: while rustc
//! looks a method up it does not know the list yet, and with the list first
//! it stops at once instead of trying every list.

use super::{AlignAs, AlignTo, Merge, RefineNames};

/// The shape `align_to::<L>()` gives on `S`.
pub type Aligned<S, L> = <L as AlignOutput<S>>::Output;
/// The shape `align_as` a tensor of shape `Other` gives on `S`.
pub type AlignedAs<S, Other> = <Other as AlignAsOutput<S>>::Output;
/// The shape `merge::<L, New>()` gives on `S`.
pub type Merged<S, L, New> = <L as MergeOutput<S, New>>::Output;
/// The shape `refine_names::<L>()` gives on `S`.
pub type Refined<S, L> = <L as RefineOutput<S>>::Output;

/// [`Aligned`]'s trait.
pub trait AlignOutput<S> {
    /// The output shape.
    type Output;
}
impl<L, S: AlignTo<L>> AlignOutput<S> for L {
    type Output = S::Output;
}

/// [`AlignedAs`]'s trait, and what `align_as` names in its `where` clause
/// (its other operand's shape is known only from the argument).
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
pub trait MergeOutput<S, New> {
    /// The output shape.
    type Output;
}
impl<L, S: Merge<L, New>, New> MergeOutput<S, New> for L {
    type Output = S::Output;
}

/// [`Refined`]'s trait.
pub trait RefineOutput<S> {
    /// The output shape.
    type Output;
}
impl<L, S: RefineNames<L>> RefineOutput<S> for L {
    type Output = S::Output;
}
