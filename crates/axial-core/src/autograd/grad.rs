//! A gradient on its way through the backward pass ([`Grad`]) and what the
//! pass gives back ([`Gradients`]).

use std::collections::HashMap;
use std::sync::Arc;

use super::LeafId;
use crate::tensor::alloc_output;
use crate::{Backend, BinaryOp, Cpu, DType, Device, Layout, RawTensor, Result, Storage, TensorRef};

/// A gradient in flight: a tensor whose views (a transpose, a broadcast, a
/// slice of a concatenation's gradient) share its elements instead of
/// copying them, as PyTorch's gradients do.
pub struct Grad<D: Device = Cpu> {
    storage: Arc<Storage<D>>,
    layout: Layout,
    dtype: DType,
}

impl<D: Device> Clone for Grad<D> {
    fn clone(&self) -> Self {
        Grad {
            storage: Arc::clone(&self.storage),
            layout: self.layout.clone(),
            dtype: self.dtype,
        }
    }
}

impl<D: Device> Grad<D> {
    /// A gradient holding `t`.
    pub(crate) fn new(t: RawTensor<D>) -> Self {
        let (storage, layout, dtype) = t.into_parts();
        Grad {
            storage: Arc::new(storage),
            layout,
            dtype,
        }
    }

    /// The elements as a view.
    pub(crate) fn view(&self) -> TensorRef<'_, D> {
        TensorRef::new_unchecked(&self.storage, self.layout.clone(), self.dtype)
    }

    /// The shape.
    pub(crate) fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// The dtype.
    pub(crate) fn dtype(&self) -> DType {
        self.dtype
    }

    /// The same elements under another layout (a view op's result).
    pub(crate) fn relayout(&self, op: impl FnOnce(&Layout) -> Result<Layout>) -> Result<Self> {
        let layout = op(&self.layout)?;
        layout.check_bounds(self.storage.len_of(self.dtype), self.dtype.size())?;
        Ok(Grad {
            storage: Arc::clone(&self.storage),
            layout,
            dtype: self.dtype,
        })
    }

    /// Broadcast to `shape` (a view with stride 0 along the new dims).
    pub(crate) fn expanded(&self, shape: &[usize]) -> Result<Self> {
        let sizes: Vec<isize> = shape.iter().map(|&n| n as isize).collect();
        self.relayout(|l| l.expand(&sizes))
    }
}

impl<D: Backend> Grad<D> {
    /// Reshaped to `shape`: a view when the layout allows, else a copy.
    pub(crate) fn reshaped(self, shape: &[usize]) -> Result<Self> {
        let sizes: Vec<isize> = shape.iter().map(|&n| n as isize).collect();
        if let Some(layout) = self.layout.reshape_view(&sizes)? {
            return self.relayout(|_| Ok(layout));
        }
        let copy = self.view().to_contiguous()?;
        let (storage, _, dtype) = copy.into_parts();
        Ok(Grad {
            storage: Arc::new(storage),
            layout: Layout::contiguous(shape),
            dtype,
        })
    }

    /// `self + other` (one shape): in `self`'s storage when no one else
    /// holds it and its elements are distinct, else into a new tensor.
    pub(crate) fn accumulate(mut self, other: &Grad<D>) -> Result<Self> {
        if self.layout.is_non_overlapping() && self.dtype == other.dtype {
            let layout = self.layout.clone();
            if let Some(storage) = Arc::get_mut(&mut self.storage) {
                let mut dst = crate::TensorMut::new_unchecked(storage, layout, self.dtype);
                dst.binary_(BinaryOp::Add, &other.view())?;
                return Ok(self);
            }
        }
        Ok(Grad::new(self.view().binary(BinaryOp::Add, &other.view())?))
    }

    /// The gradient as a tensor of its own: its storage when no one else
    /// holds it and it is laid out densely, else a contiguous copy.
    pub(crate) fn into_raw(self) -> Result<RawTensor<D>> {
        let dense = self.layout.is_contiguous()
            && self.layout.offset() == 0
            && self.layout.numel() * self.dtype.size() == self.storage.nbytes();
        if dense {
            match Arc::try_unwrap(self.storage) {
                Ok(storage) => return RawTensor::from_parts(storage, self.layout, self.dtype),
                Err(storage) => {
                    let view = TensorRef::new_unchecked(&storage, self.layout, self.dtype);
                    return view.to_contiguous();
                }
            }
        }
        self.view().to_contiguous()
    }

