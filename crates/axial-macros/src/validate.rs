//! The mistakes a macro can see in its own tokens, reported at the token.

use std::collections::HashSet;

use quote::ToTokens;

use crate::parse::{AxisDecl, NameItem, ShapeEntry, SizeSpec};

pub(crate) fn shape(entries: &[ShapeEntry]) -> syn::Result<()> {
    let mut seen = HashSet::new();
    for (i, entry) in entries.iter().enumerate() {
        match entry {
            ShapeEntry::Named(name, size) => {
                let spelled = name.to_token_stream().to_string();
                if !seen.insert(spelled.clone()) {
                    return Err(syn::Error::new_spanned(
                        name,
                        format!("shape! names axis `{spelled}` twice"),
                    ));
                }
                literal(size)?;
            }
            ShapeEntry::Anonymous(size) => literal(size)?,
            ShapeEntry::Tail(ty) if i + 1 != entries.len() => {
                return Err(syn::Error::new_spanned(
                    ty,
                    "`..Tail` must be the last entry of shape!",
                ));
            }
            ShapeEntry::Tail(_) => {}
        }
    }
    Ok(())
}

pub(crate) fn names(items: &[NameItem]) -> syn::Result<()> {
    let mut seen = HashSet::new();
    let mut ellipsis = false;
    for item in items {
        match item {
            NameItem::Ellipsis(dots) if ellipsis => {
                return Err(syn::Error::new_spanned(
                    dots,
                    "names! takes at most one `...`",
                ));
            }
            NameItem::Ellipsis(_) => ellipsis = true,
            NameItem::Name(name) => {
                let spelled = name.to_token_stream().to_string();
                if !seen.insert(spelled.clone()) {
                    return Err(syn::Error::new_spanned(
                        name,
                        format!("names! lists axis `{spelled}` twice"),
                    ));
                }
            }
            NameItem::Keep(_) => {}
        }
    }
    Ok(())
}

pub(crate) fn axes(decls: &[AxisDecl]) -> syn::Result<()> {
    let mut seen = HashSet::new();
    for decl in decls {
        if !seen.insert(decl.ident.to_string()) {
            return Err(syn::Error::new_spanned(
                &decl.ident,
                format!("axes! declares `{}` twice", decl.ident),
            ));
        }
    }
    Ok(())
}

/// A size literal must be a plain non-negative integer that fits a `usize` of
/// the widest target (64 bits).
fn literal(size: &SizeSpec) -> syn::Result<()> {
    if let SizeSpec::Literal(lit) = size {
        if !lit.suffix().is_empty() && lit.suffix() != "usize" {
            return Err(syn::Error::new_spanned(
                lit,
                "a size in shape! is a plain integer (or `usize`-suffixed)",
            ));
        }
        lit.base10_parse::<u64>()?;
    }
    Ok(())
}
