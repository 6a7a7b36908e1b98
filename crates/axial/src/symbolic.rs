//! Symbolic sizes: a size known only at run time (a batch size, a sequence
//! length), bound once at a boundary and proven equal everywhere after.
//!
//! [`scope`] runs a closure with a fresh [`Scope`]. Inside it, a size is
//! written `Sym<'id, Batch>` (a [`Sym`]: the value the scope binds to the
//! symbol `Batch`), and [`realize_in`](TensorBase::realize_in) moves a
//! tensor's `Dyn` (or static) sizes to symbols, checking each against the
//! scope's binding and binding those not yet bound. After that boundary,
//! tensors whose axes carry one symbol add, broadcast and multiply with the
//! sizes proven at compile time, as static sizes are; a `Batch` symbol
//! never stands where a `Seq` symbol is expected (a compile error, though
//! both are run-time sizes); model functions over them need a lifetime
//! parameter and no bound.
//!
//! ```
//! use axial::prelude::*;
//! use axial::{Sym, scope};
//! axes!(Batch, Seq, Model);
//!
//! type X<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Model: 4]>;
//!
//! // Model code: concrete sizes, no size parameter, no bound.
//! fn residual<'id>(x: &X<'id>, y: &X<'id>) -> X<'id> {
//!     x + y
//! }
//!
//! let x = Tensor::<f32, shape![Batch: Dyn, Seq: Dyn, Model: 4]>::ones_dyn([2, 3]);
//! let total = scope(|s| -> axial::Result<f32> {
//!     let x: X<'_> = x.realize_in(s)?; // binds Batch = 2, Seq = 3
//!     assert_eq!(s.value::<Seq>(), Some(3));
//!     Ok(residual(&x, &x).to_vec().iter().sum())
//! })?;
//! assert_eq!(total, 48.0);
//! # Ok::<(), axial::Error>(())
//! ```
//!
//! # Why this is sound
//!
//! The claim a symbolic shape makes: every axis of size `Sym<'id, Tag>`
//! has, at run time, the length the scope `'id` bound to `Tag`. It holds
//! because:
//!
//! 1. **One scope per brand.** `'id` is the closure's own universally
//!    quantified lifetime (`for<'id> FnOnce(&Scope<'id>) -> R`), as in
//!    GhostCell and the `generativity` crate. The closure must work for every
//!    `'id`, so the compiler may assume nothing of it: it equals no other
//!    lifetime, in particular no other scope's. `Scope` has no public
//!    constructor and is not `Clone`, so exactly one `Scope<'id>` (one binding
//!    table) exists for each `'id`.
//! 2. **Brands neither shrink nor grow.** `Sym` and `Scope` are invariant in
//!    `'id` (they hold `fn(&'id ()) -> &'id ()`), so no subtyping turns one
//!    scope's symbol into another's: two scopes' tensors meeting in an op
//!    need their brands to be one lifetime, and the borrow checker refuses.
//! 3. **Brands cannot escape.** `R` is chosen outside the closure, before
//!    `'id` exists, so the result cannot mention `'id`; a symbolic tensor
//!    leaves the scope only with its symbols forgotten (`into_dyn`) or
//!    checked into other sizes (`realize`).
//! 4. **Bound once.** A scope's table maps each symbol name to one value:
//!    [`bind`](Scope::bind) of a bound name to another value is an `Err`,
//!    and [`realize_in`](TensorBase::realize_in) checks each symbolic axis
//!    against the table (binding it first when unbound, from the tensor
//!    itself) before it retypes. Names are compared by spelling, as axis
//!    names are, in the type checker and in the table alike.
//! 5. **Only checked ways in.** The sizes a caller chooses freely
//!    (`reshape`, `view`, `split`, `expand`, `as_strided`, `realize`, and
//!    constructors given `usize` sizes) refuse symbols at compile time
//!    ([`NoSymbols`]); untyped conversions (`try_from_raw`, sparse and
//!    nested builders) refuse them with an `Err`. A constructor makes a
//!    symbolic axis only from an [`Extent`](crate::Extent) of its size,
//!    and an extent of a symbol comes only from a tensor whose axis has it
//!    or from the scope's binding (extents add as their sizes do). Every
//!    other op computes its result's sizes from its inputs': an axis keeps
//!    a symbol only where an input's axis had it and the op keeps that
//!    length (a view along other axes, a reduction over other axes, a
//!    broadcast of the symbol against itself or against 1, a `narrow_to`
//!    of an extent's length), and `cat` gives the sum of its operands'
//!    ([`Plus`](axial_shape::Plus), which `realize_in` never targets). A
//!    product or a symbol met with `Dyn` becomes `Dyn`; met with a static
//!    size, the result is the static size, checked at run time.
//!
//! What stays a run-time check: a symbol against a static size or `Dyn`
//! (the op's usual check, and the `try_` twin's `Err`). Two different
//! symbols meeting anywhere (an op, an in-place op, `realize_in`) are a
//! compile error. Names are identified as axis names are throughout axial,
//! by a 64-bit hash of their spelling in the type checker; the table keys
//! them by the spelling itself. Memory safety never rests on these proofs:
//! the untyped core checks every layout, so a broken proof could only turn
//! into an `Err` (a panic in the panicking twins), never into undefined
//! behaviour.
//!
//! [`NoSymbols`]: axial_shape::NoSymbols

