//! Every pattern error: einops' message and the text its span points at.

use axial_pattern::{Einsum, ErrorKind, Operation, Pattern, PatternError, Recipe, Reduction, Span};

/// The message of an error and the pattern text under its span.
fn placed(text: &str, err: PatternError) -> (String, Option<String>) {
    let under = err.span().map(|s: Span| s.text(text).to_owned());
    (err.to_string(), under)
}

fn parse_err(text: &str) -> (String, Option<String>) {
    placed(text, Pattern::parse(text).expect_err(text))
}

fn recipe_err(text: &str, op: Operation, sized: &[&str]) -> (String, Option<String>) {
    let p = Pattern::parse(text).expect(text);
    placed(text, Recipe::new(&p, op, sized).expect_err(text))
}

fn einsum_err(text: &str) -> (String, Option<String>) {
    let err = Pattern::parse_einsum(text).and_then(|p| Einsum::new(&p));
    placed(text, err.expect_err(text))
}

fn transform_err(
    text: &str,
    sized: &[&str],
    shape: &[usize],
    sizes: &[usize],
) -> (String, Option<String>) {
    let p = Pattern::parse(text).expect(text);
    let r = Recipe::new(&p, Operation::Rearrange, sized).expect(text);
    placed(text, r.transform(shape, sizes).expect_err(text))
}

fn at(message: &str, under: &str) -> (String, Option<String>) {
    (message.to_owned(), Some(under.to_owned()))
}

fn unplaced(message: &str) -> (String, Option<String>) {
    (message.to_owned(), None)
}

#[test]
fn duplicate_dimension_points_at_the_second_occurrence() {
    let want = at(
        "Indexing expression contains duplicate dimension \"a\"",
        "a",
    );
    assert_eq!(parse_err("a b a -> a b"), want);
    let err = Pattern::parse("a b -> a (b c) b").unwrap_err();
    assert_eq!(err.span(), Some(Span::new(15, 16)));
    assert!(matches!(err.kind(), ErrorKind::DuplicateDimension { name } if name == "b"));
}

#[test]
fn arrows() {
    assert_eq!(parse_err("a b"), at("Pattern must contain '->'.", "a b"));
    assert_eq!(
        parse_err("a -> b -> c"),
        at("Pattern must contain '->' only once.", "->")
    );
    assert_eq!(
        placed("a, b", Pattern::parse_einsum("a, b").unwrap_err()),
        at("Einsum pattern must contain '->'.", "a, b")
    );
}

#[test]
fn dots_only_as_one_ellipsis() {
    assert_eq!(
        parse_err("a.b -> a"),
        at(
            "Expression may contain dots only inside ellipsis (...)",
            "."
        )
    );
    let second =
        "Expression may contain dots only inside ellipsis (...); only one ellipsis for tensor ";
    assert_eq!(parse_err("... a ... -> a"), at(second, "..."));
    assert_eq!(parse_err("a .... -> a"), at(second, "."));
    let err = Pattern::parse("a -> a .. b").unwrap_err();
    assert_eq!(err.span(), Some(Span::new(7, 8)));
}

#[test]
fn unknown_characters() {
    assert_eq!(parse_err("a - b -> a"), at("Unknown character '-'", "-"));
    assert_eq!(parse_err("a b -> a+b"), at("Unknown character '+'", "+"));
    assert_eq!(parse_err("a, b -> a b"), at("Unknown character ','", ","));
    assert_eq!(parse_err("a\tb -> a b"), at("Unknown character '\t'", "\t"));
}

#[test]
fn brackets() {
    assert_eq!(
        parse_err("a (b (c)) -> a"),
        at(
            "Axis composition is one-level (brackets inside brackets not allowed)",
            "("
        )
    );
    let err = Pattern::parse("a (b (c)) -> a").unwrap_err();
    assert_eq!(err.span(), Some(Span::new(5, 6)));
    assert_eq!(
        parse_err("a b) -> a b"),
        at("Brackets are not balanced", ")")
    );
    assert_eq!(
        parse_err("a (b -> a b"),
        at("Imbalanced parentheses in expression: \"a (b \"", "(")
    );
    assert_eq!(
        parse_err("a -> a (b ..."),
        at("Imbalanced parentheses in expression: \" a (b …\"", "(")
    );
}

