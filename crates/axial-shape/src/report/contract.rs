//! Reductions and products: each axis reduced once, contracted axes that
//! agree, a `matmul` result that names each axis once.

use crate::logic::{B0, B1};

/// `matmul` contracts axes of one name, or an anonymous one (`Self`:
/// whether so).
///
/// What [`MatMul`](crate::MatMul) asks of the contracted axes: one name, or
/// an anonymous one.
/// ```
/// use axial_shape::{MatMul, Shape, axes, shape};
/// axes!(Rows, Inner, Cols);
/// type Out = <shape![Rows: 2, Inner: 3] as MatMul<shape![3, Cols: 4]>>::Output;
/// let mut names = [None; 2];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("Rows"), Some("Cols")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Left}` by `{Right}`: the contracted axes `{A}` and `{B}` have different names",
    label = "contracted axes differ",
    note = "`matmul` contracts the last axis of the left operand with the second-to-last of the right; `align_to` or `rename` to line them up"
)]
pub trait ContractNames<A, B, Left, Right> {}
#[diagnostic::do_not_recommend]
impl<A, B, Left, Right> ContractNames<A, B, Left, Right> for B1 {}

/// `matmul` contracts axes of one size.
///
/// What [`MatMul`](crate::MatMul) asks of the contracted axes: one size
/// (`Unknown` with a `Dyn` one, checked at run time).
/// ```
/// use axial_shape::report::ContractSizes;
/// use axial_shape::{Dyn, SizeEq, Truth, axes};
/// use typenum::U3;
/// axes!(Inner);
/// fn contract<SA: SizeEq<SB>, SB>() -> Option<bool>
/// where
///     SA::Out: ContractSizes<Inner, Inner, (Inner,), (Inner,)>,
/// {
///     <SA::Out as Truth>::VALUE
/// }
/// assert_eq!(contract::<U3, U3>(), Some(true));
/// assert_eq!(contract::<Dyn, U3>(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Left}` by `{Right}`: the contracted axes `{A}` (left) and `{B}` (right) have different sizes",
    label = "contracted sizes differ",
    note = "a `Dyn` size would defer this check to run time"
)]
pub trait ContractSizes<A, B, Left, Right> {}
holds_or_unknown!(ContractSizes<A, B, Left, Right>);

/// The product of `matmul` names each axis once (`Self`: whether the rest
/// names `A` again).
///
/// What [`MatMul`](crate::MatMul) asks of each axis of the product: the rest
/// does not name it again (`B0`).
/// ```
/// use axial_shape::report::MatMulNames;
/// use axial_shape::{Contains, Truth, axes, shape};
/// axes!(Rows, Inner, Cols);
/// fn once<Rest: Contains<A>, A>() -> Option<bool>
/// where
///     Rest::Out: MatMulNames<A, (Rows, Inner), (Inner, Cols)>,
/// {
///     <Rest::Out as Truth>::VALUE
/// }
/// assert_eq!(once::<shape![Cols: 4], Rows>(), Some(false));
/// ```
#[diagnostic::on_unimplemented(
    message = "`matmul` of `{Left}` by `{Right}` would name axis `{A}` twice",
    label = "`{A}` twice in the product",
    note = "`rename::<Old, New>()` one of them first"
)]
pub trait MatMulNames<A, Left, Right> {}
#[diagnostic::do_not_recommend]
impl<A, Left, Right> MatMulNames<A, Left, Right> for B0 {}

/// `matmul` needs an axis on each side (`Self`: the empty shape).
///
/// Never implemented: reached only for an operand without axes, so a
/// [`MatMul`](crate::MatMul) that holds has at least one axis on each side.
/// ```
/// use axial_shape::{MatMul, Shape, axes, shape};
/// axes!(Inner, Cols);
/// type Out = <shape![Inner: 3] as MatMul<shape![Inner: 3, Cols: 4]>>::Output;
/// let mut names = [None; 1];
/// Out::write_names(&mut names);
/// assert_eq!(names, [Some("Cols")]);
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot multiply `{Left}` by `{Right}`: both operands need at least one axis",
    label = "a tensor without axes"
)]
pub trait MatMulRank<Left, Right> {}