    /// A gradient of ones shaped as `like` (what `backward` of a scalar
    /// starts from).
    pub(crate) fn ones_like(device: &D, shape: &[usize], dtype: DType) -> Result<Self> {
        let mut t = alloc_output(device, Layout::contiguous(shape), dtype)?;
        device.fill(t.output(), crate::Scalar::Float(1.0))?;
        Ok(Grad::new(t))
    }
}

/// The gradients a backward pass gives its leaves, by [`LeafId`]: each of
/// its leaf's shape and dtype (PyTorch's `x.grad` after `backward`). A leaf
/// the output does not depend on has none (PyTorch's `None`).
///
/// # Example
/// ```
/// use axial_core::autograd::Var;
/// use axial_core::RawTensor;
/// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3])?)?;
/// let y = x.mul(&x)?.sum(&[], false)?; // Σ x²
/// let id = x.leaf_id().unwrap();
/// let grads = y.backward()?;
/// assert_eq!(grads.get(id).unwrap().to_vec::<f64>()?, vec![2.0, 4.0, 6.0]);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct Gradients<D: Device = Cpu> {
    grads: HashMap<LeafId, Grad<D>>,
}

impl<D: Device> Default for Gradients<D> {
    fn default() -> Self {
        Gradients {
            grads: HashMap::new(),
        }
    }
}

impl<D: Backend> Gradients<D> {
    /// Adds `g` to the gradient of `leaf` (two leaves of one name, a
    /// tensor tracked twice, add up).
    pub(crate) fn add(&mut self, leaf: LeafId, g: Grad<D>) -> Result<()> {
        let sum = match self.grads.remove(&leaf) {
            Some(acc) => acc.accumulate(&g)?,
            None => g,
        };
        self.grads.insert(leaf, sum);
        Ok(())
    }
}

impl<D: Device> Gradients<D> {
    /// The gradient of `leaf`, if the output depends on it.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// let unused = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// let grads = x.exp()?.sum(&[], false)?.backward()?;
    /// assert!(grads.get(x.leaf_id().unwrap()).is_some());
    /// assert!(grads.get(unused.leaf_id().unwrap()).is_none());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn get(&self, leaf: LeafId) -> Option<TensorRef<'_, D>> {
        self.grads.get(&leaf).map(Grad::view)
    }

    /// The leaves that have a gradient.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f32], &[1])?)?;
    /// let grads = x.sum(&[], false)?.backward()?;
    /// assert_eq!(grads.leaves().collect::<Vec<_>>(), vec![x.leaf_id().unwrap()]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn leaves(&self) -> impl Iterator<Item = LeafId> + '_ {
        self.grads.keys().copied()
    }

    /// How many leaves have a gradient.
    ///
    /// ```
    /// # use axial_core::autograd::Gradients;
    /// assert_eq!(Gradients::<axial_core::Cpu>::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.grads.len()
    }

    /// True when no leaf has a gradient.
    ///
    /// ```
    /// # use axial_core::autograd::Gradients;
    /// assert!(Gradients::<axial_core::Cpu>::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.grads.is_empty()
    }
}

impl<D: Backend> Gradients<D> {
    /// Takes the gradient of `leaf` out, as a tensor of its own (no copy
    /// when nothing else shares it).
    ///
    /// # Errors
    /// The device failed to copy it.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![3.0f64], &[1])?)?;
    /// let mut grads = x.mul(&x)?.sum(&[], false)?.backward()?;
    /// let g = grads.remove(x.leaf_id().unwrap())?.unwrap();
    /// assert_eq!(g.to_vec::<f64>()?, vec![6.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn remove(&mut self, leaf: LeafId) -> Result<Option<RawTensor<D>>> {
        self.grads.remove(&leaf).map(Grad::into_raw).transpose()
    }
}