use std::sync::{Mutex, PoisonError};

use axial_core::{Device, Error, Result};
use axial_shape::symbol::InScope;
use axial_shape::{GenericArray, Realize, Shape, Sym, SymbolTag};

use crate::tensor::TensorBase;

/// An invariant lifetime brand (see the module docs).
type Brand<'id> = std::marker::PhantomData<fn(&'id ()) -> &'id ()>;

/// The symbols of one [`scope`]: each name bound to one run-time size.
///
/// Only [`scope`] makes one, and only as `&Scope<'id>` for a fresh `'id`.
///
/// ```
/// use axial::{axes, scope};
/// axes!(Batch);
/// scope(|s| {
///     assert_eq!(s.value::<Batch>(), None);
///     s.bind::<Batch>(8).unwrap();
///     assert_eq!(s.value::<Batch>(), Some(8));
/// });
/// ```
pub struct Scope<'id> {
    /// The bound symbols and their sizes (inline: opening a scope per
    /// request allocates nothing).
    bound: Mutex<Bindings>,
    brand: Brand<'id>,
}

/// A scope's bound symbols and their sizes.
type Bindings = smallvec::SmallVec<[(&'static str, usize); 8]>;

/// Runs `f` with a fresh scope of symbols, whose brand `'id` no other scope
/// shares and no value outside `f` can hold.
///
/// ```
/// use axial::prelude::*;
/// use axial::{Sym, scope};
/// axes!(Batch, Model);
/// let x = Tensor::<f32, shape![Batch: Dyn, Model: 2]>::ones_dyn(3);
/// let rows = scope(|s| {
///     let x = x.realize_in::<shape![Batch: Sym<'_, Batch>, Model: 2]>(s)?;
///     Ok::<_, axial::Error>(x.sum::<Model>().to_vec())
/// })?;
/// assert_eq!(rows, [2.0, 2.0, 2.0]);
/// # Ok::<(), axial::Error>(())
/// ```
pub fn scope<R>(f: impl for<'id> FnOnce(&Scope<'id>) -> R) -> R {
    let scope = Scope {
        bound: Mutex::new(Bindings::new()),
        brand: Brand::default(),
    };
    f(&scope)
}

impl<'id> Scope<'id> {
    /// Binds the symbol `Tag` to the size `n` in this scope, giving the
    /// symbol; binding it again to the same size is a no-op.
    ///
    /// # Errors
    /// `Tag` is already bound to another size.
    ///
    /// ```
    /// use axial::{axes, scope};
    /// axes!(Seq);
    /// scope(|s| {
    ///     s.bind::<Seq>(5)?;
    ///     s.bind::<Seq>(5)?;
    ///     let err = s.bind::<Seq>(7).unwrap_err();
    ///     assert_eq!(err.to_string(), "bind: symbol `Seq` is bound to 5 in this scope, not 7");
    ///     Ok::<(), axial::Error>(())
    /// })?;
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn bind<Tag: SymbolTag>(&self, n: usize) -> Result<Sym<'id, Tag>> {
        let mut bound = self.table();
        match bound.iter().find(|(name, _)| *name == Tag::TAG) {
            Some(&(_, have)) if have != n => Err(Error::invalid(
                "bind",
                format!(
                    "symbol `{}` is bound to {have} in this scope, not {n}",
                    Tag::TAG
                ),
            )),
            Some(_) => Ok(Sym::new()),
            None => {
                bound.push((Tag::TAG, n));
                Ok(Sym::new())
            }
        }
    }

    /// The size bound to the symbol `Tag`, if it is bound.
    ///
    /// ```
    /// use axial::{axes, scope};
    /// axes!(Batch, Seq);
    /// scope(|s| {
    ///     s.bind::<Batch>(2).unwrap();
    ///     assert_eq!((s.value::<Batch>(), s.value::<Seq>()), (Some(2), None));
    /// });
    /// ```
    pub fn value<Tag: SymbolTag>(&self) -> Option<usize> {
        self.table()
            .iter()
            .find(|(bound, _)| *bound == Tag::TAG)
            .map(|&(_, n)| n)
    }

    /// The binding table (never poisoned: no code panics holding it).
    fn table(&self) -> std::sync::MutexGuard<'_, Bindings> {
        self.bound.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl std::fmt::Debug for Scope<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.table().iter().copied()).finish()
    }
}

