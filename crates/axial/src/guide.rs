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
//! ## 6. Reading the compile errors
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
//!    = note: expected reference `&TensorBase<f32, Ax<Batch, Sz<4>, Ax<Model, Sz<64>, Nil>>, Cpu, Owned<Cpu>>`
//!               found reference `&TensorBase<f32, Ax<Batch, Sz<4>, Ax<Model, Sz<32>, Nil>>, Cpu, Owned<Cpu>>`
//! note: function defined here
//!    |
//!  6 | fn block(x: &Tensor<f32, shape![Batch: 4, Model: 64]>) -> f32 {
//! ```
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
