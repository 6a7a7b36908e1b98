//! [`Var`]: a typed tensor that records the ops it goes through; its two
//! kinds, [`Writable`] and [`Kept`]; leaves ([`TensorBase::track`],
//! [`Var::leaf`]) and the backward pass ([`Var::backward`]).

use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use axial_core::autograd::{LeafId, Var as CoreVar};
use axial_core::{Backend, Cpu, Device, Element, Layout, Result, TensorRef};
use axial_shape::Shape;

use super::grads::Gradients;
use crate::access::OneElementShape;
use crate::or_panic::or_panic;
use crate::repr::{Data, View};
use crate::tensor::{Tensor, TensorBase, TensorView};

mod sealed {
    pub trait Sealed {}
}

/// Whether a tracked tensor may be written in place: [`Writable`] or
/// [`Kept`].
///
/// ```
/// use axial::autograd::{Access, Kept, Writable};
/// fn kind<W: Access>() -> bool { W::WRITABLE }
/// assert!(kind::<Writable>() && !kind::<Kept>());
/// ```
pub trait Access: sealed::Sealed + 'static {
    /// True for [`Writable`].
    const WRITABLE: bool;
}

/// A tracked tensor nothing else reads: in-place ops exist for it, as in
/// PyTorch (`x += residual`, `scores.masked_fill_(mask, -inf)`).
///
/// ```
/// use axial::autograd::{Var, Writable};
/// use axial::prelude::*;
/// let w = Tensor::<f32, shape![2]>::ones();
/// let mut h: Var<'_, f32, shape![2], Cpu, Writable> = &w.track() * 2.0;
/// h.add_(1.0);
/// assert_eq!(h.value().to_vec(), vec![3.0, 3.0]);
/// ```
#[derive(Copy, Clone, Debug)]
pub struct Writable;

/// A tracked tensor that cannot be written in place: the graph keeps its
/// elements for the backward pass (the output of `exp`, `sigmoid`, `tanh`,
/// `sqrt`, `rsqrt`, `relu`, `softmax`, `log_softmax`, ..., as in PyTorch),
/// it is a leaf (a parameter), or its elements may overlap (a broadcast).
///
/// ```
/// use axial::autograd::{Kept, Var};
/// use axial::prelude::*;
/// let w = Tensor::<f32, shape![2]>::zeros();
/// let p: Var<'_, f32, shape![2], Cpu, Kept> = w.track().exp(); // exp keeps its output
/// assert_eq!(p.value().to_vec(), vec![1.0, 1.0]);
/// ```
#[derive(Copy, Clone, Debug)]
pub struct Kept;

/// The access of a tracked tensor that in-place ops ask for: [`Writable`].
/// On a [`Kept`] tensor they do not compile, with this message.
///
/// ```
/// use axial::autograd::{WriteInPlace, Writable};
/// fn writes<W: WriteInPlace>() {}
/// writes::<Writable>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot write in place into a tracked tensor the graph keeps for the backward pass",
    label = "a `Var<.., Kept>`: kept by the graph, a leaf, or a broadcast",
    note = "exp, expm1, tan, tanh, sigmoid, relu, sqrt, rsqrt, reciprocal, softmax, log_softmax, std, amax, amin, logsumexp and `reduce!` by max, min or prod keep their output (as PyTorch saves it), so writing into it would change what the backward pass reads",
    note = "a leaf (a parameter) and a view whose elements overlap cannot be written either; write into a copy (`&y + 0.0`), or after `backward()` has consumed the graph"
)]
pub trait WriteInPlace: Access {}

impl WriteInPlace for Writable {}

impl sealed::Sealed for Writable {}
impl sealed::Sealed for Kept {}
impl Access for Writable {
    const WRITABLE: bool = true;
}
impl Access for Kept {
    const WRITABLE: bool = false;
}

