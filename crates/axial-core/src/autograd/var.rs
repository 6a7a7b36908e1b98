//! [`Var`]: a tensor that records the ops it goes through.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::engine;
use super::grad::{Grad, Gradients};
use super::mode::is_grad_enabled;
use super::node::{BackwardFn, Node, NodeKind, Saved};
use crate::{Backend, Cpu, DType, Device, Error, Layout, RawTensor, Result, Storage, TensorRef};

/// Names a leaf: the key of its gradient in [`Gradients`]. Every leaf gets
/// a new one ([`LeafId::new`]), unless it is given one (a parameter keeps
/// its own across training steps).
///
/// # Example
/// ```
/// use axial_core::autograd::LeafId;
/// assert_ne!(LeafId::new(), LeafId::new());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LeafId(u64);

impl LeafId {
    /// A name no other leaf has.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        LeafId(NEXT.fetch_add(1, Ordering::Relaxed) & !Self::PLACED)
    }

    /// Set in the names [`LeafId::of_place`] gives, never in
    /// [`LeafId::new`]'s.
    const PLACED: u64 = 1 << 63;

    /// The name of a leaf read in place from `storage` through `layout`:
    /// the same for every leaf made of those elements while they live (the
    /// graph borrows them, so no other tensor takes their place meanwhile),
    /// so a tensor's gradient can be looked up by the tensor itself.
    ///
    /// ```
    /// use axial_core::autograd::LeafId;
    /// use axial_core::{DType, RawTensor};
    /// let w = RawTensor::zeros(&[2, 3], DType::F32)?;
    /// let v = w.view();
    /// assert_eq!(LeafId::of_place(v.storage(), v.layout()), LeafId::of_place(v.storage(), v.layout()));
    /// let t = v.t()?;
    /// assert_ne!(LeafId::of_place(t.storage(), t.layout()), LeafId::of_place(v.storage(), v.layout()));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn of_place<D: Device>(storage: &Storage<D>, layout: &Layout) -> LeafId {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        storage.data_ptr().hash(&mut h);
        layout.hash(&mut h);
        LeafId(h.finish() | Self::PLACED)
    }
}

/// PyTorch's error for a leaf of integers or bools.
fn float_leaf(dtype: DType) -> Result<()> {
    if dtype.is_float() {
        return Ok(());
    }
    Err(Error::invalid(
        "requires_grad_",
        "only Tensors of floating point and complex dtype can require gradients",
    ))
}

/// Where a tracked tensor's elements live: a storage it shares (with its
/// views and with the graph, which keeps what the backward pass needs), or
/// one it borrows (a parameter the graph reads in place).
pub(crate) enum Data<'g, D: Device> {
    /// Shared, counted.
    Shared(Arc<Storage<D>>),
    /// Borrowed for `'g`.
    Borrowed(&'g Storage<D>),
}

impl<D: Device> Clone for Data<'_, D> {
    fn clone(&self) -> Self {
        match self {
            Data::Shared(s) => Data::Shared(Arc::clone(s)),
            Data::Borrowed(s) => Data::Borrowed(s),
        }
    }
}

impl<D: Device> Data<'_, D> {
    /// The storage.
    pub(crate) fn storage(&self) -> &Storage<D> {
        match self {
            Data::Shared(s) => s,
            Data::Borrowed(s) => s,
        }
    }
}

/// What the tensors viewing one storage share: its version (bumped by each
/// in-place write, PyTorch's version counter) and the op that wrote it last.
pub(crate) struct Meta {
    /// Writes so far.
    pub(crate) version: Cell<u64>,
    /// The op whose output the elements are now (for the error message).
    pub(crate) producer: Cell<Option<&'static str>>,
}

/// The views of one storage: held by tensors only, so its count is the
/// number of tensors viewing it; the graph holds the [`Meta`] alone.
pub(crate) struct Family {
    pub(crate) meta: Rc<Meta>,
}

impl Family {
    fn new(producer: Option<&'static str>) -> Rc<Family> {
        Rc::new(Family {
            meta: Rc::new(Meta {
                version: Cell::new(0),
                producer: Cell::new(producer),
            }),
        })
    }
}

