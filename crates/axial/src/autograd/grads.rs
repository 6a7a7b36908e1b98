//! What a backward pass gives ([`Gradients`]), each gradient of its leaf's
//! type, and the parameters of a model ([`Param`]): a tensor, its gradient
//! slot and the name its gradient is filed under.

use axial_core::autograd::{Gradients as CoreGradients, LeafId};
use axial_core::{Backend, Cpu, Device, Element, RawTensor, TensorRef};
use axial_shape::Shape;

use super::var::{Kept, Var};
use crate::Float;
use crate::access::owned;
use crate::optim::Parameter;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// The name of a leaf read in place from `raw`'s elements.
pub(crate) fn tensor_id<D: Device>(raw: &TensorRef<'_, D>) -> LeafId {
    LeafId::of_place(raw.storage(), raw.layout())
}

/// The gradients of a backward pass, by leaf: [`of`](Gradients::of) a
/// leaf, [`of_tensor`](Gradients::of_tensor) a tensor tracked in place, or
/// [`of_param`](Gradients::of_param) a parameter, each a tensor of that
/// leaf's type (PyTorch's `x.grad`).
///
/// # Example
/// ```
/// use axial::prelude::*;
/// axes!(Rows);
/// let x = Tensor::<f64, shape![Rows: 2]>::from_array([3.0, 4.0]);
/// let xv = x.track();
/// let grads = xv.square().sum_all().backward();
/// let g: Tensor<f64, shape![Rows: 2]> = grads.of(&xv).unwrap();
/// assert_eq!(g.to_vec(), vec![6.0, 8.0]);
/// ```
pub struct Gradients<D: Device = Cpu> {
    grads: CoreGradients<D>,
}

impl<D: Device> Gradients<D> {
    /// The typed face of the core's gradients.
    pub(crate) fn from_core(grads: CoreGradients<D>) -> Self {
        Gradients { grads }
    }

    /// How many leaves have a gradient.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::ones();
    /// assert_eq!(x.track().sum_all().backward().len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.grads.len()
    }

    /// True when no leaf has a gradient.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::ones();
    /// assert!(!x.track().sum_all().backward().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.grads.is_empty()
    }

    /// The core's gradients, by [`LeafId`].
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![2]>::ones();
    /// let xv = x.track();
    /// let id = xv.leaf_id().unwrap();
    /// let grads = xv.sum_all().backward();
    /// assert_eq!(grads.core().get(id).unwrap().shape(), &[2]);
    /// ```
    pub fn core(&self) -> &CoreGradients<D> {
        &self.grads
    }
}

impl<D: Backend> Gradients<D> {
    /// The gradient filed under `id`, of the type `T`, `S` (`None` when the
    /// output does not depend on that leaf, or it has another dtype or
    /// shape).
    fn typed<T: Element, S: Shape>(&self, id: LeafId, sizes: &[usize]) -> Option<Tensor<T, S, D>> {
        let g = self.grads.get(id)?;
        if g.dtype() != T::DTYPE || g.shape() != sizes {
            return None;
        }
        Some(owned(or_panic(g.to_contiguous())))
    }

    /// The gradient of the leaf `leaf` (a copy), of its type; `None` when
    /// the output does not depend on it.
    ///
    /// # Panics
    /// The device fails to copy.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f64, shape![2]>::from_array([1.0, 2.0]);
    /// let (a, b) = (x.track(), x.track());
    /// let grads = a.exp().sum_all().backward();
    /// assert!(grads.of(&a).is_some());
    /// ```
    #[track_caller]
    pub fn of<T: Element, S: Shape, W>(
        &self,
        leaf: &Var<'_, T, S, D, W>,
    ) -> Option<Tensor<T, S, D>> {
        self.typed(leaf.leaf_id()?, leaf.layout().shape())
    }

