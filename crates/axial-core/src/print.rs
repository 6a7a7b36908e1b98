//! Printing like PyTorch: `tensor([[1., 2.],\n        [3., 4.]])`.

use std::fmt;

use crate::{Backend, RawTensor, TensorRef};

impl<D: Backend> fmt::Display for TensorRef<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tensor(shape={:?}, dtype={})",
            self.shape(),
            self.dtype()
        )
    }
}

impl<D: Backend> fmt::Display for RawTensor<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.view(), f)
    }
}
