//! The pattern parsed and checked by `axial-pattern` while the program
//! compiles: einops' errors, in einops' words, pointing at the pattern (the
//! message quotes the pattern with the offending token marked) or at the
//! size argument they concern.

use axial_pattern::{
    Atom, Einsum, ErrorKind, Operation, Pattern, PatternError, Recipe, Reduction, Span,
};
use proc_macro2::Span as TokenSpan;
use syn::{Expr, Ident, LitStr};

use super::Kind;
use super::parse::{Args, SizeArg, SizeValue};

/// A size given after the pattern, checked.
pub(crate) struct Size {
    pub(crate) name: Ident,
    pub(crate) value: Value,
}

/// A size's value.
pub(crate) enum Value {
    /// A literal: the compiler knows it.
    Literal(u64),
    /// An expression: known at run time.
    Runtime(Box<Expr>),
}

/// A macro call whose pattern einops accepts.
pub(crate) struct Checked {
    pub(crate) kind: Kind,
    pub(crate) tensors: Vec<Expr>,
    pub(crate) literal: LitStr,
    pub(crate) pattern: Pattern,
    pub(crate) operation: Option<Operation>,
    pub(crate) sizes: Vec<Size>,
}

impl Checked {
    /// The size given for `name`.
    pub(crate) fn size_of(&self, name: &str) -> Option<&Value> {
        self.sizes.iter().find(|s| s.name == name).map(|s| &s.value)
    }
}

