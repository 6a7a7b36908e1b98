//! Syntax trees to types and items.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::Type;

use crate::parse::{AxisDecl, NameItem, ShapeEntry, SizeSpec};

/// `Ax<Name, Size, ...Nil>`; anonymous axes are `Anon<position>`.
pub(crate) fn shape(krate: &TokenStream, entries: &[ShapeEntry]) -> TokenStream {
    let p = quote!(#krate::__private);
    let mut tail = quote!(#p::Nil);
    for (position, entry) in entries.iter().enumerate().rev() {
        tail = match entry {
            ShapeEntry::Tail(ty) => ty.to_token_stream(),
            ShapeEntry::Named(name, size) => {
                let size = size_type(krate, size);
                quote!(#p::Ax<#name, #size, #tail>)
            }
            ShapeEntry::Anonymous(size) => {
                let size = size_type(krate, size);
                quote!(#p::Ax<#p::Anon<#position>, #size, #tail>)
            }
        };
    }
    tail
}

/// `Cons<Name, ...Nil>`, with `...` as `Ellipsis` and `_` as `Keep`.
pub(crate) fn names(krate: &TokenStream, items: &[NameItem]) -> TokenStream {
    let p = quote!(#krate::__private);
    items.iter().rev().fold(quote!(#p::Nil), |tail, item| {
        let head = match item {
            NameItem::Name(ty) => name_type(krate, ty),
            NameItem::Ellipsis(dots) => quote_spanned!(dots.spans[0] => #p::Ellipsis),
            NameItem::Keep(keep) => quote_spanned!(keep.span => #p::Keep),
        };
        quote!(#p::Cons<#head, #tail>)
    })
}

/// A unit struct per name, with its `AxisName` impl.
pub(crate) fn axes(krate: &TokenStream, decls: &[AxisDecl]) -> TokenStream {
    let p = quote!(#krate::__private);
    decls
        .iter()
        .map(|AxisDecl { attrs, vis, ident }| {
            let vis = match vis {
                syn::Visibility::Inherited => quote!(pub),
                other => other.to_token_stream(),
            };
            let spelled = ident.to_string().trim_start_matches("r#").to_owned();
            let doc = format!("The axis `{spelled}`.");
            let id = id_tree(krate, name_hash(&spelled), 64);
            quote! {
                #[doc = #doc]
                #(#attrs)*
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
                #vis struct #ident;

                impl #p::AxisName for #ident {
                    const NAME: ::core::option::Option<&'static str> =
                        ::core::option::Option::Some(#spelled);
                    type Id = #p::Named<#id>;
                }
            }
        })
        .collect()
}

/// The type a `shape!` or `names!` with a mistake expands to: the error in a
/// constant argument, which makes the whole type an error type.
pub(crate) fn fallback_type(krate: &TokenStream, err: &syn::Error) -> TokenStream {
    let error = err.to_compile_error();
    quote!(<#krate::__private::Nil as #krate::__private::Ignore<{ #error 0 }>>::Out)
}

/// `Dyn` and `New<..>` resolve to the crate's own, whatever is in scope.
fn name_type(krate: &TokenStream, ty: &Type) -> TokenStream {
    if let Type::Path(path) = ty
        && path.qself.is_none()
        && path.path.segments.len() == 1
        && path.path.segments[0].ident == "New"
    {
        let args = &path.path.segments[0].arguments;
        return quote!(#krate::__private::New #args);
    }
    ty.to_token_stream()
}

fn size_type(krate: &TokenStream, size: &SizeSpec) -> TokenStream {
    match size {
        SizeSpec::Literal(lit) => {
            // Validated to fit in a u64.
            let n = lit.base10_parse::<u64>().unwrap_or_default();
            literal_size(krate, n)
        }
        SizeSpec::Type(ty) => match &**ty {
            Type::Path(path) if path.qself.is_none() && path.path.is_ident("Dyn") => {
                quote!(#krate::__private::Dyn)
            }
            other => other.to_token_stream(),
        },
    }
}

/// The largest size spelled `Sz<N>`; axial-shape's `SZ_MAX`, which its
/// doctests check against what this writes.
const SZ_MAX: u64 = 8191;

/// The type of an axis size `n`: `Sz<n>`, which compile errors print as the
/// number, up to `SZ_MAX`; the typenum number beyond it.
pub(crate) fn literal_size(krate: &TokenStream, n: u64) -> TokenStream {
    if n <= SZ_MAX {
        let n = proc_macro2::Literal::u64_unsuffixed(n);
        return quote!(#krate::__private::Sz<#n>);
    }
    built_bit_by_bit(krate, n)
}

/// The typenum type of `n`, bit by bit.
fn built_bit_by_bit(krate: &TokenStream, n: u64) -> TokenStream {
    let p = quote!(#krate::__private);
    let bits = u64::BITS - n.leading_zeros();
    (0..bits).rev().fold(quote!(#p::UTerm), |acc, i| {
        let bit = bit_type(krate, n >> i & 1 == 1);
        quote!(#p::UInt<#acc, #bit>)
    })
}

fn bit_type(krate: &TokenStream, one: bool) -> TokenStream {
    if one {
        quote!(#krate::__private::B1)
    } else {
        quote!(#krate::__private::B0)
    }
}

/// A balanced tree of the `width` low bits of `hash` (first bit leftmost), so
/// comparing two names stops at the first differing bit after a few steps and
/// never recurses deeper than log2(width) levels.
fn id_tree(krate: &TokenStream, hash: u64, width: u32) -> TokenStream {
    if width == 1 {
        return if hash & 1 == 1 {
            quote!(#krate::__private::True)
        } else {
            quote!(#krate::__private::False)
        };
    }
    let half = width / 2;
    let left = id_tree(krate, hash, half);
    let right = id_tree(krate, hash >> half, width - half);
    quote!(#krate::__private::Nd<#left, #right>)
}

/// FNV-1a of the spelling, then the splitmix64 finaliser to spread the bits:
/// names are equal when they are spelled alike.
fn name_hash(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_become_sizes_then_typenum_bit_by_bit() {
        let k = quote!(k);
        assert_eq!(
            literal_size(&k, 28).to_string().replace(' ', ""),
            "k::__private::Sz<28>"
        );
        assert_eq!(
            literal_size(&k, 8191).to_string().replace(' ', ""),
            "k::__private::Sz<8191>"
        );
        let two = built_bit_by_bit(&k, 2).to_string().replace(' ', "");
        assert_eq!(
            two,
            "k::__private::UInt<k::__private::UInt<k::__private::UTerm,k::__private::B1>,k::__private::B0>"
        );
        assert_eq!(
            built_bit_by_bit(&k, 0).to_string().replace(' ', ""),
            "k::__private::UTerm"
        );
        // Past `SZ_MAX`: typenum, with no upper limit.
        assert_eq!(
            literal_size(&k, 8192).to_string().matches("UInt").count(),
            14
        );
        let big = literal_size(&k, 1 << 40).to_string();
        assert_eq!(big.matches("UInt").count(), 41);
    }

    #[test]
    fn names_hash_by_spelling() {
        assert_eq!(name_hash("Batch"), name_hash("Batch"));
        assert_ne!(name_hash("Batch"), name_hash("Batcg"));
        let tree = id_tree(&quote!(k), name_hash("Rows"), 64).to_string();
        assert_eq!(tree.matches("Nd").count(), 63);
    }
}