/// A tensor of `T` with axes `S` on `D` that records the ops it goes
/// through, so that [`backward`](Var::backward) gives the gradient of a
/// result with respect to each leaf, of that leaf's type.
///
/// `'g` is how long what the graph borrows lives: the parameters it reads
/// in place, and each tensor an op keeps for the backward pass (a product
/// keeps its factors, `log` its input, `layer_norm` its input, weight and
/// bias, ...). An op that keeps an input borrows it for as long as its
/// result lives, so writing into that input in place is a borrow error, the
/// compile-time form of PyTorch's "modified by an inplace operation"; an
/// op that keeps its output gives a [`Kept`] result, which has no in-place
/// ops. What each op keeps is PyTorch's choice for that op; the rest stays
/// writable.
///
/// Views of a tracked tensor ([`map_view`](Var::map_view), `align_to`,
/// `split`, `select`, ...) keep its history; an op without a derivative
/// does not exist on it (its value is at [`value`](Var::value), its
/// elements without history at [`detach`](Var::detach)). The design:
/// [`crate::autograd`].
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(Batch, In, Out);
/// let w = Tensor::<f64, shape![Out: 2, In: 3]>::ones();
/// let x = Tensor::<f64, shape![Batch: 4, In: 3]>::full(0.5);
/// let wv = w.track();
/// let loss = x.linear_tracked(&wv, None).square().sum_all();
/// let grads = loss.backward();
/// let g: Tensor<f64, shape![Out: 2, In: 3]> = grads.of(&wv).unwrap(); // the weight's type
/// assert_eq!(g.to_vec(), vec![6.0; 6]); // Σ_batch 2·(1.5)·0.5
/// ```
pub struct Var<'g, T, S, D: Device = Cpu, W = Writable> {
    /// The base: elements, their layout when made, history.
    pub(crate) var: CoreVar<'g, D>,
    /// This tensor's layout over the base's storage (the base's, or a view
    /// of it).
    pub(crate) layout: Layout,
    marker: Marker<T, S, W>,
}

/// What a [`Var`]'s type says beyond its elements: dtype, shape, access.
type Marker<T, S, W> = PhantomData<fn() -> (T, S, W)>;

impl<'g, T, S, D: Device, W> Var<'g, T, S, D, W> {
    /// A typed handle of a core tracked tensor (its type proven by the caller).
    pub(crate) fn from_core(var: CoreVar<'g, D>) -> Self {
        let layout = var.layout().clone();
        Var {
            var,
            layout,
            marker: PhantomData,
        }
    }

    /// The same tensor under another shape type or access.
    pub(crate) fn retyped<S2, W2>(self) -> Var<'g, T, S2, D, W2> {
        Var {
            var: self.var,
            layout: self.layout,
            marker: PhantomData,
        }
    }

    /// The same base under another layout.
    pub(crate) fn relaid<S2, W2>(self, layout: Layout) -> Var<'g, T, S2, D, W2> {
        Var {
            var: self.var,
            layout,
            marker: PhantomData,
        }
    }

    /// The layout (sizes, strides, offset).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::zeros();
    /// assert_eq!(x.track().layout().shape(), &[2, 3]);
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// True when a gradient flows back through this tensor (false for
    /// results computed in [`no_grad`](crate::autograd::no_grad)).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::zeros();
    /// assert!(x.track().requires_grad());
    /// ```
    pub fn requires_grad(&self) -> bool {
        self.var.requires_grad()
    }

    /// PyTorch's name of the op that made this tensor (`grad_fn`).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::zeros();
    /// assert_eq!(x.track().exp().grad_fn().as_deref(), Some("ExpBackward0"));
    /// ```
    pub fn grad_fn(&self) -> Option<String> {
        self.var.grad_fn()
    }

    /// The name of this leaf's gradient, for a leaf.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::zeros();
    /// assert!(x.track().leaf_id().is_some());
    /// ```
    pub fn leaf_id(&self) -> Option<LeafId> {
        self.var.leaf_id()
    }

    /// The core's tensor of this one: the base, or a view of it recorded
    /// (PyTorch's `as_strided` of the base, whose gradient is the view's
    /// put back where it read).
    pub(crate) fn core(&self) -> Result<Held<'_, 'g, D>>
    where
        D: Backend,
    {
        if &self.layout == self.var.layout() {
            return Ok(Held::Borrowed(&self.var));
        }
        let l = &self.layout;
        Ok(Held::Owned(self.var.as_strided(
            l.shape(),
            l.strides(),
            Some(l.offset()),
        )?))
    }

    /// This tensor as a base of its own (its view recorded), for an
    /// in-place op.
    pub(crate) fn own_base(&mut self) -> Result<()>
    where
        D: Backend,
    {
        if &self.layout != self.var.layout() {
            let view = self.core()?.into_owned_var();
            self.var = view;
        }
        Ok(())
    }
}

