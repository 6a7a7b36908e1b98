//! einops' checks of a pattern against its operation
//! (`_prepare_transformation_recipe`, before any shape is known), in einops'
//! order, each error pointing at the first axis it names.

use crate::{Atom, AxisName, ErrorKind, Expression, Operation, Pattern, PatternError, Span};

/// True when two axes are the same axis: equal names, both `...`, or the very
/// same anonymous axis (two anonymous axes are never equal in einops).
pub(crate) fn same_axis(a: &Atom, b: &Atom) -> bool {
    match (a, b) {
        (Atom::Named { name: x, .. }, Atom::Named { name: y, .. }) => x == y,
        (Atom::Ellipsis { .. }, Atom::Ellipsis { .. }) => true,
        (Atom::Anonymous { span: x, .. }, Atom::Anonymous { span: y, .. }) => x == y,
        _ => false,
    }
}

/// The axis as einops prints it.
pub(crate) fn axis_name(atom: &Atom) -> AxisName {
    match atom {
        Atom::Named { name, .. } => AxisName::Named(name.clone()),
        Atom::Anonymous { size, .. } => AxisName::Anonymous(*size),
        Atom::Ellipsis { .. } => AxisName::Ellipsis,
    }
}

/// Axes of `a` that `b` lacks, in order.
fn only_in<'a>(a: &'a Expression, b: &'a Expression) -> impl Iterator<Item = &'a Atom> {
    a.atoms()
        .filter(move |x| !b.atoms().any(|y| same_axis(x, y)))
}

/// An error naming `axes` (Python-set style) at the first of them, or `Ok`
/// when there are none.
fn refuse<'a>(
    axes: impl IntoIterator<Item = &'a Atom>,
    kind: impl FnOnce(Vec<AxisName>) -> ErrorKind,
) -> Result<(), PatternError> {
    let axes: Vec<&Atom> = axes.into_iter().collect();
    match axes.first() {
        None => Ok(()),
        Some(first) => Err(PatternError::at(
            kind(axes.iter().map(|a| axis_name(a)).collect()),
            first.span(),
        )),
    }
}

/// A pattern of several inputs used where one is expected: the comma is what
/// einops would refuse.
fn check_single_input(pattern: &Pattern) -> Result<(), PatternError> {
    match pattern.inputs().get(1) {
        None => Ok(()),
        Some(second) => {
            let comma = second.span.start.saturating_sub(1);
            Err(PatternError::at(
                ErrorKind::UnknownCharacter(','),
                Span::new(comma, comma + 1),
            ))
        }
    }
}

/// einops' checks of `pattern` for `operation`, with sizes given for the axes
/// named `sized` (only repeat looks at them here).
pub(crate) fn check_operation(
    pattern: &Pattern,
    operation: Operation,
    sized: &[&str],
) -> Result<(), PatternError> {
    check_single_input(pattern)?;
    let (left, right) = (pattern.input(), pattern.output());
    if let (None, Some((span, _))) = (left.ellipsis(), right.ellipsis()) {
        return Err(PatternError::at(
            ErrorKind::EllipsisOnlyOnRight {
                pattern: pattern.text().to_owned(),
            },
            span,
        ));
    }
    if let Some((span, true)) = left.ellipsis() {
        return Err(PatternError::at(
            ErrorKind::EllipsisInParenthesis {
                pattern: pattern.text().to_owned(),
            },
            span,
        ));
    }
    match operation {
        Operation::Rearrange => {
            let anonymous = left
                .atoms()
                .chain(right.atoms())
                .find(|a| matches!(a, Atom::Anonymous { .. }));
            if let Some(atom) = anonymous {
                return Err(PatternError::at(
                    ErrorKind::NonUnitaryAnonymousAxes,
                    atom.span(),
                ));
            }
            refuse(only_in(left, right).chain(only_in(right, left)), |axes| {
                ErrorKind::OneSidedIdentifiers { axes }
            })
        }
        Operation::Repeat => {
            refuse(only_in(left, right), |axes| {
                ErrorKind::UnexpectedLeftOfRepeat { axes }
            })?;
            let without_size = only_in(right, left)
                .filter(|a| matches!(a.name(), Some(name) if !sized.contains(&name)));
            refuse(without_size, |axes| ErrorKind::MissingRepeatSizes { axes })
        }
        Operation::Reduce(reduction) => refuse(only_in(right, left), |axes| {
            ErrorKind::UnexpectedRightOfReduce { reduction, axes }
        }),
    }
}
