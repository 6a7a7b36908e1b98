//! A checked pattern as types (the left side, the output side, the new axes,
//! the left side's display) and the call of `axial::__private` that proves
//! them against the tensor and runs einops' recipe.

use axial_pattern::{Atom, Dim, Operation, Reduction};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use super::Kind;
use super::validate::{Checked, Value};
use crate::expand::literal_size;

/// Types in `axial::__private`, spanned at the pattern.
struct Types<'a> {
    krate: &'a TokenStream,
    p: TokenStream,
    checked: &'a Checked,
    span: Span,
}

pub(crate) fn expand(krate: &TokenStream, checked: &Checked, fallible: bool) -> TokenStream {
    let types = Types {
        krate,
        p: quote!(#krate::__private),
        checked,
        span: checked.literal.span(),
    };
    match checked.kind {
        Kind::Einsum => types.einsum(fallible),
        _ => types.pattern_call(fallible),
    }
}

impl Types<'_> {
    /// `Cons<A, Cons<B, Nil>>`.
    fn list(&self, items: impl DoubleEndedIterator<Item = TokenStream>) -> TokenStream {
        let p = &self.p;
        items
            .rev()
            .fold(quote!(#p::Nil), |tail, head| quote!(#p::Cons<#head, #tail>))
    }

    /// The axis type a pattern name stands for.
    fn axis(&self, name: &str) -> TokenStream {
        let ident = Ident::new(name, self.span);
        quote!(#ident)
    }

    /// The type of a size: a typenum number for a literal, `Dyn` otherwise.
    fn size(&self, value: &Value) -> TokenStream {
        match value {
            Value::Literal(n) => literal_size(self.krate, *n),
            Value::Runtime(_) => {
                let p = &self.p;
                quote!(#p::Dyn)
            }
        }
    }

    fn literal_size(&self, n: usize) -> TokenStream {
        literal_size(self.krate, n as u64)
    }

    /// `Unnamed<i>`.
    fn unnamed(&self, i: usize) -> TokenStream {
        let p = &self.p;
        quote!(#p::Unnamed<#i>)
    }

    /// The left side of the pattern (`dims` of one input) as a type, and as
    /// it prints in errors. `counter` numbers anonymous axes.
    fn left(&self, dims: &[Dim]) -> (TokenStream, TokenStream) {
        let p = &self.p;
        let mut counter = 0;
        let mut types = Vec::new();
        let mut shown = Vec::new();
        for dim in dims {
            if dim.is_ellipsis() {
                types.push(None);
                shown.push(quote!(#p::Ellipsis));
                continue;
            }
            let (ty, disp) = self.left_dim(dim, &mut counter);
            types.push(Some(ty));
            shown.push(disp);
        }
        let left = match types.iter().position(Option::is_none) {
            None => {
                let dims = self.list(types.into_iter().flatten());
                quote!(#p::Plain<#dims>)
            }
            Some(at) => {
                let front = self.list(types[..at].iter().flatten().cloned());
                let back = self.list(types[at + 1..].iter().flatten().cloned());
                quote!(#p::Around<#front, #back>)
            }
        };
        (left, quote!((#(#shown,)*)))
    }

    /// One dim of the left side and its display.
    fn left_dim(&self, dim: &Dim, counter: &mut usize) -> (TokenStream, TokenStream) {
        let p = &self.p;
        match (dim.parenthesized, dim.atoms.as_slice()) {
            (_, []) => (quote!(#p::Unit), quote!(())),
            (false, [Atom::Named { name, .. }]) => {
                let axis = self.axis(name);
                match self.checked.size_of(name) {
                    Some(value) => {
                        let size = self.size(value);
                        (quote!(#p::SizedAxis<#axis, #size>), axis)
                    }
                    None => (quote!(#p::Axis<#axis>), axis),
                }
            }
            (parenthesized, atoms) => {
                let (parts, shown): (Vec<_>, Vec<_>) =
                    atoms.iter().map(|a| self.part(a, counter)).unzip();
                let parts = self.list(parts.into_iter());
                let shown = match parenthesized {
                    true => quote!((#(#shown,)*)),
                    false => quote!(#(#shown)*),
                };
                (quote!(#p::Group<#parts, #shown>), shown)
            }
        }
    }

    /// An axis of a group on the left and its display.
    fn part(&self, atom: &Atom, counter: &mut usize) -> (TokenStream, TokenStream) {
        let p = &self.p;
        *counter += 1;
        match atom {
            Atom::Named { name, .. } => {
                let axis = self.axis(name);
                let given = match self.checked.size_of(name) {
                    Some(value) => self.size(value),
                    None => quote!(#p::Infer),
                };
                (quote!(#p::Part<#axis, #given>), axis)
            }
            Atom::Anonymous { size, .. } => {
                let unnamed = self.unnamed(*counter);
                let length = self.literal_size(*size);
                (
                    quote!(#p::Part<#unnamed, #length>),
                    quote!(#p::Length<#size>),
                )
            }
            Atom::Ellipsis { .. } => (quote!(#p::Infer), quote!(#p::Ellipsis)),
        }
    }

    /// The output side as a type.
    fn right(&self, dims: &[Dim]) -> TokenStream {
        let p = &self.p;
        let dims = dims.iter().enumerate().map(|(i, dim)| {
            if dim.is_ellipsis() {
                return quote!(#p::OutEllipsis);
            }
            match (dim.parenthesized, dim.atoms.as_slice()) {
                (_, []) => {
                    let (unnamed, one) = (self.unnamed(i), self.literal_size(1));
                    quote!(#p::OutNew<#unnamed, #one>)
                }
                (_, [Atom::Named { name, .. }]) => {
                    let axis = self.axis(name);
                    quote!(#p::OutAxis<#axis>)
                }
                (false, [Atom::Anonymous { size, .. }]) => {
                    let (unnamed, length) = (self.unnamed(i), self.literal_size(*size));
                    quote!(#p::OutNew<#unnamed, #length>)
                }
                (_, atoms) => {
                    let parts = self.list(atoms.iter().map(|atom| match atom {
                        Atom::Named { name, .. } => {
                            let axis = self.axis(name);
                            quote!(#p::PartAxis<#axis>)
                        }
                        Atom::Anonymous { size, .. } => {
                            let (unnamed, length) = (self.unnamed(i), self.literal_size(*size));
                            quote!(#p::PartNew<#unnamed, #length>)
                        }
                        Atom::Ellipsis { .. } => quote!(#p::PartEllipsis),
                    }));
                    let empty = self.unnamed(i);
                    quote!(#p::OutGroup<#parts, #empty>)
                }
            }
        });
        self.list(dims.collect::<Vec<_>>().into_iter())
    }

    /// The new named axes of `repeat`, with their sizes, as a shape.
    fn news(&self) -> TokenStream {
        let p = &self.p;
        let pattern = &self.checked.pattern;
        let left: Vec<&str> = pattern.input().names().collect();
        let news: Vec<(TokenStream, TokenStream)> = pattern
            .output()
            .names()
            .filter(|name| !left.contains(name))
            .filter_map(|name| Some((self.axis(name), self.size(self.checked.size_of(name)?))))
            .collect();
        news.iter().rev().fold(
            quote!(#p::Nil),
            |tail, (axis, size)| quote!(#p::Ax<#axis, #size, #tail>),
        )
    }

    /// True when some output group merges axes (the result may be a copy).
    fn merges(&self) -> bool {
        self.checked.pattern.output().dims.iter().any(|d| {
            d.atoms.len() > 1
                || d.atoms.iter().any(|a| matches!(a, Atom::Ellipsis { .. })) && d.parenthesized
        })
    }

    /// True when the output has axes the input lacks (repeat's stride-0 axes).
    fn repeats(&self) -> bool {
        let pattern = &self.checked.pattern;
        let left: Vec<&str> = pattern.input().names().collect();
        pattern.output().atoms().any(|a| match a {
            Atom::Named { name, .. } => !left.contains(&name.as_str()),
            Atom::Anonymous { .. } => true,
            Atom::Ellipsis { .. } => false,
        })
    }

    /// `[n, m]`: the sizes, in the order the recipe names them.
    fn size_values(&self) -> TokenStream {
        let values = self.checked.sizes.iter().map(|s| match &s.value {
            Value::Literal(n) => {
                let n = *n as usize;
                quote!(#n)
            }
            Value::Runtime(expr) => quote!({
                let size: usize = #expr;
                size
            }),
        });
        quote!([#(#values),*])
    }

    fn operation(&self) -> TokenStream {
        let p = &self.p;
        match self.checked.operation {
            Some(Operation::Reduce(r)) => {
                let r = reduction_variant(r);
                quote!(#p::Operation::Reduce(#p::Reduction::#r))
            }
            Some(Operation::Repeat) => quote!(#p::Operation::Repeat),
            _ => quote!(#p::Operation::Rearrange),
        }
    }

    /// The runtime function: by operation, whether the output is always a
    /// view, and for reductions by the dtype of the result.
    fn function(&self) -> Ident {
        let name = match self.checked.operation {
            Some(Operation::Reduce(Reduction::Sum)) => "reduce_sum",
            Some(Operation::Reduce(Reduction::Prod)) => "reduce_prod",
            Some(Operation::Reduce(Reduction::Mean)) => "reduce_mean",
            Some(Operation::Reduce(Reduction::Min | Reduction::Max)) => "reduce_same",
            Some(Operation::Reduce(Reduction::Any | Reduction::All)) => "reduce_any",
            Some(Operation::Repeat) if self.repeats() => match self.merges() {
                true => "repeat",
                false => "repeat_view",
            },
            _ => match self.merges() {
                true => "rearrange",
                false => "rearrange_view",
            },
        };
        Ident::new(name, self.span)
    }

    /// The call for rearrange, reduce and repeat.
    fn pattern_call(&self, fallible: bool) -> TokenStream {
        let p = &self.p;
        let checked = self.checked;
        let (left, shown) = self.left(&checked.pattern.input().dims);
        let right = self.right(&checked.pattern.output().dims);
        let news = self.news();
        let text = checked.literal.value();
        let operation = self.operation();
        let names = checked.sizes.iter().map(|s| s.name.to_string());
        let values = self.size_values();
        let function = self.function();
        let tensor = &checked.tensors[0];
        // The tensor passes under the pattern's span, so that a shape the
        // pattern does not fit is reported at the pattern.
        let input = Ident::new("__axial_input", self.span);
        let call = quote_spanned! {self.span=>
            #p::#function::<#left, #right, #news, #shown, _>(#input, &__AXIAL_RECIPE, &#values)
        };
        let call = match fallible {
            true => call,
            false => quote_spanned!(self.span=> #p::or_panic(#call)),
        };
        quote! {{
            let #input = #tensor;
            static __AXIAL_RECIPE: #p::RecipeCell = #p::RecipeCell::new(#text, #operation, &[#(#names),*]);
            #call
        }}
    }

    /// The call for einsum.
    fn einsum(&self, fallible: bool) -> TokenStream {
        let p = &self.p;
        let checked = self.checked;
        let lefts: Vec<(TokenStream, TokenStream)> = checked
            .pattern
            .inputs()
            .iter()
            .map(|side| self.left(&side.dims))
            .collect();
        let right = self.right(&checked.pattern.output().dims);
        let specs = lefts
            .iter()
            .map(|(left, shown)| quote!(#p::Operand<#left, #shown>));
        let specs = self.list(specs.collect::<Vec<_>>().into_iter());
        let text = checked.literal.value();
        let operands = checked
            .tensors
            .iter()
            .map(|tensor| quote_spanned!(tensor.span()=> #p::einsum_operand(&#tensor)));
        let call = quote_spanned! {self.span=>
            #p::einsum::<#specs, #right, _>(&__AXIAL_EINSUM, (#(#operands,)*))
        };
        let call = match fallible {
            true => call,
            false => quote_spanned!(self.span=> #p::or_panic(#call)),
        };
        quote! {{
            static __AXIAL_EINSUM: #p::EinsumCell = #p::EinsumCell::new(#text);
            #call
        }}
    }
}

fn reduction_variant(r: Reduction) -> Ident {
    let name = match r {
        Reduction::Min => "Min",
        Reduction::Max => "Max",
        Reduction::Sum => "Sum",
        Reduction::Mean => "Mean",
        Reduction::Prod => "Prod",
        Reduction::Any => "Any",
        Reduction::All => "All",
    };
    Ident::new(name, Span::call_site())
}