impl<'g, T: Element, S, D: Device, W> Var<'g, T, S, D, W> {
    /// The elements, read without recording anything (PyTorch's
    /// `x.detach()` as a view, or what `torch.no_grad()` reads).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::full(2.0);
    /// assert_eq!(x.track().square().value().to_vec(), vec![4.0, 4.0]);
    /// ```
    pub fn value(&self) -> TensorView<'_, T, S, D> {
        TensorBase::from_parts(View(self.var.storage()), self.layout.clone())
    }

    /// The elements as the core's view.
    pub(crate) fn raw(&self) -> TensorRef<'_, D> {
        TensorRef::new_unchecked(self.var.storage(), self.layout.clone(), T::DTYPE)
    }
}

impl<'g, T: Element, S, D: Backend, W> Var<'g, T, S, D, W> {
    /// A copy of the elements without history (PyTorch's
    /// `x.detach().clone()`): a tensor of its own.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::full(3.0);
    /// let d: Tensor<f32, shape![2]> = x.track().exp().detach();
    /// assert_eq!(d.to_vec()[0], 3f32.exp());
    /// ```
    ///
    /// # Panics
    /// The device fails to copy.
    #[track_caller]
    pub fn detach(&self) -> Tensor<T, S, D> {
        or_panic(self.raw().to_contiguous().map(crate::access::owned))
    }

    /// This tensor as one that cannot be written in place ([`Kept`]), to
    /// use it several times where an op keeps it (a writable tensor an op
    /// keeps is consumed by that op): nothing can write it any more, so
    /// nothing needs to borrow it.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(In, Out);
    /// let w = Tensor::<f64, shape![Out: 2, In: 2]>::ones();
    /// let x = Tensor::<f64, shape![In: 2]>::ones();
    /// let h = (x.track() * 2.0).into_kept();
    /// let y = h.linear(&w.track(), None) + &h.sum::<In>(); // h read twice
    /// assert_eq!(y.value().to_vec(), vec![8.0, 8.0]);
    /// ```
    pub fn into_kept(self) -> Var<'g, T, S, D, Kept> {
        Var {
            var: self.var,
            layout: self.layout,
            marker: PhantomData,
        }
    }

    /// Another handle of this tensor that cannot write (it borrows this one,
    /// so this one cannot write either while it lives).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::ones();
    /// let h = x.track() * 2.0;
    /// let alias = h.as_kept();
    /// assert_eq!(alias.value().to_vec(), h.value().to_vec());
    /// ```
    pub fn as_kept(&self) -> Var<'_, T, S, D, Kept> {
        Var {
            var: self.var.share(),
            layout: self.layout.clone(),
            marker: PhantomData,
        }
    }
}