    /// The gradient of a tensor tracked in place with
    /// [`track`](TensorBase::track) (a copy), of its type: the leaf itself
    /// need not be kept. `None` when the output does not depend on it.
    ///
    /// # Panics
    /// The device fails to copy.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let w = Tensor::<f64, shape![2]>::from_array([1.0, 2.0]);
    /// let grads = w.track().square().sum_all().backward();
    /// assert_eq!(grads.of_tensor(&w).unwrap().to_vec(), vec![2.0, 4.0]);
    /// ```
    #[track_caller]
    pub fn of_tensor<T: Element, S: Shape, R: Data<D>>(
        &self,
        tensor: &TensorBase<T, S, D, R>,
    ) -> Option<Tensor<T, S, D>> {
        let raw = tensor.raw();
        self.typed(tensor_id(&raw), raw.shape())
    }

    /// The gradient of a parameter (a copy), of its type.
    ///
    /// # Panics
    /// The device fails to copy.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// let p = Param::new(Tensor::<f64, shape![2]>::from_array([1.0, 2.0]));
    /// let grads = p.var().square().sum_all().backward();
    /// assert_eq!(grads.of_param(&p).unwrap().to_vec(), vec![2.0, 4.0]);
    /// ```
    #[track_caller]
    pub fn of_param<T: Element, S: Shape>(
        &self,
        param: &Param<T, S, D>,
    ) -> Option<Tensor<T, S, D>> {
        self.typed(param.id, param.value.layout.shape())
    }

    /// Adds the gradient of `param` into its gradient slot (PyTorch's
    /// accumulation into `.grad`: set when empty, summed otherwise), taking
    /// it out of these gradients.
    ///
    /// # Panics
    /// The device fails to add.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// let mut p = Param::new(Tensor::<f64, shape![2]>::from_array([1.0, 2.0]));
    /// for _ in 0..2 {
    ///     let mut grads = p.var().square().sum_all().backward();
    ///     grads.accumulate(&mut p);
    /// }
    /// assert_eq!(p.grad().unwrap().to_vec(), vec![4.0, 8.0]); // two passes added
    /// ```
    #[track_caller]
    pub fn accumulate<T: Float, S: Shape>(&mut self, param: &mut Param<T, S, D>) {
        if let Some(g) = or_panic(self.grads.remove(param.id)) {
            or_panic(param.add_raw_grad(g));
        }
    }

    /// Adds the gradient of each parameter of `params` into its slot, as
    /// [`accumulate`](Gradients::accumulate) for each: a model's
    /// [`parameters`](super::Module::parameters) in one call.
    ///
    /// # Panics
    /// The device fails to add.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// let (mut a, mut b) = (Param::new(Tensor::<f64, shape![1]>::ones()), Param::new(Tensor::<f64, shape![1]>::ones()));
    /// let mut grads = (a.var() * 3.0 + &b.var()).sum_all().backward();
    /// grads.accumulate_all(&mut [&mut a, &mut b]);
    /// assert_eq!((a.grad().unwrap().item(), b.grad().unwrap().item()), (3.0, 1.0));
    /// ```
    #[track_caller]
    pub fn accumulate_all(&mut self, params: &mut [&mut dyn Parameter<D>]) {
        for p in params {
            let Some(id) = p.leaf_id() else { continue };
            if let Some(g) = or_panic(self.grads.remove(id)) {
                or_panic(p.add_grad(g));
            }
        }
    }
}

/// A trainable tensor of a model: its value, its gradient slot (PyTorch's
/// `.grad`, empty until a backward pass fills it) and the name its
/// gradient is filed under, kept across steps.
///
/// # Example
/// ```
/// use axial::prelude::*;
/// use axial::autograd::Param;
/// axes!(In, Out);
/// let mut w = Param::new(Tensor::<f64, shape![Out: 1, In: 2]>::from_array([[1.0, -1.0]]));
/// let x = Tensor::<f64, shape![In: 2]>::from_array([2.0, 1.0]);
/// let mut grads = x.linear_tracked(&w.var(), None).square().sum_all().backward();
/// grads.accumulate(&mut w);
/// let g = w.take_grad().unwrap(); // the parameter's type
/// *w.value_mut() -= &(g * 0.1);
/// assert_eq!(w.value().to_vec(), vec![0.6, -1.2]);
/// ```
pub struct Param<T, S, D: Device = Cpu> {
    pub(crate) value: Tensor<T, S, D>,
    pub(crate) grad: Option<Tensor<T, S, D>>,
    id: LeafId,
}