#[test]
fn invalid_identifiers() {
    let underscore = "axis name should should not start or end with underscore";
    assert_eq!(
        parse_err("a _b -> a"),
        at(&format!("Invalid axis identifier: _b\n{underscore}"), "_b")
    );
    assert_eq!(
        parse_err("a b_ -> a"),
        at(&format!("Invalid axis identifier: b_\n{underscore}"), "b_")
    );
    assert_eq!(
        parse_err("a _ -> a"),
        at(&format!("Invalid axis identifier: _\n{underscore}"), "_")
    );
    let not_python = "not a valid python identifier";
    assert_eq!(
        parse_err("a 1b -> a"),
        at(&format!("Invalid axis identifier: 1b\n{not_python}"), "1b")
    );
    assert_eq!(
        parse_err("a... -> a"),
        at(
            &format!("Invalid axis identifier: a…\n{not_python}"),
            "a..."
        )
    );
}

#[test]
fn any_case_and_unicode_names_are_axes() {
    let p = Pattern::parse("Batch Höhe c_1 -> c_1 Höhe Batch").unwrap();
    let names: Vec<&str> = p.input().names().collect();
    assert_eq!(names, ["Batch", "Höhe", "c_1"]);
    assert_eq!(p.input().dims[1].span.text(p.text()), "Höhe");
}

#[test]
fn anonymous_axes() {
    assert_eq!(
        parse_err("a 0 -> a"),
        at("Anonymous axis should have positive length, not 0", "0")
    );
    assert_eq!(
        parse_err("a (b 00) -> a"),
        at("Anonymous axis should have positive length, not 0", "00")
    );
    assert_eq!(
        parse_err("a 01 -> a"),
        at(
            "No need to create anonymous axis of length 1. Report this as an issue",
            "01"
        )
    );
    let long = "99999999999999999999999";
    assert_eq!(
        parse_err(&format!("a {long} -> a")),
        at(
            &format!("Anonymous axis {long} is too long to be a length"),
            long
        )
    );
}

#[test]
fn unit_axes() {
    let p = Pattern::parse("a 1 () (b 1) -> a b").unwrap();
    let dims = &p.input().dims;
    assert_eq!(dims.len(), 4);
    assert!(dims[1].atoms.is_empty() && !dims[1].parenthesized);
    assert!(dims[2].atoms.is_empty() && dims[2].parenthesized);
    assert_eq!(dims[3].atoms.len(), 1);
    assert_eq!(dims[3].span.text(p.text()), "(b 1)");
}

#[test]
fn ellipsis_placement() {
    assert_eq!(
        recipe_err("a b -> a ...", Operation::Rearrange, &[]),
        at(
            "Ellipsis found in right side, but not left side of a pattern a b -> a ...",
            "..."
        )
    );
    assert_eq!(
        recipe_err("a b c d (...) -> a b c d", Operation::Rearrange, &[]),
        at(
            "Ellipsis inside parenthesis in the left side is not allowed: a b c d (...) -> a b c d",
            "..."
        )
    );
}

#[test]
fn rearrange_checks() {
    assert_eq!(
        recipe_err("a (b 2) -> a b", Operation::Rearrange, &[]),
        at(
            "Non-unitary anonymous axes are not supported in rearrange (exception is length 1)",
            "2"
        )
    );
    assert_eq!(
        recipe_err("a b c d -> a b c d e", Operation::Rearrange, &[]),
        at(
            "Identifiers only on one side of expression (should be on both): {'e'}",
            "e"
        )
    );
    assert_eq!(
        recipe_err("a b -> a e", Operation::Rearrange, &[]),
        at(
            "Identifiers only on one side of expression (should be on both): {'b', 'e'}",
            "b"
        )
    );
    assert_eq!(
        recipe_err("a ... -> a", Operation::Rearrange, &[]),
        at(
            "Identifiers only on one side of expression (should be on both): {'…'}",
            "..."
        )
    );
}

#[test]
fn repeat_checks() {
    assert_eq!(
        recipe_err("a d -> a", Operation::Repeat, &[]),
        at(
            "Unexpected identifiers on the left side of repeat: {'d'}",
            "d"
        )
    );
    assert_eq!(
        recipe_err("(a 2) -> a 2", Operation::Repeat, &[]),
        at(
            "Unexpected identifiers on the left side of repeat: {2-axis}",
            "2"
        )
    );
    assert_eq!(
        recipe_err("a -> a e f", Operation::Repeat, &["f"]),
        at("Specify sizes for new axes in repeat: {'e'}", "e")
    );
    let p = Pattern::parse("a -> 2 a 3").unwrap();
    assert!(Recipe::new(&p, Operation::Repeat, &[]).is_ok());
}

