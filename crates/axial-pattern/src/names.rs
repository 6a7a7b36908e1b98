//! The left side of a pattern read against the names of the tensor's axes
//! (when the tensor has names): each dim on a named axis names it. A bare
//! axis is the axis of that name. A group that splits a named axis is made
//! of its name and of names the tensor does not have: `(Inner P)` on
//! `Inner` (the part `Inner` keeps the name, the others are new) or
//! `(Heads HeadDim)` on `Inner`; a group on a composed axis `(A B)` is
//! exactly `(A B)`, or new names. An anonymous axis (`None`) takes any dim.
//! The names a tensor has are its axes' and those its composed axes are
//! made of, so `(W P)` or `(H W)` on `H` of a tensor that has `W` is
//! refused: it would cut an image with its axes mixed up.
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
    /// ([`ErrorKind::AxisNameDiffers`]), or a group on a named axis with a
    /// part that is neither that axis nor a new name, or on a composed axis
    /// neither its parts nor new names ([`ErrorKind::GroupWithoutAxis`]),
    /// with the span of the dim.
    ///
    /// ```
    /// # use axial_pattern::{ErrorKind, Pattern};
    /// let p = Pattern::parse("B C (Width P) (Height Q) -> B (Height Width) (C P Q)")?;
    /// let names = [Some("B"), Some("C"), Some("Height"), Some("Width")];
    /// let err = p.check_names(&names).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the group (Width P) splits axis `Height`, but uses a name of another of the tensor's axes: make it of `Height` and names the tensor does not have, as (Height ..)"
    /// );
    /// assert_eq!(err.span().map(|s| s.text(p.text())), Some("(Width P)"));
    /// let right = Pattern::parse("B C (Height P) (Width Q) -> B (Height Width) (C P Q)")?;
    /// assert!(right.check_names(&names).is_ok());
    /// // New names only: the head split of attention.
    /// let heads = Pattern::parse("B S (Heads HeadDim) -> B Heads S HeadDim")?;
    /// assert!(heads.check_names(&[Some("B"), Some("S"), Some("Inner")]).is_ok());
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
        let used = used_names(names);
        for (dim, name) in front.iter().zip(names).chain(back.iter().zip(back_names)) {
            if let Some(name) = name {
                check_dim(self, dim, name, &used)?;
            }
        }
        Ok(())
    }
}

/// The names a tensor whose axes are called `names` has: each axis' name
/// and, for a composed one (`(H W)`, `((H W) C)`), the names it is made of
/// (`_`, an unnamed part, is none).
fn used_names<'a>(names: &[Option<&'a str>]) -> Vec<&'a str> {
    names
        .iter()
        .flatten()
        .flat_map(|name| {
            let parts = name
                .split(|c: char| c == '(' || c == ')' || c.is_whitespace())
                .filter(|part| !part.is_empty() && *part != "_");
            std::iter::once(*name).chain(parts)
        })
        .collect()
}

/// One dim of the left side on the axis called `name`, in a tensor that has
/// the names `used`.
fn check_dim(pattern: &Pattern, dim: &Dim, name: &str, used: &[&str]) -> Result<(), PatternError> {
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
    // On a named axis each part is its name or a new one; on a composed
    // axis the group is its parts in order, or new names only.
    let fits = if name.starts_with('(') {
        composed == name || names.iter().all(|part| !used.contains(part))
    } else {
        names
            .iter()
            .all(|part| *part == name || !used.contains(part))
    };
    if fits || dim.atoms.is_empty() {
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
        assert!(kind("B (H P) -> B H P", &composed).is_some());
    }

    #[test]
    fn groups_of_new_names_split_any_axis() {
        let inner = [Some("B"), Some("S"), Some("Inner")];
        assert_eq!(kind("B S (Heads D) -> B Heads S D", &inner), None);
        assert_eq!(kind("B S (Inner P) -> B S Inner P", &inner), None);
        // A name of another axis, even one `...` stands for, is no new name.
        assert_eq!(
            kind("B ... (S D) -> B ... S D", &inner),
            Some(ErrorKind::GroupWithoutAxis {
                group: "(S D)".into(),
                axis: "Inner".into()
            })
        );
        // Nor is a name a composed axis is made of, at any depth.
        let merged = [Some("B"), Some("X"), Some("((H W) C)")];
        let on_x = |group: &str| {
            Some(ErrorKind::GroupWithoutAxis {
                group: group.into(),
                axis: "X".into(),
            })
        };
        assert_eq!(kind("B (W P) ... -> B W P ...", &merged), on_x("(W P)"));
        assert_eq!(kind("B (C P) ... -> B C P ...", &merged), on_x("(C P)"));
        assert_eq!(kind("B (Y P) ... -> B Y P ...", &merged), None);
        // A composed axis splits into new names, not into its own.
        assert_eq!(kind("B X (R T) -> B R T X", &merged), None);
        assert_eq!(
            kind("B X (C T) -> B C T X", &merged),
            Some(ErrorKind::GroupWithoutAxis {
                group: "(C T)".into(),
                axis: "((H W) C)".into()
            })
        );
        // A group that names its axis may not also take another's name.
        let hw = [Some("B"), Some("H"), Some("W")];
        assert_eq!(
            kind("B (H W) (P Q) -> B H W P Q", &hw),
            Some(ErrorKind::GroupWithoutAxis {
                group: "(H W)".into(),
                axis: "H".into()
            })
        );
        // Anonymous lengths are no names.
        assert_eq!(kind("B S (2 D) -> B S D", &inner), None);
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