/// A tensor that records the ops it goes through, so that
/// [`backward`](Var::backward) can give the gradient of a result with
/// respect to each [leaf](Var::leaf). The untyped core of the typed
/// `axial::Var`; see [the module's docs](super) for the design.
///
/// `'g` is how long the tensors it borrows live (a [leaf](Var::leaf_ref) or
/// [constant](Var::constant_ref) over a parameter's storage): the graph
/// reads them in place, so they stay borrowed while any tensor of the graph
/// is alive.
///
/// # Example
/// ```
/// use axial_core::autograd::Var;
/// use axial_core::{RawTensor, UnaryOp};
/// let x = Var::leaf(RawTensor::from_vec(vec![0.0f64, 1.0], &[2])?)?;
/// let y = x.unary(UnaryOp::Exp)?.sum(&[], false)?; // e⁰ + e¹
/// let grads = y.backward()?;
/// let g = grads.get(x.leaf_id().unwrap()).unwrap().to_vec::<f64>()?;
/// assert_eq!(g, vec![1.0, std::f64::consts::E]); // d/dx eˣ = eˣ
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct Var<'g, D: Device = Cpu> {
    pub(crate) data: Data<'g, D>,
    pub(crate) layout: Layout,
    pub(crate) dtype: DType,
    pub(crate) family: Rc<Family>,
    pub(crate) node: Option<Rc<Node<'g, D>>>,
}

impl<'g, D: Device> Var<'g, D> {
    fn with(
        data: Data<'g, D>,
        layout: Layout,
        dtype: DType,
        node: Option<Rc<Node<'g, D>>>,
    ) -> Self {
        Var {
            data,
            layout,
            dtype,
            family: Family::new(None),
            node,
        }
    }