#[test]
fn reduce_checks() {
    assert_eq!(
        recipe_err("a b -> a e", Operation::Reduce(Reduction::Sum), &[]),
        at(
            "Unexpected identifiers on the right side of reduce sum: {'e'}",
            "e"
        )
    );
    assert_eq!(
        recipe_err("a b -> a 2", Operation::Reduce(Reduction::Max), &[]),
        at(
            "Unexpected identifiers on the right side of reduce max: {2-axis}",
            "2"
        )
    );
    let err = "median".parse::<Reduction>().unwrap_err();
    assert_eq!(
        placed("", err),
        unplaced(
            "Unknown reduction median. Expect one of ('min', 'max', 'sum', 'mean', 'prod', 'any', 'all')."
        )
    );
    for r in Reduction::ALL {
        assert_eq!(r.name().parse::<Reduction>().unwrap(), r);
    }
}

#[test]
fn sizes_checks() {
    let op = Operation::Rearrange;
    assert_eq!(
        recipe_err("a b -> b a", op, &["_b"]),
        unplaced("('Invalid name for an axis', '_b')")
    );
    assert_eq!(
        recipe_err("a b -> b a", op, &["e"]),
        unplaced("Axis e is not used in transform")
    );
    assert_eq!(
        recipe_err("a b -> b a", op, &["a", "a"]),
        unplaced("Axis a is given a size more than once")
    );
    assert_eq!(
        recipe_err("(a b) c -> a b c", op, &[]),
        at("Could not infer sizes for {'a', 'b'}", "(a b)")
    );
    assert_eq!(
        recipe_err("c (a b e) -> a b c e", op, &["b"]),
        at("Could not infer sizes for {'a', 'e'}", "(a b e)")
    );
}

#[test]
fn shape_checks() {
    assert_eq!(
        transform_err("a b c -> a b c", &[], &[2, 3, 4, 5], &[]),
        at(
            "Wrong shape: expected 3 dims. Received 4-dim tensor.",
            "a b c "
        )
    );
    assert_eq!(
        transform_err("a b c ... -> a b c ...", &[], &[2, 3], &[]),
        at(
            "Wrong shape: expected >=3 dims. Received 2-dim tensor.",
            "a b c ... "
        )
    );
    assert_eq!(
        transform_err("(a b) -> a b", &["b"], &[6], &[4]),
        at(
            "Shape mismatch, can't divide axis of length 6 in chunks of 4",
            "(a b)"
        )
    );
    assert_eq!(
        transform_err("(a b) -> a b", &["b"], &[0], &[0]),
        at(
            "Shape mismatch, can't divide axis of length 0 in chunks of 0",
            "(a b)"
        )
    );
    assert_eq!(
        transform_err("a b -> b a", &["b"], &[2, 6], &[4]),
        at("Shape mismatch, 6 != 4", "b")
    );
    assert_eq!(
        transform_err("a 1 -> a", &[], &[2, 3], &[]),
        at("Shape mismatch, 3 != 1", "1")
    );
    assert_eq!(
        transform_err("a b -> b a", &["b"], &[2, 6], &[]),
        unplaced("Expected sizes of 1 axes, got 0")
    );
}

#[test]
fn einsum_checks() {
    assert_eq!(
        einsum_err("a (), a -> a"),
        at("Singleton () axes are not yet supported in einsum.", "()")
    );
    assert_eq!(
        einsum_err("a 1 -> a"),
        at("Singleton () axes are not yet supported in einsum.", "1")
    );
    assert_eq!(
        einsum_err("(a b), b -> a"),
        at(
            "Shape rearrangement is not yet supported in einsum.",
            "(a b)"
        )
    );
    assert_eq!(
        einsum_err("a (...) -> a"),
        at(
            "Shape rearrangement is not yet supported in einsum.",
            "(...)"
        )
    );
    assert_eq!(
        einsum_err("a 2 -> a"),
        at("Anonymous axes are not yet supported in einsum.", "2")
    );
    assert_eq!(
        einsum_err("a b, b c -> a d"),
        at(
            "Unknown axis d on right side of einsum a b, b c -> a d.",
            "d"
        )
    );
    assert_eq!(
        einsum_err("a b, b c -> a a"),
        at(
            "Indexing expression contains duplicate dimension \"a\"",
            "a"
        )
    );
    assert_eq!(
        einsum_err("a b. -> a"),
        at(
            "Expression may contain dots only inside ellipsis (...)",
            "."
        )
    );
}

#[test]
fn einsum_allows_diagonals_underscores_and_empty_operands() {
    let e = Einsum::new(&Pattern::parse_einsum("i i, _ , -> _").unwrap()).unwrap();
    assert_eq!(e.inputs.len(), 3);
    assert_eq!(e.inputs[0].len(), 2);
    assert!(e.inputs[2].is_empty());
    assert_eq!(e.output[0].name(), Some("_"));
}