pub(crate) fn check(kind: Kind, args: Args) -> syn::Result<Checked> {
    let literal = args.pattern;
    let text = literal.value();
    let sizes = sizes(args.sizes)?;
    if kind == Kind::Einsum {
        let pattern = Pattern::parse_einsum(&text)
            .map_err(|e| at_pattern(&literal, &e.to_string(), e.span()))?;
        let spec =
            Einsum::new(&pattern).map_err(|e| at_pattern(&literal, &e.to_string(), e.span()))?;
        einsum_operands(&literal, &pattern, &spec, args.tensors.len())?;
        identifiers(&literal, &pattern, &sizes)?;
        return Ok(Checked {
            kind,
            tensors: args.tensors,
            literal,
            pattern,
            operation: None,
            sizes,
        });
    }
    let operation = match (kind, &args.reduction) {
        (Kind::Reduce, Some(name)) => Operation::Reduce(reduction(name)?),
        (Kind::Repeat, _) => Operation::Repeat,
        _ => Operation::Rearrange,
    };
    let pattern =
        Pattern::parse(&text).map_err(|e| at_pattern(&literal, &e.to_string(), e.span()))?;
    let names: Vec<String> = sizes.iter().map(|s| s.name.to_string()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    Recipe::new(&pattern, operation, &names).map_err(|e| recipe_error(&literal, &sizes, &e))?;
    identifiers(&literal, &pattern, &sizes)?;
    zero_divisors(&literal, &pattern, &sizes)?;
    Ok(Checked {
        kind,
        tensors: args.tensors,
        literal,
        pattern,
        operation: Some(operation),
        sizes,
    })
}

/// einops' reduction of this name.
fn reduction(name: &Ident) -> syn::Result<Reduction> {
    name.to_string()
        .parse()
        .map_err(|e: PatternError| syn::Error::new(name.span(), e.to_string()))
}

/// Sizes given once each, literals that fit a `usize` of the widest target.
fn sizes(args: Vec<SizeArg>) -> syn::Result<Vec<Size>> {
    let mut out: Vec<Size> = Vec::new();
    for SizeArg { name, value } in args {
        if out.iter().any(|s| s.name == name) {
            let kind = ErrorKind::RepeatedSize {
                name: name.to_string(),
            };
            return Err(syn::Error::new(name.span(), kind.to_string()));
        }
        let value = match value {
            SizeValue::Literal(lit) => {
                if !lit.suffix().is_empty() && lit.suffix() != "usize" {
                    return Err(syn::Error::new(
                        lit.span(),
                        "a size is a plain integer (or `usize`-suffixed)",
                    ));
                }
                Value::Literal(lit.base10_parse::<u64>()?)
            }
            SizeValue::Runtime(expr) => Value::Runtime(expr),
        };
        out.push(Size { name, value });
    }
    Ok(out)
}

/// A recipe error: at the size argument it names, else at the pattern.
fn recipe_error(literal: &LitStr, sizes: &[Size], error: &PatternError) -> syn::Error {
    let named = match error.kind() {
        ErrorKind::UnusedSize { name }
        | ErrorKind::RepeatedSize { name }
        | ErrorKind::InvalidSizeName { name } => sizes.iter().find(|s| s.name == name),
        _ => None,
    };
    match named {
        Some(size) => syn::Error::new(size.name.span(), error.to_string()),
        None => at_pattern(literal, &error.to_string(), error.span()),
    }
}

/// Each axis name is a Rust identifier: the type of an axis in scope,
/// spelled as a type (einops' own docs write `b h w`; here those would be
/// looked up as types, and `s` would find the prelude's `s!`).
fn identifiers(literal: &LitStr, pattern: &Pattern, sizes: &[Size]) -> syn::Result<()> {
    let atoms: Vec<&Atom> = pattern
        .inputs()
        .iter()
        .chain([pattern.output()])
        .flat_map(|side| side.atoms())
        .collect();
    for atom in &atoms {
        if let Atom::Named { name, span } = atom
            && syn::parse_str::<Ident>(name).is_err()
        {
            let message = match name.as_str() {
                "_" => "`_` is not an axis: name each axis by its type".to_owned(),
                _ => format!("`{name}` cannot name an axis type"),
            };
            return Err(at_pattern(literal, &message, Some(*span)));
        }
    }
    let lowercase = |name: &str| name.starts_with(|c: char| c.is_lowercase());
    let mut names: Vec<&str> = Vec::new();
    for atom in &atoms {
        if let Some(name) = atom.name()
            && lowercase(name)
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    let Some(first) = atoms.iter().find(|a| a.name().is_some_and(lowercase)) else {
        return Ok(());
    };
    Err(at_pattern(
        literal,
        &lowercase_names(&literal.value(), &names, sizes),
        Some(first.span()),
    ))
}

/// The one error for a pattern written with einops' lowercase names: what
/// the names are here, and the lines to write instead.
fn lowercase_names(text: &str, names: &[&str], sizes: &[Size]) -> String {
    let upper = |name: &str| {
        let mut chars = name.chars();
        chars.next().map_or_else(String::new, |c| {
            c.to_uppercase().chain(chars).collect::<String>()
        })
    };
    let declared: Vec<String> = names.iter().map(|n| upper(n)).collect();
    let pattern: String = text
        .split_inclusive(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map(|piece| {
            let word_len = piece
                .trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_'))
                .len();
            let (word, rest) = piece.split_at(word_len);
            if names.contains(&word) {
                format!("{}{rest}", upper(word))
            } else {
                piece.to_owned()
            }
        })
        .collect();
    let given: Vec<String> = sizes
        .iter()
        .filter(|s| names.contains(&s.name.to_string().as_str()))
        .map(|s| {
            let value = match &s.value {
                Value::Literal(n) => n.to_string(),
                Value::Runtime(expr) => quote::quote!(#expr).to_string(),
            };
            format!("{} = {value}", upper(&s.name.to_string()))
        })
        .collect();
    let sizes = match given.as_slice() {
        [] => String::new(),
        given => format!(" with `{}`", given.join(", ")),
    };
    format!(
        "pattern names are axis types, declared with `axes!` and spelled as types (`{}` is looked up as a type): declare `axes!({});` and write \"{pattern}\"{sizes}",
        names.first().copied().unwrap_or_default(),
        declared.join(", "),
    )
}

/// A literal size 0 cannot give the length of another axis of its group.
fn zero_divisors(literal: &LitStr, pattern: &Pattern, sizes: &[Size]) -> syn::Result<()> {
    for dim in &pattern.input().dims {
        let given = |atom: &Atom| {
            atom.name()
                .and_then(|n| sizes.iter().find(|s| s.name == n))
                .map(|s| &s.value)
        };
        let inferred = dim
            .atoms
            .iter()
            .any(|a| a.name().is_some() && given(a).is_none());
        let zero = dim
            .atoms
            .iter()
            .find(|a| matches!(given(a), Some(Value::Literal(0))));
        if let (true, Some(atom)) = (inferred, zero) {
            return Err(at_pattern(
                literal,
                "an axis of size 0 leaves the other axes of its group without a length",
                Some(atom.span()),
            ));
        }
    }
    Ok(())
}

/// One tensor per input of the pattern, and no name twice in one input (a
/// tensor's axes have distinct names; take a diagonal with `diagonal` first).
fn einsum_operands(
    literal: &LitStr,
    pattern: &Pattern,
    spec: &Einsum,
    given: usize,
) -> syn::Result<()> {
    if spec.inputs.len() != given {
        let tensors = match given {
            1 => "1 tensor".to_owned(),
            n => format!("{n} tensors"),
        };
        return Err(syn::Error::new(
            literal.span(),
            format!(
                "the pattern has {} inputs but einsum! was given {tensors}",
                spec.inputs.len()
            ),
        ));
    }
    for side in pattern.inputs() {
        let atoms: Vec<&Atom> = side.atoms().collect();
        for (i, atom) in atoms.iter().enumerate() {
            if let Some(name) = atom.name()
                && atoms[..i].iter().any(|a| a.name() == Some(name))
            {
                return Err(at_pattern(
                    literal,
                    &format!(
                        "axis `{name}` twice in one input: a tensor's axes have distinct names (take a diagonal with `diagonal` first)"
                    ),
                    Some(atom.span()),
                ));
            }
        }
    }
    Ok(())
}

/// An error at the pattern literal: the message, then the pattern with the
/// offending token marked (the literal's own sub-span where the compiler
/// can point inside it).
pub(crate) fn at_pattern(literal: &LitStr, message: &str, span: Option<Span>) -> syn::Error {
    let text = literal.value();
    let Some(span) = span.filter(|s| s.end <= text.len() && s.start <= s.end) else {
        return syn::Error::new(literal.span(), message);
    };
    let lead = text[..span.start].chars().count();
    let width = text[span.range()].chars().count().max(1);
    let marked = format!(
        "{message}\n  |  {text}\n  |  {}{}",
        " ".repeat(lead),
        "^".repeat(width)
    );
    syn::Error::new(sub_span(literal, span), marked)
}

/// The span of `span` inside the literal where the compiler supports it (a
/// plain literal without escapes), else the literal's.
fn sub_span(literal: &LitStr, span: Span) -> TokenSpan {
    let token = literal.token();
    let source = token.to_string();
    let plain = source.len() == literal.value().len() + 2 && source.starts_with('"');
    plain
        .then(|| token.subspan(span.start + 1..span.end + 1))
        .flatten()
        .unwrap_or_else(|| literal.span())
}
