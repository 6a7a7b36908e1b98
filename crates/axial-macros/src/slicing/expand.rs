//! The entries of `s!` as a type (what the shape becomes) and a value (the
//! run-time bounds).

use proc_macro2::TokenStream;
use quote::quote;

use super::validate::{Checked, Value};
use crate::expand::literal_size;

pub(crate) fn expand(krate: &TokenStream, entries: &[Checked]) -> TokenStream {
    let p = quote!(#krate::__private);
    let types = entries.iter().rev().fold(quote!(#p::Nil), |tail, entry| {
        let head = entry_type(krate, entry);
        quote!(#p::Cons<#head, #tail>)
    });
    let args = entries.iter().map(|entry| entry_value(&p, entry));
    let n = entries.len();
    quote!(#p::Slices::<#types, #n>::new([#(#args),*]))
}

/// The entry's type: `Full`, `Index<..>`, `Range<..>`, or the `Dyn` ones.
fn entry_type(krate: &TokenStream, entry: &Checked) -> TokenStream {
    let p = quote!(#krate::__private);
    match entry {
        Checked::Index(Value::Literal(v)) => {
            let bound = bound_type(krate, *v);
            quote!(#p::Index<#bound>)
        }
        Checked::Index(Value::Runtime(_)) => quote!(#p::DynIndex),
        Checked::Range {
            start: None,
            end: None,
            step: Value::Literal(1),
            ..
        } => quote!(#p::Full),
        Checked::Range {
            start,
            end,
            step: Value::Literal(step),
            ..
        } => match (literal_bound(krate, start), literal_bound(krate, end)) {
            (Some(start), Some(end)) => {
                let step = literal_size(krate, step.unsigned_abs());
                quote!(#p::Range<#start, #end, #step>)
            }
            _ => quote!(#p::DynRange),
        },
        Checked::Range { .. } => quote!(#p::DynRange),
    }
}

/// `Open`, or a literal bound's type; `None` for a run-time bound.
fn literal_bound(krate: &TokenStream, bound: &Option<Value>) -> Option<TokenStream> {
    let p = quote!(#krate::__private);
    match bound {
        None => Some(quote!(#p::Open)),
        Some(Value::Literal(v)) => Some(bound_type(krate, *v)),
        Some(Value::Runtime(_)) => None,
    }
}

/// `At<K, v>` or `FromEnd<K, v>`, `K` being `|v|` as a size (`Sz<|v|>`).
fn bound_type(krate: &TokenStream, v: i64) -> TokenStream {
    let p = quote!(#krate::__private);
    let k = literal_size(krate, v.unsigned_abs());
    let v = proc_macro2::Literal::i64_unsuffixed(v);
    match v.to_string().starts_with('-') {
        true => quote!(#p::FromEnd<#k, { #v }>),
        false => quote!(#p::At<#k, #v>),
    }
}

/// The entry's run-time value.
fn entry_value(p: &TokenStream, entry: &Checked) -> TokenStream {
    match entry {
        Checked::Index(index) => {
            let index = value(p, index);
            quote!(#p::SliceArg::Index(#index))
        }
        Checked::Range {
            start,
            end,
            end_inclusive,
            step,
        } => {
            let start = optional(p, start);
            let end = match (end_inclusive, end) {
                (true, Some(end)) => {
                    let end = value(p, end);
                    quote!(::core::option::Option::Some(#p::inclusive_end(#end)))
                }
                _ => optional(p, end),
            };
            let step = value(p, step);
            quote!(#p::SliceArg::Range { start: #start, end: #end, step: #step })
        }
    }
}

fn optional(p: &TokenStream, v: &Option<Value>) -> TokenStream {
    match v {
        Some(v) => {
            let v = value(p, v);
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// An `isize`: the literal, or the expression converted.
fn value(p: &TokenStream, v: &Value) -> TokenStream {
    match v {
        Value::Literal(n) => {
            let n = *n as isize;
            quote!(#n)
        }
        Value::Runtime(e) => quote!(#p::to_isize(#e)),
    }
}