/// Refuses a shape with a symbolic size where an untyped value is typed
/// (`op` names the conversion).
pub(crate) fn refuse_symbols<S: Shape>(op: &'static str) -> Result<()> {
    let mut symbols = GenericArray::<Option<&'static str>, S::Rank>::default();
    S::write_symbols(&mut symbols);
    match symbols.iter().flatten().next() {
        Some(name) => Err(Error::invalid(
            op,
            format!(
                "the symbolic size `{name}` cannot be given here: type the tensor with `Dyn` and `realize_in` it"
            ),
        )),
        None => Ok(()),
    }
}

impl<T, S: Shape, D: Device, R> TensorBase<T, S, D, R> {
    /// The same tensor seen as the shape `S2`, whose names are this
    /// tensor's and whose sizes may be symbols of the scope `s`: each static
    /// size of `S2` checked as [`realize`](Self::realize) does, each symbol
    /// checked against its binding in `s`, or bound to this tensor's size
    /// when unbound (the boundary after which the symbols are proven).
    ///
    /// # Errors
    /// A run-time size differs from `S2`'s static size or from its symbol's
    /// value (nothing is bound then).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::{Sym, scope};
    /// axes!(Batch, Seq, Model);
    /// let x = Tensor::<f32, shape![Batch: Dyn, Seq: Dyn, Model: 4]>::zeros_dyn([2, 5]);
    /// scope(|s| {
    ///     s.bind::<Seq>(7)?;
    ///     let err = x
    ///         .as_view()
    ///         .realize_in::<shape![Batch: Sym<'_, Batch>, Seq: Sym<'_, Seq>, Model: 4]>(s)
    ///         .unwrap_err();
    ///     assert_eq!(
    ///         err.to_string(),
    ///         "realize: axis `Seq` has size 5, but its symbol `Seq` is bound to 7"
    ///     );
    ///     assert_eq!(s.value::<Batch>(), None);
    ///     Ok::<(), axial::Error>(())
    /// })?;
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn realize_in<'id, S2: Shape + InScope<'id>>(
        self,
        s: &Scope<'id>,
    ) -> Result<TensorBase<T, S2, D, R>>
    where
        S: Realize<S2>,
    {
        let mut statics = GenericArray::<Option<usize>, S2::Rank>::default();
        S2::write_static_sizes(&mut statics);
        let mut symbols = GenericArray::<Option<&'static str>, S2::Rank>::default();
        S2::write_symbols(&mut symbols);
        let mut names = GenericArray::<Option<&str>, S::Rank>::default();
        S::write_names(&mut names);
        // One lock for the check and the bindings: all or nothing.
        let mut table = s.table();
        let bound_before = table.len();
        let axes = self.layout.shape().iter().zip(statics).zip(symbols);
        for (((&have, want), symbol), name) in axes.zip(names) {
            let name = name.unwrap_or("_");
            if let Some(want) = want.filter(|&w| w != have) {
                table.truncate(bound_before);
                return Err(Error::invalid(
                    "realize",
                    format!("axis `{name}` has size {have}, but the type says {want}"),
                ));
            }
            let Some(symbol) = symbol else { continue };
            match table.iter().find(|(bound, _)| *bound == symbol) {
                Some(&(_, value)) if value != have => {
                    table.truncate(bound_before);
                    return Err(Error::invalid(
                        "realize",
                        format!(
                            "axis `{name}` has size {have}, but its symbol `{symbol}` is bound to {value}"
                        ),
                    ));
                }
                Some(_) => {}
                None => table.push((symbol, have)),
            }
        }
        drop(table);
        Ok(self.retype())
    }
}
