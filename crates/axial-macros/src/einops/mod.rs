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
            error(Kind::Rearrange, quote!(x, "a b -> b a", e = 2)),
            "Axis e is not used in transform"
        );
        assert_eq!(
            error(Kind::Repeat, quote!(x, "a -> a b", b = 2, b = 3)),
            "Axis b is given a size more than once"
        );
        assert_eq!(
            error(Kind::Rearrange, quote!(x, "(a b) -> a b", b = 0)),
            "an axis of size 0 leaves the other axes of its group without a length\n  |  (a b) -> a b\n  |     ^"
        );
        assert_eq!(
            error(Kind::Reduce, quote!(x, "a b -> a", median)),
            "Unknown reduction median. Expect one of ('min', 'max', 'sum', 'mean', 'prod', 'any', 'all')."
        );
    }

    #[test]
    fn names_must_be_axis_types() {
        assert_eq!(
            error(Kind::Rearrange, quote!(x, "a type -> type a")),
            "`type` cannot name an axis type\n  |  a type -> type a\n  |    ^^^^"
        );
        assert_eq!(
            error(Kind::Einsum, quote!("i _, j -> i", a, b)),
            "`_` is not an axis: name each axis by its type\n  |  i _, j -> i\n  |    ^"
        );
    }

    #[test]
    fn einsum_counts_its_tensors() {
        assert_eq!(
            error(Kind::Einsum, quote!("i j, j k -> i k", a)),
            "the pattern has 2 inputs but einsum! was given 1 tensor"
        );
        assert!(
            error(Kind::Einsum, quote!("i i -> i", a)).starts_with("axis `i` twice in one input")
        );
    }

    #[test]
    fn the_left_side_becomes_dims_and_parts() {
        let tokens = expansion(
            Kind::Rearrange,
            quote!(x, "B (H P) 1 ... -> B H P ...", P = 2),
        );
        assert!(tokens.contains(
            "k::__private::Around<k::__private::Cons<k::__private::Axis<B>,k::__private::Cons<k::__private::Group<k::__private::Cons<k::__private::Part<H,k::__private::Infer>,k::__private::Cons<k::__private::Part<P,k::__private::consts::U2>,k::__private::Nil>>,(H,P,)>,k::__private::Cons<k::__private::Unit,k::__private::Nil>>>,k::__private::Nil>"
        ));
        assert!(tokens.contains("(B,(H,P,),(),k::__private::Ellipsis,)"));
        assert!(tokens.contains("k::__private::rearrange_view::<"));
    }

    #[test]
    fn merges_may_copy_and_repeats_are_read_only() {
        let merge = expansion(Kind::Rearrange, quote!(x, "a b -> (a b)"));
        assert!(merge.contains("k::__private::rearrange::<"));
        assert!(merge.contains("k::__private::OutGroup<"));
        let repeat = expansion(Kind::Repeat, quote!(x, "a -> a 3",));
        assert!(repeat.contains("k::__private::repeat_view::<"));
        assert!(repeat.contains(
            "k::__private::OutNew<k::__private::Unnamed<1usize>,k::__private::consts::U3>"
        ));
    }
}