impl<'g, T: Element, S: OneElementShape, D: Backend, W> Var<'g, T, S, D, W> {
    /// The gradient of this one-element tensor with respect to every leaf
    /// it depends on (PyTorch's `loss.backward()`), each of its leaf's
    /// type: [`Gradients::of`]. Consumes the tensor, and with it the graph,
    /// so every tensor the graph kept is free to be written again (the
    /// borrows end) and a second `backward` through the same graph does not
    /// compile. Second-order gradients are not computed.
    ///
    /// # Errors
    /// The tensor needs no gradient (made in
    /// [`no_grad`](crate::autograd::no_grad)), or the device failed.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![3]>::from_array([1.0, 2.0, 3.0]);
    /// let xv = x.track();
    /// let grads = xv.square().sum_all().try_backward()?;
    /// assert_eq!(grads.of(&xv).unwrap().to_vec(), vec![2.0, 4.0, 6.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_backward(self) -> Result<Gradients<D>> {
        let var = self.core()?.into_owned_var();
        // The output's handle would keep its node, and through it every
        // node of the graph, alive until the pass ends: let it go, so that
        // each node's saved tensors are freed as soon as it has run, as
        // PyTorch frees them.
        drop(self);
        var.backward().map(Gradients::from_core)
    }

    /// The gradient of this one-element tensor with respect to every leaf.
    ///
    /// # Panics
    /// As [`try_backward`](Self::try_backward), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![2]>::from_array([1.0, 2.0]);
    /// let xv = x.track();
    /// let grads = xv.exp().sum_all().backward();
    /// assert_eq!(grads.of(&xv).unwrap().to_vec(), vec![1f64.exp(), 2f64.exp()]);
    /// ```
    #[track_caller]
    pub fn backward(self) -> Gradients<D> {
        or_panic(self.try_backward())
    }
}

impl<'g, T: Element, S: Shape, D: Backend, W> Var<'g, T, S, D, W> {
    /// The gradients given the gradient `grad` of this tensor (PyTorch's
    /// `y.backward(grad)`).
    ///
    /// # Errors
    /// As [`try_backward`](Self::try_backward).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![2]>::from_array([1.0, 2.0]);
    /// let xv = x.track();
    /// let seed = Tensor::<f64, shape![2]>::from_array([1.0, 10.0]);
    /// let grads = xv.square().try_backward_with(&seed)?;
    /// assert_eq!(grads.of(&xv).unwrap().to_vec(), vec![2.0, 40.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_backward_with<R: Data<D>>(
        self,
        grad: &TensorBase<T, S, D, R>,
    ) -> Result<Gradients<D>> {
        let var = self.core()?.into_owned_var();
        // As in `try_backward`: nothing but the pass holds the graph.
        drop(self);
        var.backward_with(grad.raw().to_contiguous()?)
            .map(Gradients::from_core)
    }
}

/// The core's tensor of a typed one: its base itself, or a view of it made
/// for an op.
pub(crate) enum Held<'a, 'g, D: Device> {
    /// The base.
    Borrowed(&'a CoreVar<'g, D>),
    /// A view of the base.
    Owned(CoreVar<'g, D>),
}

impl<'g, D: Device> Deref for Held<'_, 'g, D> {
    type Target = CoreVar<'g, D>;

    fn deref(&self) -> &CoreVar<'g, D> {
        match self {
            Held::Borrowed(v) => v,
            Held::Owned(v) => v,
        }
    }
}

impl<'g, D: Device> Held<'_, 'g, D> {
    /// A handle of its own: the view, or the base shared.
    pub(crate) fn into_owned_var(self) -> CoreVar<'g, D> {
        match self {
            Held::Borrowed(v) => v.share(),
            Held::Owned(v) => v,
        }
    }
}

impl<T, S, D: Device> Clone for Var<'_, T, S, D, Kept> {
    /// Another handle of a kept tensor (which nothing can write): the same
    /// elements and history.
    fn clone(&self) -> Self {
        Var {
            var: self.var.share(),
            layout: self.layout.clone(),
            marker: PhantomData,
        }
    }
}