impl<T: crate::Float, S: Shape, D: Backend> Param<T, S, D> {
    /// A parameter of initial `value`, with no gradient yet.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// let p = Param::new(Tensor::<f32, shape![3]>::zeros());
    /// assert!(p.grad().is_none());
    /// ```
    pub fn new(value: Tensor<T, S, D>) -> Self {
        Param {
            value,
            grad: None,
            id: LeafId::new(),
        }
    }

    /// The parameter as a leaf of a new graph, read in place (borrowed
    /// until the graph's last tensor is gone).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// let p = Param::new(Tensor::<f32, shape![3]>::zeros());
    /// assert_eq!(p.var().leaf_id(), Some(p.id()));
    /// ```
    #[track_caller]
    pub fn var(&self) -> Var<'_, T, S, D, Kept> {
        self.value.track_with_id(self.id)
    }

    /// Adds `g` into the gradient slot (set when empty, summed otherwise).
    pub(crate) fn add_raw_grad(&mut self, g: RawTensor<D>) -> axial_core::Result<()> {
        if g.dtype() != T::DTYPE || g.shape() != self.value.layout.shape() {
            return Err(axial_core::Error::invalid(
                "accumulate",
                format!(
                    "a gradient of shape {:?} and dtype {} for a parameter of shape {:?} and dtype {}",
                    g.shape(),
                    g.dtype(),
                    self.value.layout.shape(),
                    T::DTYPE
                ),
            ));
        }
        let g: Tensor<T, S, D> = owned(g);
        self.grad = Some(match self.grad.take() {
            None => g,
            Some(acc) => owned(acc.raw().binary(axial_core::BinaryOp::Add, &g.raw())?),
        });
        Ok(())
    }
}

impl<T, S, D: Device> Param<T, S, D> {
    /// The value.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// assert_eq!(Param::new(Tensor::<f32, shape![2]>::ones()).value().to_vec(), vec![1.0; 2]);
    /// ```
    pub fn value(&self) -> &Tensor<T, S, D> {
        &self.value
    }

    /// The value, to update in place (an optimizer's step).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// let mut p = Param::new(Tensor::<f32, shape![2]>::ones());
    /// *p.value_mut() *= 2.0;
    /// assert_eq!(p.value().to_vec(), vec![2.0; 2]);
    /// ```
    pub fn value_mut(&mut self) -> &mut Tensor<T, S, D> {
        &mut self.value
    }

    /// The gradient accumulated so far, if any.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// assert!(Param::new(Tensor::<f32, shape![2]>::ones()).grad().is_none());
    /// ```
    pub fn grad(&self) -> Option<&Tensor<T, S, D>> {
        self.grad.as_ref()
    }

    /// The gradient slot, to set or clear.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// let mut p = Param::new(Tensor::<f32, shape![2]>::ones());
    /// *p.grad_mut() = Some(Tensor::zeros());
    /// assert!(p.grad().is_some());
    /// ```
    pub fn grad_mut(&mut self) -> &mut Option<Tensor<T, S, D>> {
        &mut self.grad
    }

    /// The gradient, taken out (the slot left empty: PyTorch's
    /// `zero_grad(set_to_none=True)` for this parameter).
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// let mut p = Param::new(Tensor::<f32, shape![2]>::ones());
    /// assert!(p.take_grad().is_none());
    /// ```
    pub fn take_grad(&mut self) -> Option<Tensor<T, S, D>> {
        self.grad.take()
    }

    /// The name its gradient is filed under.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// use axial::autograd::Param;
    /// let (a, b) = (Param::new(Tensor::<f32, shape![1]>::ones()), Param::new(Tensor::<f32, shape![1]>::ones()));
    /// assert_ne!(a.id(), b.id());
    /// ```
    pub fn id(&self) -> LeafId {
        self.id
    }
}
