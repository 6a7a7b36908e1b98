//! # Guide: model code, generic code, and the compile errors
//!
//! How to write model code with axial so that the compiler proves every
//! shape and nothing is left to check at run time, and how to read the
//! errors when it refuses.
//!
//! ## 1. Model code has concrete types and no bounds
//!
//! Sizes known when the program is written are literals; sizes known only
//! at run time (a batch size, a sequence length) are symbols, bound once at
//! the boundary with [`scope`](crate::scope) and
//! [`realize_in`](crate::TensorBase::realize_in). Model functions then have
//! concrete types: a lifetime parameter for the scope, no size parameter,
//! no trait bound, and every op between them is proven.
//!
//! ```
//! use axial::prelude::*;
//! axes!(Batch, Seq, Model);
//!
//! type X<'id> = Tensor<f32, shape![Batch: Sym<'id, Batch>, Seq: Sym<'id, Seq>, Model: 8]>;
//!
//! fn residual_norm<'id>(x: &X<'id>, y: &X<'id>) -> X<'id> {
//!     (x + y).layer_norm::<Model>(None, None, 1e-5) // `x + y`: one symbol per axis, proven
//! }
//!
//! let input = Tensor::<f32, shape![Batch: Dyn, Seq: Dyn, Model: 8]>::ones_dyn([2, 3]);
//! let sizes = scope(|s| -> axial::Result<Vec<usize>> {
//!     let x: X<'_> = input.realize_in(s)?; // the one run-time check: binds Batch = 2, Seq = 3
//!     Ok(residual_norm(&x, &x).sizes().to_vec())
//! })?;
//! assert_eq!(sizes, vec![2, 3, 8]);
//! # Ok::<(), axial::Error>(())
//! ```
//!
//! A `Batch` symbol never stands where a `Seq` symbol is expected, though
//! both are run-time sizes, and tensors of two scopes never meet: both are
//! compile errors (see [`symbolic`](crate::symbolic) for why this is sound).
//!
//! ## 2. Generic over the dtype: one bound
//!
//! [`Float`](crate::Float) implies what arithmetic asks of a dtype, so a
//! function over any float dtype needs that bound alone.
//!
//! ```
//! use axial::prelude::*;
//! axes!(Rows, Cols);
//!
//! type M<T> = Tensor<T, shape![Rows: 2, Cols: 3]>;
//!
//! /// Softmax over `Cols`, spelled out: sums and quotients of a float are that float.
//! fn soft<T: Float>(x: &M<T>) -> M<T> {
//!     let e = x.exp();
//!     &e / &e.sum_keepdim::<Cols>()
//! }
//!
//! let a = soft(&M::<f32>::zeros());
//! let b = soft(&M::<f64>::zeros());
//! assert!((a.get([0, 0]) - 1.0 / 3.0).abs() < 1e-6);
//! assert!((b.get([1, 2]) - 1.0 / 3.0).abs() < 1e-12);
//! ```
//!
//! ## 3. Generic over the shape: a bundle, in the user's words
//!
//! A function "over any tensor with an axis `Batch`" names what it does with
//! the shape in one bound. [`OverAxis<A>`](crate::OverAxis) is "has an axis
//! `A`, and statistics over `A` kept as size 1 broadcast back": what
//! `(x - mean) / std` asks. It holds for static, `Dyn` and symbolic sizes,
//! wherever `A` sits.
//!
//! ```
//! use axial::prelude::*;
//! axes!(Batch, Seq, Features);
//!
//! fn standardize<T: Float, S: OverAxis<Batch>>(x: &Tensor<T, S>) -> Tensor<T, S> {
//!     let mean = x.mean_keepdim::<Batch>();
//!     let std = x.std_keepdim::<Batch>(1.0);
//!     (x - &mean) / &std
//! }
//!
//! let x = Tensor::<f32, shape![Batch: 4, Features: 2]>::from_array([[1.0, 0.0], [2.0, 0.0], [3.0, 1.0], [4.0, 1.0]]);
//! assert!(standardize(&x).mean::<Batch>().to_vec().iter().all(|m| m.abs() < 1e-6));
//! let y = Tensor::<f64, shape![Seq: Dyn, Batch: 3]>::arange_dyn(5);
//! assert_eq!(standardize(&y).sizes().as_slice(), &[5, 3]);
//! ```
//!
//! Why a bundle and not the ops' own bounds: the ops' traits compute shapes
//! (`Reduce<Batch>::Kept`, `BroadcastWith<..>::Output`), and a generic
//! function would have to name each one and say what it equals. A bundle is
//! a trait whose supertraits say it once, with a blanket impl, so it holds
//! for a shape exactly when every proof it bundles holds.
//!
//! ## 4. Generic over an axis name
//!
//! An axis name is a type; a function generic over it asks the name's own
//! bundle, [`OverAxis`](crate::OverAxis) here, or an op's trait such as
//! [`HasAxis`](crate::shape::HasAxis):
//!
//! ```
//! use axial::prelude::*;
//! use axial::shape::HasAxis;
//! axes!(Rows, Cols);
//!
//! fn centered<A, S: OverAxis<A>>(x: &Tensor<f32, S>) -> Tensor<f32, S> {
//!     x - &x.mean_keepdim::<A>()
//! }
//! fn probabilities<A, S: HasAxis<A>>(x: &Tensor<f32, S>) -> Tensor<f32, S> {
//!     x.softmax::<A>()
//! }
//!
//! let x = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
//! assert_eq!(centered::<Cols, _>(&x).to_vec(), vec![-1.0, 0.0, 1.0, -1.0, 0.0, 1.0]);
//! assert_eq!(centered::<Rows, _>(&x).get([0, 0]), -1.5);
//! assert!((probabilities::<Rows, _>(&x).sum::<Rows>().get([2]) - 1.0).abs() < 1e-6);
//! ```
//!
//! ## 5. Generic over the device: one bound
//!
//! A tensor's device is its third type parameter (`Cpu` by default);
//! [`Backend`](crate::Backend) is what every op asks of it, so code that
//! runs on the CPU and on a GPU (`Cuda`, with the `cuda` feature) alike
//! takes that bound, and tensors of two devices never meet in an op.
//!
//! ```
//! use axial::prelude::*;
//! use axial::Backend;
//! axes!(Token, Model);
//!
//! type Hidden<D> = Tensor<f32, shape![Token: 3, Model: 4], D>;
//!
//! fn gelu_residual<D: Backend>(x: &Hidden<D>) -> Hidden<D> {
//!     x + &x.gelu()
//! }
//!
//! let y = gelu_residual(&Hidden::<Cpu>::ones());
//! assert!((y.get([0, 0]) - 1.841_344_7).abs() < 1e-6);
//! ```
//!
//! ## 6. One function for every length: symbols, sums and a KV cache
//!
//! A decoder runs its forward on the whole prompt (prefill) and then on
//! one token at a time (decoding), over a cache of keys and values that
//! grows by each step's. One function serves both when the step's length
//! is a symbol: each step opens a [`scope`](crate::scope) and binds `Seq`
//! to its length (the prompt's, then 1) and `Past` to the cache's, in
//! [`realize_in`](crate::TensorBase::realize_in), the step's one run-time
//! check. Inside, nothing is checked: [`cat`](crate::TensorBase::cat) of the
//! cache (`Key: Sym<'id, Past>`) and the step's keys (`Sym<'id, Seq>`) has
//! `Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>`, a size the type says, so the
//! keys and the values grown alike contract with each other as proven
//! sizes; a mask at those sizes is made from their
//! [`Extent`](crate::Extent)s, which come only from tensors that have them.
//!
//! ```
//! use axial::prelude::*;
//! use axial::{Attention, Extents, Plus};
//! axes!(Seq, Key, Past, Head);
//!
//! type Queries<'id> = Tensor<f32, shape![Seq: Sym<'id, Seq>, Head: 4]>;
//! type Cached<'id> = Tensor<f32, shape![Key: Sym<'id, Past>, Head: 4]>;
//! type Grown<'id> = Tensor<f32, shape![Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>, Head: 4]>;
//! type Visible<'id> = Tensor<Bool, shape![Seq: Sym<'id, Seq>, Key: Plus<Sym<'id, Past>, Sym<'id, Seq>>]>;
//!
//! /// Causal attention of a step over the cache and itself, for every `Seq`
//! /// and `Past`: no size parameter, no bound, no `try_`.
//! fn attend<'id>(q: &Queries<'id>, cache: &Cached<'id>) -> (Queries<'id>, Grown<'id>) {
//!     let keys = cache.cat::<Key, _>(q.as_view().rename::<Seq, Key>()); // Past + Seq keys
//!     let (past, seq) = (cache.extent::<Key>(), q.extent::<Seq>());
//!     // Query i is token Past + i: it sees the keys up to Past + i.
//!     let visible = Visible::full_dyn(Extents((seq, past + seq)), Bool::TRUE)
//!         .tril::<Seq, Key>(past.get() as i64);
//!     let out = q.scaled_dot_product_attention_masked(&keys, &keys, &visible, Attention::default());
//!     (out, keys)
//! }
//!
//! let mut cache = Tensor::<f32, shape![Key: Dyn, Head: 4]>::zeros_dyn(0);
//! for len in [3, 1, 1] {
//!     // a prefill of 3 tokens, then two steps of 1, through one function
//!     let x = Tensor::<f32, shape![Seq: Dyn, Head: 4]>::ones_dyn(len);
//!     cache = scope(|s| -> axial::Result<_> {
//!         let (q, past) = (x.realize_in(s)?, cache.realize_in(s)?); // binds Seq and Past
//!         let (out, grown) = attend(&q, &past);
//!         assert_eq!(out.sizes().as_slice(), &[len, 4]);
//!         Ok(grown.into_dyn::<Key>()) // the symbols stay in their scope
//!     })?;
//! }
//! assert_eq!(cache.sizes().as_slice(), &[5, 4]);
//! # Ok::<(), axial::Error>(())
//! ```
//!
//! The repository's `examples/decoder.rs` is a whole GPT-style decoder
//! written so, which checks its cached logits against a pass without a
//! cache.
//!
//! Why a symbol and not a size parameter (`fn attend<L: ...>` taking
//! `Seq: Sz<1>` and `Seq: Sym<'id, Prompt>` alike): every shape carries its
//! element count, the product of its sizes, and a product of a static size
//! is computed in the type; for a size parameter that product is unknown,
//! so each shape the function makes would need its own bound. A symbol's
//! products are run-time values (`Dyn`) whatever the rest of the shape is,
//! so a function over symbols needs none, and binding `Seq` to 1 makes a
//! decoding step one more length of the same function.
//!
//! Sizes kept by the ops: `cat` adds them (static sums are static, a
//! symbol's a [`Plus`](crate::Plus)); [`pad`](crate::TensorBase::pad)'s
//! amounts and [`topk`](crate::TensorBase::topk)'s `K` are in the type;
//! [`narrow_to`](crate::TensorBase::narrow_to) cuts an axis to the size of
//! an extent (`Sz::<4>`, or another tensor's axis);
//! [`unfold_windows`](crate::TensorBase::unfold_windows) counts its windows
//! in the type; `s![..]` slices by literals to static sizes.
//!
//! ## 7. Reading the compile errors
//!
//! Every shape in a message prints with its names and sizes, one entry per
//! axis: `[Model; 64]` for a static size, `(Seq, Dyn)` for a run-time one,
//! `(Seq, Sym<'id, Seq>)` for a symbol. Static sizes are spelled
//! [`Sz<64>`](crate::Sz) in types, so a size mismatch at a function boundary
//! reads as numbers:
//!
//! ```text
//! error[E0308]: mismatched types
//!    |
//! 12 |     let _ = block(&x);
//!    |             ----- ^^ expected `64`, found `32`
//!    = note: expected reference `&TensorBase<_, Ax<_, _, Ax<_, Sz<64>, _>>, _, _>`
//!               found reference `&TensorBase<_, Ax<_, _, Ax<_, Sz<32>, _>>, _, _>`
//! note: function defined here
//!    |
//!  6 | fn block(x: &Tensor<f32, shape![Batch: 4, Model: 64]>) -> f32 {
//! ```
//!
//! rustc writes `_` for every part of the two types that agrees, the axis
//! names included, and no attribute changes what this error (a type
//! mismatch, not a failed proof) prints. The axis is the one at that place
//! of the shape: `Ax<_, _, Ax<_, Sz<64>, _>>` is the second axis, `Model`
//! in the signature the note points to. To see the types whole, with the
//! names, ask rustc for its verbose form, on the crate alone (its
//! dependencies are not rebuilt):
//!
//! ```text
//! $ cargo rustc --bin my_model -- --verbose     (or --lib, --test name, --example name)
//!    = note: expected reference `&TensorBase<f32, Ax<Batch, Sz<4>, Ax<Model, Sz<64>, Nil>>, Cpu, Owned<Cpu>>`
//!               found reference `&TensorBase<f32, Ax<Batch, Sz<4>, Ax<Model, Sz<32>, Nil>>, Cpu, Owned<Cpu>>`
//! ```
//!
//! Where the sizes of a tensor from elsewhere are to be checked, rather than
//! trusted, [`realize`](crate::TensorBase::realize) is the boundary that
//! names the axis: `x.realize::<shape![Batch: 4, Model: 64]>()` is a proof
//! for static sizes (a mismatch is a compile error that says
//! `Model` has 32 where 64 is wanted) and a run-time check for `Dyn` ones.
//!
//! and a failed proof names the axes and shapes in the first line:
//!
//! ```text
//! error[E0277]: cannot multiply `([Rows; 2], [Inner; 3])` by `([Inner; 4], [Cols; 5])`: the contracted axes `Inner` (left) and `Inner` (right) have different sizes
//! ```
//!
//! The proofs' arithmetic (products of merged axes, quotients of split
//! ones, slice lengths) runs in typenum behind `Sz`; sizes past
//! [`SZ_MAX`](crate::shape::SZ_MAX) (8191) are typenum numbers themselves
//! and print as such.

pub mod training;