impl<T: Element, S: Shape, D: Device, W> fmt::Debug for Var<'_, T, S, D, W> {
    /// The names and sizes, dtype and history: `Var[Rows=2, Cols=3] f32
    /// grad_fn=ExpBackward0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names = vec![None; S::RANK];
        S::write_names(&mut names);
        f.write_str("Var[")?;
        for (i, (name, size)) in names.iter().zip(self.layout.shape()).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}={size}", name.unwrap_or("_"))?;
        }
        write!(f, "] {}", T::DTYPE)?;
        match self.var.grad_fn() {
            Some(name) => write!(f, " grad_fn={name}"),
            None if self.var.is_leaf() => f.write_str(" leaf"),
            None => Ok(()),
        }
    }
}

impl<'g, T: Element, S: Shape, D: Backend> Var<'g, T, S, D, Kept> {
    /// A leaf that needs a gradient, owning `value` (PyTorch's
    /// `requires_grad_()` on a new tensor).
    ///
    /// # Panics
    /// The device fails to copy a value whose elements overlap.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Var;
    /// let w = Var::leaf(Tensor::<f32, shape![2]>::ones());
    /// assert!(w.leaf_id().is_some());
    /// ```
    #[track_caller]
    pub fn leaf<R: Data<D>>(value: TensorBase<T, S, D, R>) -> Var<'static, T, S, D, Kept> {
        Var::leaf_with_id(value, LeafId::new())
    }

    /// A leaf owning `value` whose gradient is filed under `id` (a
    /// parameter keeps its own across steps).
    ///
    /// # Panics
    /// The device fails to copy a value whose elements overlap.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::{LeafId, Var};
    /// let id = LeafId::new();
    /// assert_eq!(Var::leaf_with_id(Tensor::<f32, shape![1]>::ones(), id).leaf_id(), Some(id));
    /// ```
    #[track_caller]
    pub fn leaf_with_id<R: Data<D>>(
        value: TensorBase<T, S, D, R>,
        id: LeafId,
    ) -> Var<'static, T, S, D, Kept> {
        let owned = or_panic(value.raw().to_owned());
        Var::from_core(or_panic(CoreVar::leaf_with_id(owned, id)))
    }
}

impl<T: crate::Float, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// This tensor as a leaf that needs a gradient, read in place (PyTorch's
    /// `requires_grad_()`): the graph borrows it until its last tensor is
    /// gone, so it cannot be written meanwhile; after `backward`, it can.
    /// A tensor whose elements overlap (a broadcast) is copied first.
    ///
    /// # Panics
    /// The device fails to copy a tensor whose elements overlap.
    ///
    /// ```
    /// use axial::prelude::*;
    /// let mut w = Tensor::<f64, shape![2]>::from_array([1.0, -1.0]);
    /// let grads = w.track().square().sum_all().backward(); // the borrow of `w` ends here
    /// let g = grads.of_tensor(&w).unwrap();
    /// w -= &(g * 0.5); // a step of gradient descent
    /// assert_eq!(w.to_vec(), vec![0.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn track(&self) -> Var<'_, T, S, D, Kept> {
        self.track_with_id(super::grads::tensor_id(&self.raw()))
    }

    /// [`track`](Self::track) with the gradient filed under `id`.
    ///
    /// # Panics
    /// As [`track`](Self::track).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::LeafId;
    /// let w = Tensor::<f32, shape![1]>::ones();
    /// let id = LeafId::new();
    /// assert_eq!(w.track_with_id(id).leaf_id(), Some(id));
    /// ```
    #[track_caller]
    pub fn track_with_id(&self, id: LeafId) -> Var<'_, T, S, D, Kept> {
        let raw = self.raw();
        if raw.layout().is_non_overlapping() {
            return Var::from_core(or_panic(CoreVar::leaf_ref_with_id(raw, id)));
        }
        let copy = or_panic(raw.to_contiguous());
        Var::from_core(or_panic(CoreVar::leaf_with_id(copy, id)))
    }
}
