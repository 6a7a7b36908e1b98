//! `s![.., 1..3, 0, ..;2]`: NumPy-style slicing of the leading axes, for the
//! typed `slice_s`. Literal indices and bounds become types (so the shape
//! knows what it becomes, and a literal outside a static axis does not
//! compile); anything else is checked at run time.

mod expand;
mod parse;
mod validate;

use proc_macro2::TokenStream;

pub(crate) fn expand(krate: &TokenStream, body: TokenStream) -> syn::Result<TokenStream> {
    let entries = parse::entries(body)?;
    let checked = validate::check(entries)?;
    Ok(expand::expand(krate, &checked))
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::expand;

    fn tokens(body: proc_macro2::TokenStream) -> String {
        match expand(&quote!(k), body) {
            Ok(tokens) => tokens.to_string().replace(' ', ""),
            Err(e) => panic!("{e}"),
        }
    }

    fn error(body: proc_macro2::TokenStream) -> String {
        match expand(&quote!(k), body) {
            Ok(tokens) => panic!("expected an error, got {tokens}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn literals_become_types_and_others_dyn() {
        let t = tokens(quote!(.., 1..3, -1, i, ..;2, a..));
        assert!(t.contains("k::__private::Cons<k::__private::Full,"));
        assert!(t.contains(
            "k::__private::Range<k::__private::At<k::__private::Sz<1>,1>,k::__private::At<k::__private::Sz<3>,3>,k::__private::Sz<1>>"
        ));
        assert!(t.contains("k::__private::Index<k::__private::FromEnd<k::__private::Sz<1>,{-1}>>"));
        assert!(t.contains("k::__private::DynIndex"));
        assert!(t.contains(
            "k::__private::Range<k::__private::Open,k::__private::Open,k::__private::Sz<2>>"
        ));
        assert!(t.contains("k::__private::DynRange"));
        assert!(t.contains("k::__private::Slices::<"));
        assert!(t.contains(",6usize>::new(["));
    }

    #[test]
    fn inclusive_ends_are_exclusive_ones() {
        let t = tokens(quote!(..=2, ..=-1, ..=-3, ..=n));
        assert!(t.contains("end:::core::option::Option::Some(3isize)"));
        assert!(t.contains("end:::core::option::Option::None"));
        assert!(t.contains("end:::core::option::Option::Some(-2isize)"));
        assert!(t.contains("k::__private::inclusive_end(k::__private::to_isize(n))"));
    }

    #[test]
    fn steps_and_indices_as_python() {
        assert_eq!(error(quote!(..;0)), "slice step cannot be zero");
        assert_eq!(error(quote!(1..;-2)), "step must be greater than zero");
        assert_eq!(
            error(quote!(0;2)),
            "an index takes no step: write a range (`a..b;step`)"
        );
    }
}