    /// A leaf that needs a gradient, owning `value` (PyTorch's
    /// `requires_grad_()` on a new tensor).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let w = Var::leaf(RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?)?;
    /// assert!(w.requires_grad() && w.is_leaf());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn leaf(value: RawTensor<D>) -> Result<Var<'static, D>> {
        Var::leaf_with_id(value, LeafId::new())
    }

    /// A leaf owning `value` whose gradient is filed under `id`.
    ///
    /// ```
    /// # use axial_core::{autograd::{LeafId, Var}, RawTensor};
    /// let id = LeafId::new();
    /// let w = Var::leaf_with_id(RawTensor::from_vec(vec![1.0f32], &[1])?, id)?;
    /// assert_eq!(w.leaf_id(), Some(id));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn leaf_with_id(value: RawTensor<D>, id: LeafId) -> Result<Var<'static, D>> {
        float_leaf(value.dtype())?;
        let (storage, layout, dtype) = value.into_parts();
        Ok(Var::with(
            Data::Shared(Arc::new(storage)),
            layout,
            dtype,
            Some(Node::leaf(id)),
        ))
    }

    /// A leaf that needs a gradient, reading `value` in place: a parameter
    /// the graph borrows until the last tensor of the graph is gone.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let w = RawTensor::from_vec(vec![2.0f64], &[1])?;
    /// let x = Var::leaf_ref(w.view())?;
    /// let grads = x.mul(&x)?.sum(&[], false)?.backward()?;
    /// assert_eq!(grads.get(x.leaf_id().unwrap()).unwrap().to_vec::<f64>()?, vec![4.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn leaf_ref(value: TensorRef<'g, D>) -> Result<Var<'g, D>> {
        Var::leaf_ref_with_id(value, LeafId::new())
    }

    /// A leaf reading `value` in place whose gradient is filed under `id`.
    ///
    /// ```
    /// # use axial_core::{autograd::{LeafId, Var}, RawTensor};
    /// let w = RawTensor::from_vec(vec![2.0f64], &[1])?;
    /// let id = LeafId::new();
    /// assert_eq!(Var::leaf_ref_with_id(w.view(), id)?.leaf_id(), Some(id));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn leaf_ref_with_id(value: TensorRef<'g, D>, id: LeafId) -> Result<Var<'g, D>> {
        float_leaf(value.dtype())?;
        let (layout, dtype) = (value.layout().clone(), value.dtype());
        Ok(Var::with(
            Data::Borrowed(value.storage()),
            layout,
            dtype,
            Some(Node::leaf(id)),
        ))
    }

    /// A tensor that needs no gradient, owning `value` (data, targets, a
    /// mask).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let c = Var::constant(RawTensor::from_vec(vec![1.0f32], &[1])?);
    /// assert!(!c.requires_grad());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn constant(value: RawTensor<D>) -> Var<'static, D> {
        let (storage, layout, dtype) = value.into_parts();
        Var::with(Data::Shared(Arc::new(storage)), layout, dtype, None)
    }

    /// A tensor that needs no gradient, read in place.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let t = RawTensor::from_vec(vec![1.0f32], &[1])?;
    /// assert!(!Var::constant_ref(t.view()).requires_grad());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn constant_ref(value: TensorRef<'g, D>) -> Var<'g, D> {
        let (layout, dtype) = (value.layout().clone(), value.dtype());
        Var::with(Data::Borrowed(value.storage()), layout, dtype, None)
    }

    /// The result of an op: a new tensor with no history yet.
    pub(crate) fn fresh(value: RawTensor<D>) -> Var<'g, D> {
        let (storage, layout, dtype) = value.into_parts();
        Var::with(Data::Shared(Arc::new(storage)), layout, dtype, None)
    }

    /// A view of this tensor: the same elements, version and history under
    /// another layout. The history is replaced by the caller's.
    pub(crate) fn viewed(&self, layout: Layout) -> Result<Var<'g, D>> {
        layout.check_bounds(self.data.storage().len_of(self.dtype), self.dtype.size())?;
        Ok(Var {
            data: self.data.clone(),
            layout,
            dtype: self.dtype,
            family: Rc::clone(&self.family),
            node: None,
        })
    }

    /// True when a gradient flows back through this tensor (a leaf, or the
    /// result of ops on one).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// let c = Var::constant(RawTensor::from_vec(vec![1.0f32], &[1])?);
    /// assert!(x.add(&c)?.requires_grad() && !c.add(&c)?.requires_grad());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn requires_grad(&self) -> bool {
        self.node.is_some()
    }

    /// True for a leaf that needs a gradient.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// assert!(x.is_leaf() && !x.exp()?.is_leaf());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn is_leaf(&self) -> bool {
        self.leaf_id().is_some()
    }

    /// The name of this leaf's gradient, for a leaf.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// assert!(x.leaf_id().is_some() && x.exp()?.leaf_id().is_none());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn leaf_id(&self) -> Option<LeafId> {
        match self.node.as_deref().map(|n| &n.kind) {
            Some(NodeKind::Leaf(id)) => Some(*id),
            _ => None,
        }
    }

    /// PyTorch's name of the node that made this tensor (`grad_fn`), for a
    /// result of tracked ops.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// assert_eq!(x.exp()?.grad_fn().as_deref(), Some("ExpBackward0"));
    /// assert_eq!(x.grad_fn(), None);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn grad_fn(&self) -> Option<String> {
        match self.node.as_deref() {
            Some(Node {
                kind: NodeKind::Op(_),
                name,
                ..
            }) => Some(format!("{name}Backward0")),
            _ => None,
        }
    }

    /// How many times the elements were written in place (PyTorch's
    /// `_version`).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor, BinaryOp};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// let mut y = x.exp()?;
    /// y.binary_scalar_(BinaryOp::Mul, 2.0.into())?;
    /// assert_eq!(y.version(), 1);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn version(&self) -> u64 {
        self.family.meta.version.get()
    }

    /// The elements, read without recording anything (`x.detach()` as a
    /// view).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?)?;
    /// assert_eq!(x.value().to_vec::<f32>()?, vec![1.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn value(&self) -> TensorRef<'_, D> {
        TensorRef::new_unchecked(self.data.storage(), self.layout.clone(), self.dtype)
    }

    /// Another handle of this tensor: the same elements, version and
    /// history (PyTorch's alias of a tensor, `x.view_as(x)`). A write
    /// through one handle is refused while the other lives.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, BinaryOp, RawTensor, Scalar};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// let mut h = x.exp()?.binary_scalar(BinaryOp::Mul, Scalar::Float(2.0))?;
    /// let alias = h.share();
    /// assert_eq!(alias.grad_fn().as_deref(), Some("MulBackward0"));
    /// assert!(h.binary_scalar_(BinaryOp::Add, Scalar::Float(1.0)).is_err());
    /// drop(alias);
    /// assert!(h.binary_scalar_(BinaryOp::Add, Scalar::Float(1.0)).is_ok());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn share(&self) -> Var<'g, D> {
        Var {
            data: self.data.clone(),
            layout: self.layout.clone(),
            dtype: self.dtype,
            family: Rc::clone(&self.family),
            node: self.node.clone(),
        }
    }

    /// The same elements without history (PyTorch's `detach()`): a tensor
    /// that needs no gradient, sharing the storage and its version.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// let d = x.exp()?.detach();
    /// assert!(!d.requires_grad());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn detach(&self) -> Var<'g, D> {
        Var {
            data: self.data.clone(),
            layout: self.layout.clone(),
            dtype: self.dtype,
            family: Rc::clone(&self.family),
            node: None,
        }
    }

    /// The shape.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// assert_eq!(Var::constant(RawTensor::zeros(&[2, 3], DType::F32)?).shape(), &[2, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// The layout (shape, strides, offset).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, Layout, RawTensor};
    /// let x = Var::constant(RawTensor::zeros(&[2, 3], DType::F32)?);
    /// assert_eq!(x.layout(), &Layout::contiguous(&[2, 3]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The dtype.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// assert_eq!(Var::constant(RawTensor::zeros(&[1], DType::F64)?).dtype(), DType::F64);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The storage (shared with this tensor's views and the graph).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::constant(RawTensor::zeros(&[3], DType::F32)?);
    /// assert_eq!(x.storage().nbytes(), 12);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn storage(&self) -> &Storage<D> {
        self.data.storage()
    }

    /// The elements as they are now, kept for the backward pass: the graph
    /// holds them, and finds out at `backward` if they were written since.
    pub(crate) fn save(&self) -> Saved<'g, D> {
        Saved::of(
            self.data.clone(),
            self.layout.clone(),
            self.dtype,
            Rc::clone(&self.family.meta),
        )
    }

    /// Records `backward` as the op `name` that made this tensor from
    /// `inputs` (their gradient edges, in order).
    pub(crate) fn attach(
        &mut self,
        name: &'static str,
        inputs: &[&Var<'g, D>],
        backward: BackwardFn<'g, D>,
    ) {
        let next = inputs.iter().map(|v| v.node.clone()).collect();
        self.node = Some(Rc::new(Node {
            name,
            kind: NodeKind::Op(backward),
            next,
        }));
        self.family.meta.producer.set(Some(name));
    }

    /// Records `backward` over input edges given as they are.
    pub(crate) fn attach_edges(
        &mut self,
        name: &'static str,
        next: Vec<Option<Rc<Node<'g, D>>>>,
        backward: BackwardFn<'g, D>,
    ) {
        self.node = Some(Rc::new(Node {
            name,
            kind: NodeKind::Op(backward),
            next,
        }));
        self.family.meta.producer.set(Some(name));
    }

    /// Whether an op of `inputs` records its backward pass: gradients are
    /// on ([`no_grad`](super::no_grad) is not running) and some input
    /// needs one.
    pub(crate) fn tracks(inputs: &[&Var<'g, D>]) -> bool {
        is_grad_enabled() && inputs.iter().any(|v| v.requires_grad())
    }

    /// Which of `inputs` need a gradient.
    pub(crate) fn needs(inputs: &[&Var<'g, D>]) -> Vec<bool> {
        inputs.iter().map(|v| v.requires_grad()).collect()
    }
}

impl<'g, D: Backend> Var<'g, D> {
    /// The gradient of this one-element tensor with respect to every leaf
    /// it depends on (PyTorch's `loss.backward()`). Consumes the tensor,
    /// and with it the graph: a second `backward` through the same graph
    /// does not compile. Second-order gradients are not computed (the
    /// backward pass records nothing).
    ///
    /// # Errors
    /// More than one element (PyTorch's "grad can be implicitly created
    /// only for scalar outputs"), a tensor that needs no gradient, a tensor
    /// the backward pass needs that was written in place since (PyTorch's
    /// "modified by an inplace operation"), or a device failure.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let err = x.mul(&x)?.backward().err().unwrap();
    /// assert_eq!(err.to_string(), "backward: grad can be implicitly created only for scalar outputs");
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn backward(self) -> Result<Gradients<D>> {
        if self.layout.numel() != 1 {
            return Err(Error::invalid(
                "backward",
                "grad can be implicitly created only for scalar outputs",
            ));
        }
        let device = self.data.storage().device().clone();
        let ones = Grad::ones_like(&device, self.shape(), self.dtype)?;
        self.run_backward(ones)
    }

    /// The gradients given the gradient `grad` of this tensor (PyTorch's
    /// `y.backward(grad)`).
    ///
    /// # Errors
    /// A `grad` of another shape or dtype, and as [`backward`](Self::backward).
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let grads = x.mul(&x)?.backward_with(RawTensor::from_vec(vec![1.0f64, 10.0], &[2])?)?;
    /// assert_eq!(grads.get(id).unwrap().to_vec::<f64>()?, vec![2.0, 40.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn backward_with(self, grad: RawTensor<D>) -> Result<Gradients<D>> {
        if grad.shape() != self.shape() || grad.dtype() != self.dtype {
            return Err(Error::invalid(
                "backward",
                format!(
                    "Mismatch in shape: grad_output[0] has a shape of {:?} and output[0] has a shape of {:?}",
                    grad.shape(),
                    self.shape()
                ),
            ));
        }
        self.run_backward(Grad::new(grad))
    }

    fn run_backward(self, grad: Grad<D>) -> Result<Gradients<D>> {
        match self.node {
            Some(node) => engine::run(node, grad),
            None => Err(Error::invalid(
                "backward",
                "element 0 of tensors does not require grad and does not have a grad_fn",
            )),
        }
    }

    /// A copy of the elements as a tensor of their own (contiguous).
    ///
    /// # Errors
    /// The device failed.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32, 2.0], &[2])?)?;
    /// assert_eq!(x.to_raw()?.to_vec::<f32>()?, vec![1.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_raw(&self) -> Result<RawTensor<D>> {
        self.value().to_contiguous()
    }
}
