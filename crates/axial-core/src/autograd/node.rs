//! The graph: a node per recorded op (its backward function and the edges
//! to its inputs' nodes), and the tensors it keeps ([`Saved`]).

use std::rc::Rc;

use super::LeafId;
use super::grad::Grad;
use super::var::{Data, Meta};
use crate::{DType, Device, Error, Layout, RawTensor, Result, TensorRef};

/// An op's backward function: the gradients of its inputs (one per edge,
/// `None` where an input needs none or gets zero) from its output's, given
/// which inputs need one.
pub(crate) type BackwardFn<'g, D> =
    Box<dyn Fn(Grad<D>, &[bool]) -> Result<Vec<Option<Grad<D>>>> + 'g>;

/// What a node is.
pub(crate) enum NodeKind<'g, D: Device> {
    /// A leaf: its gradient is the pass's result.
    Leaf(LeafId),
    /// A recorded op.
    Op(BackwardFn<'g, D>),
}

/// A node of the graph: no interior mutability, so that a graph that
/// borrows for `'g` can be used where a shorter borrow is expected (the
/// typed layer shortens `'g` to mark what an op keeps).
pub(crate) struct Node<'g, D: Device> {
    /// PyTorch's name of the op (`Exp` for `ExpBackward0`).
    pub(crate) name: &'static str,
    /// Leaf or op.
    pub(crate) kind: NodeKind<'g, D>,
    /// The nodes of the op's inputs, `None` for an input that needs no
    /// gradient.
    pub(crate) next: Vec<Option<Rc<Node<'g, D>>>>,
}

impl<'g, D: Device> Node<'g, D> {
    /// A leaf's node.
    pub(crate) fn leaf(id: LeafId) -> Rc<Node<'g, D>> {
        Rc::new(Node {
            name: "AccumulateGrad",
            kind: NodeKind::Leaf(id),
            next: Vec::new(),
        })
    }
}

/// A tensor the graph keeps for the backward pass, with the version it had
/// then: if it was written in place since, reading it is PyTorch's error
/// instead of a wrong gradient.
pub(crate) struct Saved<'g, D: Device> {
    data: Data<'g, D>,
    layout: Layout,
    dtype: DType,
    meta: Rc<Meta>,
    at: u64,
}

impl<'g, D: Device> Saved<'g, D> {
    /// Keeps `data` as it is now (version `meta.version`).
    pub(crate) fn of(data: Data<'g, D>, layout: Layout, dtype: DType, meta: Rc<Meta>) -> Self {
        let at = meta.version.get();
        Saved {
            data,
            layout,
            dtype,
            meta,
            at,
        }
    }

    /// A tensor of the backward pass's own (a layer norm's statistics, a
    /// dropout mask), which nothing else can write.
    pub(crate) fn own(t: RawTensor<D>) -> Self {
        let (storage, layout, dtype) = t.into_parts();
        let meta = Rc::new(Meta {
            version: std::cell::Cell::new(0),
            producer: std::cell::Cell::new(None),
        });
        Saved::of(
            Data::Shared(std::sync::Arc::new(storage)),
            layout,
            dtype,
            meta,
        )
    }

    /// The kept elements.
    ///
    /// # Errors
    /// They were written in place since they were kept: PyTorch's message.
    pub(crate) fn get(&self) -> Result<TensorRef<'_, D>> {
        let now = self.meta.version.get();
        if now != self.at {
            return Err(Error::ModifiedInPlace {
                tensor: format!(
                    "torch.{}Tensor {:?}",
                    self.dtype.scalar_type_name(),
                    self.layout.shape()
                ),
                producer: self.meta.producer.get(),
                version: now,
                expected: self.at,
            });
        }
        Ok(TensorRef::new_unchecked(
            self.data.storage(),
            self.layout.clone(),
            self.dtype,
        ))
    }
}
