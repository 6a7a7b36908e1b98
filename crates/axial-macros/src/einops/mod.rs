//! `rearrange!`, `reduce!`, `repeat!` and `einsum!`: the pattern parsed and
//! checked by `axial-pattern` while the program compiles ([`validate`]), then
//! written as types that `axial`'s traits prove against the tensor's shape,
//! and a call of einops' recipe for the run-time work ([`expand`]).

mod expand;
mod parse;
mod validate;

use proc_macro2::TokenStream;

/// Which macro.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    Rearrange,
    Reduce,
    Repeat,
    Einsum,
}

/// The expansion of one call: `fallible` for the `try_` forms, which give a
/// `Result`.
pub(crate) fn expand(
    krate: &TokenStream,
    body: TokenStream,
    kind: Kind,
    fallible: bool,
) -> syn::Result<TokenStream> {
    let args = parse::args(kind, body)?;
    let checked = validate::check(kind, args)?;
    Ok(expand::expand(krate, &checked, fallible))
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::{Kind, expand};

    fn error(kind: Kind, body: proc_macro2::TokenStream) -> String {
        match expand(&quote!(k), body, kind, false) {
            Ok(tokens) => panic!("expected an error, got {tokens}"),
            Err(e) => e.to_string(),
        }
    }

    fn expansion(kind: Kind, body: proc_macro2::TokenStream) -> String {
        match expand(&quote!(k), body, kind, true) {
            Ok(tokens) => tokens.to_string().replace(' ', ""),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn pattern_errors_mark_the_token() {
        assert_eq!(
            error(Kind::Rearrange, quote!(x, "a b a -> a b")),
            "Indexing expression contains duplicate dimension \"a\"\n  |  a b a -> a b\n  |      ^"
        );
        assert_eq!(
            error(Kind::Rearrange, quote!(x, "(a b) c -> a b c")),
            "Could not infer sizes for {'a', 'b'}\n  |  (a b) c -> a b c\n  |  ^^^^^"
        );
    }

    #[test]
    fn size_errors_name_the_size() {
        assert_eq!(
            error(Kind::Rearrange, quote!(x, "A B -> B A", E = 2)),
            "Axis E is not used in transform"
        );
        assert_eq!(
            error(Kind::Repeat, quote!(x, "A -> A B", B = 2, B = 3)),
            "Axis B is given a size more than once"
        );
        assert_eq!(
            error(Kind::Rearrange, quote!(x, "(A B) -> A B", B = 0)),
            "an axis of size 0 leaves the other axes of its group without a length\n  |  (A B) -> A B\n  |     ^"
        );
        assert_eq!(
            error(Kind::Reduce, quote!(x, "A B -> A", median)),
            "Unknown reduction median. Expect one of ('min', 'max', 'sum', 'mean', 'prod', 'any', 'all')."
        );
    }

    #[test]
    fn names_must_be_axis_types() {
        assert_eq!(
            error(Kind::Rearrange, quote!(x, "A type -> type A")),
            "`type` cannot name an axis type\n  |  A type -> type A\n  |    ^^^^"
        );
        assert_eq!(
            error(Kind::Einsum, quote!("I _, J -> I", a, b)),
            "`_` is not an axis: name each axis by its type\n  |  I _, J -> I\n  |    ^"
        );
    }

    #[test]
    fn lowercase_names_say_what_to_write() {
        assert_eq!(
            error(Kind::Rearrange, quote!(q, "b s (h d) -> b h s d", h = 4)),
            "pattern names are axis types, declared with `axes!` and spelled as types (`b` is looked up as a type): declare `axes!(B, S, H, D);` and write \"B S (H D) -> B H S D\" with `H = 4`\n  |  b s (h d) -> b h s d\n  |  ^"
        );
        assert!(
            error(Kind::Einsum, quote!("B i j, B j k -> B i k", a, b))
                .contains("declare `axes!(I, J, K);` and write \"B I J, B J K -> B I K\"")
        );
    }

    #[test]
    fn einsum_counts_its_tensors() {
        assert_eq!(
            error(Kind::Einsum, quote!("I J, J K -> I K", a)),
            "the pattern has 2 inputs but einsum! was given 1 tensor"
        );
        assert!(
            error(Kind::Einsum, quote!("I I -> I", a)).starts_with("axis `I` twice in one input")
        );
    }

    #[test]
    fn the_left_side_becomes_dims_and_parts() {
        let tokens = expansion(
            Kind::Rearrange,
            quote!(x, "B (H P) 1 ... -> B H P ...", P = 2),
        );
        assert!(tokens.contains(
            "k::__private::Around<k::__private::Cons<k::__private::Axis<B>,k::__private::Cons<k::__private::Group<k::__private::Cons<k::__private::Part<H,k::__private::Infer>,k::__private::Cons<k::__private::Part<P,k::__private::Sz<2>>,k::__private::Nil>>,(H,P,)>,k::__private::Cons<k::__private::Unit,k::__private::Nil>>>,k::__private::Nil>"
        ));
        assert!(tokens.contains("(B,(H,P,),(),k::__private::Ellipsis,)"));
        assert!(tokens.contains("k::__private::rearrange_view::<"));
    }

    #[test]
    fn merges_may_copy_and_repeats_are_read_only() {
        let merge = expansion(Kind::Rearrange, quote!(x, "A B -> (A B)"));
        assert!(merge.contains("k::__private::rearrange::<"));
        assert!(merge.contains("k::__private::OutGroup<"));
        let repeat = expansion(Kind::Repeat, quote!(x, "A -> A 3",));
        assert!(repeat.contains("k::__private::repeat_view::<"));
        assert!(
            repeat.contains(
                "k::__private::OutNew<k::__private::Unnamed<1usize>,k::__private::Sz<3>>"
            )
        );
    }
}
