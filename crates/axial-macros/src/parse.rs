//! Tokens to syntax trees that keep the user's spans.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitInt, Token, Type, Visibility};

/// A size in `shape!`: an integer literal, or a type (`Dyn`, a generic parameter).
pub(crate) enum SizeSpec {
    Literal(LitInt),
    Type(Box<Type>),
}

/// One entry of `shape!`.
pub(crate) enum ShapeEntry {
    /// `Name: Size`.
    Named(Box<Type>, SizeSpec),
    /// `Size` alone: an anonymous axis.
    Anonymous(SizeSpec),
    /// `..Tail`: another shape appended.
    Tail(Box<Type>),
}

/// One item of `names!`.
pub(crate) enum NameItem {
    /// An axis name (or `New<Name>`).
    Name(Box<Type>),
    /// `...`: the axes not named, in their order.
    Ellipsis(Token![...]),
    /// `_`: keep the axis as it is.
    Keep(Token![_]),
}

/// One marker of `axes!`.
pub(crate) struct AxisDecl {
    pub(crate) attrs: Vec<Attribute>,
    pub(crate) vis: Visibility,
    pub(crate) ident: Ident,
}

/// The crate path the declarative wrapper put first, in brackets, and the rest.
pub(crate) fn split_crate_path(input: TokenStream) -> syn::Result<(TokenStream, TokenStream)> {
    let mut tokens = input.into_iter();
    match tokens.next() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
            Ok((g.stream(), tokens.collect()))
        }
        other => Err(syn::Error::new(
            other.map_or_else(proc_macro2::Span::call_site, |t| t.span()),
            "call this macro through `axial::shape!`, `axial::names!` or `axial::axes!`",
        )),
    }
}

pub(crate) fn shape(body: TokenStream) -> syn::Result<Vec<ShapeEntry>> {
    let entries = Punctuated::<ShapeEntry, Token![,]>::parse_terminated.parse2(body)?;
    Ok(entries.into_iter().collect())
}

pub(crate) fn names(body: TokenStream) -> syn::Result<Vec<NameItem>> {
    let items = Punctuated::<NameItem, Token![,]>::parse_terminated.parse2(body)?;
    Ok(items.into_iter().collect())
}

pub(crate) fn axes(body: TokenStream) -> syn::Result<Vec<AxisDecl>> {
    let decls = Punctuated::<AxisDecl, Token![,]>::parse_terminated.parse2(body)?;
    Ok(decls.into_iter().collect())
}

impl syn::parse::Parse for SizeSpec {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(LitInt) {
            Ok(SizeSpec::Literal(input.parse()?))
        } else {
            Ok(SizeSpec::Type(input.parse()?))
        }
    }
}

impl syn::parse::Parse for ShapeEntry {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(Token![..]) {
            input.parse::<Token![..]>()?;
            return Ok(ShapeEntry::Tail(input.parse()?));
        }
        if input.peek(LitInt) {
            return Ok(ShapeEntry::Anonymous(input.parse()?));
        }
        let ty: Type = input.parse()?;
        if input.peek(Token![:]) && !input.peek(Token![::]) {
            input.parse::<Token![:]>()?;
            Ok(ShapeEntry::Named(Box::new(ty), input.parse()?))
        } else {
            Ok(ShapeEntry::Anonymous(SizeSpec::Type(Box::new(ty))))
        }
    }
}

impl syn::parse::Parse for NameItem {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(Token![...]) {
            Ok(NameItem::Ellipsis(input.parse()?))
        } else if input.peek(Token![_]) {
            Ok(NameItem::Keep(input.parse()?))
        } else {
            Ok(NameItem::Name(input.parse()?))
        }
    }
}

impl syn::parse::Parse for AxisDecl {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        Ok(AxisDecl {
            attrs: input.call(Attribute::parse_outer)?,
            vis: input.parse()?,
            ident: input.parse()?,
        })
    }
}
