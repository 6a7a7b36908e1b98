//! The left side of a pattern read against the names of the tensor's axes
//! (when the tensor has names): each dim on a named axis names it. A bare
//! axis is the axis of that name; a group that splits a named axis names
//! it among its parts (the others are new names), or is exactly the parts
//! of a composed axis `(A B)`; an anonymous axis (`None`) takes any dim.
//!
//! This is the rule the typed macros prove while compiling; here it is an
//! error at run time, for names that are only known then.

use crate::{Atom, Dim, ErrorKind, Pattern, PatternError};

impl Pattern {
    /// Checks the left side against `names`, the names of the tensor's axes
    /// (`None` for an anonymous axis), outermost first. A tensor of another
    /// rank than the left side is left to [`Recipe::transform`](crate::Recipe::transform),
    /// which says so in einops' words.
    ///
    /// # Errors
    /// A bare axis of the pattern on an axis of another name
    /// ([`ErrorKind::AxisNameDiffers`]), or a group on a named axis that
    /// neither names it nor composes it ([`ErrorKind::GroupWithoutAxis`]),
    /// with the span of the dim.
    ///
    /// ```
    /// # use axial_pattern::{ErrorKind, Pattern};
    /// let p = Pattern::parse("B C (Width P) (Height Q) -> B (Height Width) (C P Q)")?;
    /// let names = [Some("B"), Some("C"), Some("Height"), Some("Width")];
    /// let err = p.check_names(&names).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the group (Width P) splits axis `Height`, but does not name it: name it among the group's parts, as (Height ..)"
    /// );
    /// assert_eq!(err.span().map(|s| s.text(p.text())), Some("(Width P)"));
    /// let right = Pattern::parse("B C (Height P) (Width Q) -> B (Height Width) (C P Q)")?;
    /// assert!(right.check_names(&names).is_ok());
    /// // Anonymous axes take any group; `...` any axes.
    /// assert!(p.check_names(&[None, None, None, None]).is_ok());
    /// assert!(Pattern::parse("B ... -> B")?.check_names(&[Some("B"), Some("X")]).is_ok());
    /// # Ok::<(), axial_pattern::PatternError>(())
    /// ```
    pub fn check_names(&self, names: &[Option<&str>]) -> Result<(), PatternError> {
        let dims = &self.input().dims;
        let at = dims.iter().position(Dim::is_ellipsis);
        let fixed = dims.len() - usize::from(at.is_some());
        if names.len() < fixed || (at.is_none() && names.len() != fixed) {
            return Ok(());
        }
        let (front, back) = match at {
            Some(at) => (&dims[..at], &dims[at + 1..]),
            None => (&dims[..], &dims[dims.len()..]),
        };
        let back_names = &names[names.len() - back.len()..];
        for (dim, name) in front.iter().zip(names).chain(back.iter().zip(back_names)) {
            if let Some(name) = name {
                check_dim(self, dim, name)?;
            }
        }
        Ok(())
    }
}

/// One dim of the left side on the axis called `name`.
fn check_dim(pattern: &Pattern, dim: &Dim, name: &str) -> Result<(), PatternError> {
    let names: Vec<&str> = dim.atoms.iter().filter_map(Atom::name).collect();
    if !dim.parenthesized {
        return match names.as_slice() {
            [own] if *own != name => Err(PatternError::at(
                ErrorKind::AxisNameDiffers {
                    pattern: (*own).to_owned(),
                    axis: name.to_owned(),
                },
                dim.span,
            )),
            _ => Ok(()),
        };
    }
    let composed = format!("({})", names.join(" "));
    if names.contains(&name) || composed == name || dim.atoms.is_empty() {
        return Ok(());
    }
    Err(PatternError::at(
        ErrorKind::GroupWithoutAxis {
            group: dim.span.text(pattern.text()).to_owned(),
            axis: name.to_owned(),
        },
        dim.span,
    ))
}

#[cfg(test)]
mod tests {
    use crate::{ErrorKind, Pattern};

    fn kind(pattern: &str, names: &[Option<&str>]) -> Option<ErrorKind> {
        Pattern::parse(pattern)
            .and_then(|p| p.check_names(names))
            .err()
            .map(|e| e.kind().clone())
    }

    #[test]
    fn groups_name_the_axis_they_split() {
        let hw = [Some("B"), Some("C"), Some("H"), Some("W")];
        assert_eq!(kind("B C (H P) (W Q) -> B H W (C P Q)", &hw), None);
        assert_eq!(
            kind("B C (W P) (H Q) -> B H W (C P Q)", &hw),
            Some(ErrorKind::GroupWithoutAxis {
                group: "(W P)".into(),
                axis: "H".into()
            })
        );
        // A group may name its axis anywhere among its parts.
        assert_eq!(kind("B C (P H) (W Q) -> B H W (C P Q)", &hw), None);
        // A composed axis splits back into exactly its parts.
        let composed = [Some("B"), Some("(H W)")];
        assert_eq!(kind("B (H W) -> B H W", &composed), None);
        assert!(kind("B (W H) -> B H W", &composed).is_some());
        // `()` takes a unit axis whatever its name.
        assert_eq!(kind("B () -> B", &[Some("B"), Some("One")]), None);
    }

    #[test]
    fn bare_axes_are_the_axes_of_that_name() {
        assert_eq!(
            kind("B W -> W B", &[Some("B"), Some("H")]),
            Some(ErrorKind::AxisNameDiffers {
                pattern: "W".into(),
                axis: "H".into()
            })
        );
        assert_eq!(kind("B W -> W B", &[Some("B"), None]), None);
        // With `...`, the dims after it take the last axes.
        assert_eq!(
            kind(
                "B ... W -> B W ...",
                &[Some("B"), Some("X"), Some("Y"), Some("W")]
            ),
            None
        );
        assert!(kind("B ... W -> B W ...", &[Some("B"), Some("X"), Some("Y")]).is_some());
        // Another rank is left to the recipe, which says it in einops' words.
        assert_eq!(kind("B W -> W B", &[Some("B")]), None);
    }
}
