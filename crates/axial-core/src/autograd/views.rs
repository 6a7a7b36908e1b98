//! Views of tracked tensors (each shares the storage and its version) and
//! the ops that join and split them. The gradient of a view is the
//! output's put back where the view took its elements: a permutation or a
//! reshape of it, a sum over broadcast dims, or, for the views that pick a
//! region (`narrow`, `select`, `slice`, `diagonal`, `unfold`), the same
//! view taken of zeros of the input's shape with the gradient added through
//! it (`unfold`'s windows overlap, so their gradients add up). `as_strided`
//! follows PyTorch's `as_strided_backward`, over the storage: its gradient
//! is spread over the storage positions the output reads, then read back
//! through the input's layout, divided by how often the input reads each.

use super::elementwise::fit;
use super::grad::Grad;
use super::var::Var;
use crate::layout::wrap_dim;
use crate::ops::grad::sum_to;
use crate::ops::{Cat, ScatterAdd, Stack};
use crate::tensor::alloc_output;
use crate::{Backend, DType, Layout, MaybeOwned, Output, RawTensor, Result, TensorMut, TensorRef};

/// Every element's storage offset of `layout`, in row-major order.
pub(crate) fn offsets(layout: &Layout) -> Vec<i64> {
    let (shape, strides) = (layout.shape(), layout.strides());
    let mut out = Vec::with_capacity(layout.numel());
    if shape.contains(&0) {
        return out;
    }
    let mut idx = vec![0usize; shape.len()];
    let mut o = layout.offset() as isize;
    loop {
        out.push(o as i64);
        let mut d = shape.len();
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            idx[d] += 1;
            o += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            o -= strides[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
}

/// Adds `g` (of `region`'s shape) into `buffer` through `region`, a
/// layout over it: a copy where no two elements of the region share a
/// position, a scatter-add where they do.
fn add_through<D: Backend>(
    buffer: &mut RawTensor<D>,
    region: Layout,
    g: &TensorRef<'_, D>,
) -> Result<()> {
    let dtype = buffer.dtype();
    if region.is_non_overlapping() {
        let mut dst = TensorMut::new(buffer.storage_mut(), region, dtype)?;
        return dst.binary_(crate::BinaryOp::Add, g);
    }
    let device = g.storage().device().clone();
    let positions = offsets(&region);
    let index = RawTensor::from_slice_on(&device, &positions, &[positions.len()])?;
    let src = g.to_contiguous()?;
    let flat = Layout::contiguous(&[src.layout().numel()]);
    let total = buffer.storage().len_of(dtype);
    let out = Output {
        storage: buffer.storage_mut(),
        layout: Layout::contiguous(&[total]),
        dtype,
    };
    let src = TensorRef::new(src.storage(), flat, dtype)?;
    device.scatter_add(
        ScatterAdd { dim: 0 },
        out,
        index.view().input(),
        src.input(),
    )
}

/// The gradient of a view that picks a region of its input: zeros of the
/// input's `shape` with `g` added through the same view of them.
fn region_backward<D: Backend>(
    shape: &[usize],
    view: &dyn Fn(&Layout) -> Result<Layout>,
    g: &Grad<D>,
) -> Result<Grad<D>> {
    let gv = g.view();
    let mut z = RawTensor::zeros_on(gv.storage().device(), shape, gv.dtype())?;
    let region = view(&Layout::contiguous(shape))?;
    add_through(&mut z, region, &gv)?;
    Ok(Grad::new(z))
}

/// The permutation `movedim(source, destination)` makes, as PyTorch's.
fn movedim_order(rank: usize, source: &[isize], destination: &[isize]) -> Result<Vec<usize>> {
    let src: Vec<usize> = source
        .iter()
        .map(|&d| wrap_dim(d, rank))
        .collect::<Result<_>>()?;
    let dst: Vec<usize> = destination
        .iter()
        .map(|&d| wrap_dim(d, rank))
        .collect::<Result<_>>()?;
    let mut order: Vec<Option<usize>> = vec![None; rank];
    for (&s, &d) in src.iter().zip(&dst) {
        order[d] = Some(s);
    }
    let mut rest = (0..rank).filter(|d| !src.contains(d));
    Ok(order
        .into_iter()
        .map(|o| o.or_else(|| rest.next()).unwrap_or(0))
        .collect())
}

impl<'g, D: Backend> Var<'g, D> {
    /// A view of this tensor with `layout`, whose backward is `backward`.
    fn view_with(
        &self,
        name: &'static str,
        layout: Layout,
        backward: impl Fn(Grad<D>) -> Result<Grad<D>> + 'g,
    ) -> Result<Var<'g, D>> {
        let mut out = self.viewed(layout)?;
        if Var::tracks(&[self]) {
            out.attach(
                name,
                &[self],
                Box::new(move |g, _| Ok(vec![Some(backward(g)?)])),
            );
        }
        Ok(out)
    }

    /// A view of this tensor that picks a region of it: `view` is the
    /// layout function (of the input's layout); the gradient is added
    /// through it into zeros of the input's shape.
    pub(crate) fn region(
        &self,
        name: &'static str,
        view: impl Fn(&Layout) -> Result<Layout> + 'g,
    ) -> Result<Var<'g, D>> {
        let layout = view(&self.layout)?;
        let shape = self.shape().to_vec();
        self.view_with(name, layout, move |g| region_backward(&shape, &view, &g))
    }

    /// A view whose gradient is the output's reshaped to the input's shape
    /// (`view`, `unsqueeze`, `squeeze`, `flatten`).
    fn reshaped_view(&self, name: &'static str, layout: Layout) -> Result<Var<'g, D>> {
        let shape = self.shape().to_vec();
        self.view_with(name, layout, move |g| g.reshaped(&shape))
    }

    /// `x.permute(dims)`.
    ///
    /// # Errors
    /// As [`Layout::permute`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 3, 4], DType::F32)?)?;
    /// assert_eq!(x.permute(&[2, 0, 1])?.shape(), &[4, 2, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn permute(&self, dims: &[isize]) -> Result<Var<'g, D>> {
        let layout = self.layout.permute(dims)?;
        let rank = self.layout.rank();
        let wrapped: Vec<usize> = dims
            .iter()
            .map(|&d| wrap_dim(d, rank))
            .collect::<Result<_>>()?;
        let mut inverse = vec![0isize; rank];
        for (i, &d) in wrapped.iter().enumerate() {
            inverse[d] = i as isize;
        }
        self.view_with("Permute", layout, move |g| {
            g.relayout(|l| l.permute(&inverse))
        })
    }

    /// `x.transpose(d0, d1)`.
    ///
    /// # Errors
    /// As [`Layout::transpose`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 3], DType::F32)?)?;
    /// assert_eq!(x.transpose(0, 1)?.strides(), &[1, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn transpose(&self, d0: isize, d1: isize) -> Result<Var<'g, D>> {
        let layout = self.layout.transpose(d0, d1)?;
        self.view_with("Transpose", layout, move |g| {
            g.relayout(|l| l.transpose(d0, d1))
        })
    }

    /// `x.t()`: a matrix transposed (a vector or a 0-dim tensor as it is).
    ///
    /// # Errors
    /// More than two dims.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 3], DType::F32)?)?;
    /// assert_eq!(x.t()?.shape(), &[3, 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn t(&self) -> Result<Var<'g, D>> {
        let layout = self.layout.t()?;
        self.view_with("T", layout, |g| g.relayout(Layout::t))
    }

    /// The strides.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// assert_eq!(Var::constant(RawTensor::zeros(&[2, 3], DType::F32)?).strides(), &[3, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }

    /// `x.movedim(source, destination)`.
    ///
    /// # Errors
    /// As [`Layout::movedim`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 3, 4], DType::F32)?)?;
    /// assert_eq!(x.movedim(&[0], &[2])?.shape(), &[3, 4, 2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn movedim(&self, source: &[isize], destination: &[isize]) -> Result<Var<'g, D>> {
        self.layout.movedim(source, destination)?;
        let order = movedim_order(self.layout.rank(), source, destination)?;
        let dims: Vec<isize> = order.iter().map(|&d| d as isize).collect();
        self.permute(&dims)
    }

    /// `x.unsqueeze(dim)`.
    ///
    /// # Errors
    /// As [`Layout::unsqueeze`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[3], DType::F32)?)?;
    /// assert_eq!(x.unsqueeze(0)?.shape(), &[1, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unsqueeze(&self, dim: isize) -> Result<Var<'g, D>> {
        self.reshaped_view("Unsqueeze", self.layout.unsqueeze(dim)?)
    }

    /// `x.squeeze()`: every dim of size 1 dropped.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[1, 3, 1], DType::F32)?)?;
    /// assert_eq!(x.squeeze()?.shape(), &[3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// A failure to record the view.
    pub fn squeeze(&self) -> Result<Var<'g, D>> {
        self.reshaped_view("Squeeze", self.layout.squeeze())
    }

    /// `x.squeeze(dims)`: those dims dropped where of size 1.
    ///
    /// # Errors
    /// As [`Layout::squeeze_dims`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[1, 3, 1], DType::F32)?)?;
    /// assert_eq!(x.squeeze_dims(&[0])?.shape(), &[3, 1]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn squeeze_dims(&self, dims: &[isize]) -> Result<Var<'g, D>> {
        self.reshaped_view("Squeeze", self.layout.squeeze_dims(dims)?)
    }

    /// `x.view(shape)` (one `-1` inferred): a view, or PyTorch's error where
    /// the layout needs a copy.
    ///
    /// # Errors
    /// As [`Layout::view`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 3], DType::F32)?)?;
    /// assert_eq!(x.view(&[-1])?.shape(), &[6]);
    /// assert!(x.t()?.view(&[-1]).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn view(&self, shape: &[isize]) -> Result<Var<'g, D>> {
        self.reshaped_view("View", self.layout.view(shape)?)
    }

    /// `x.reshape(shape)`: a view when the layout allows one, else a copy.
    ///
    /// # Errors
    /// A shape of another element count.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 3], DType::F32)?)?;
    /// assert_eq!(x.t()?.reshape(&[6])?.shape(), &[6]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn reshape(&self, shape: &[isize]) -> Result<Var<'g, D>> {
        match self.value().reshape(shape)? {
            MaybeOwned::View(v) => self.reshaped_view("View", v.layout().clone()),
            MaybeOwned::Owned(copy) => {
                let mut out = Var::fresh(copy);
                if Var::tracks(&[self]) {
                    let shape = self.shape().to_vec();
                    out.attach(
                        "UnsafeView",
                        &[self],
                        Box::new(move |g: Grad<D>, _| Ok(vec![Some(g.reshaped(&shape)?)])),
                    );
                }
                Ok(out)
            }
        }
    }

    /// `x.flatten(start, end)`.
    ///
    /// # Errors
    /// As [`Layout::flatten_shape`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 3, 4], DType::F32)?)?;
    /// assert_eq!(x.flatten(1, -1)?.shape(), &[2, 12]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn flatten(&self, start: isize, end: isize) -> Result<Var<'g, D>> {
        let shape: Vec<isize> = (self.layout.flatten_shape(start, end)?)
            .iter()
            .map(|&n| n as isize)
            .collect();
        self.reshape(&shape)
    }

    /// `x.unflatten(dim, sizes)`.
    ///
    /// # Errors
    /// As [`Layout::unflatten`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 12], DType::F32)?)?;
    /// assert_eq!(x.unflatten(1, &[3, 4])?.shape(), &[2, 3, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unflatten(&self, dim: isize, sizes: &[isize]) -> Result<Var<'g, D>> {
        self.reshaped_view("View", self.layout.unflatten(dim, sizes)?)
    }

    /// `x.narrow(dim, start, length)`.
    ///
    /// # Errors
    /// As [`Layout::narrow`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let g = x.narrow(0, 1, 2)?.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![0.0, 1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn narrow(&self, dim: isize, start: isize, length: usize) -> Result<Var<'g, D>> {
        self.region("Slice", move |l| l.narrow(dim, start, length))
    }

    /// `x[start:end:step]` along `dim`.
    ///
    /// # Errors
    /// As [`Layout::slice`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[5], DType::F32)?)?;
    /// assert_eq!(x.slice(0, Some(1), None, 2)?.shape(), &[2]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn slice(
        &self,
        dim: isize,
        start: Option<isize>,
        end: Option<isize>,
        step: isize,
    ) -> Result<Var<'g, D>> {
        self.region("Slice", move |l| l.slice(dim, start, end, step))
    }

    /// `x.select(dim, index)`: the dim dropped.
    ///
    /// # Errors
    /// As [`Layout::select`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 3], DType::F32)?)?;
    /// assert_eq!(x.select(0, -1)?.shape(), &[3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn select(&self, dim: isize, index: isize) -> Result<Var<'g, D>> {
        self.region("Select", move |l| l.select(dim, index))
    }

    /// `x.diagonal(offset, d1, d2)`.
    ///
    /// # Errors
    /// As [`Layout::diagonal`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64; 4], &[2, 2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let g = x.diagonal(0, 0, 1)?.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![1.0, 0.0, 0.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn diagonal(&self, offset: isize, d1: isize, d2: isize) -> Result<Var<'g, D>> {
        self.region("Diagonal", move |l| l.diagonal(offset, d1, d2))
    }

    /// `x.unfold(dim, size, step)`: windows, which overlap when `step <
    /// size`, so their gradients add up.
    ///
    /// # Errors
    /// As [`Layout::unfold`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64; 4], &[4])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let g = x.unfold(0, 2, 1)?.sum(&[], false)?.backward()?; // windows 01, 12, 23
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![1.0, 2.0, 2.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn unfold(&self, dim: isize, size: usize, step: usize) -> Result<Var<'g, D>> {
        self.region("Unfold", move |l| l.unfold(dim, size, step))
    }

    /// `x.expand(sizes)` (`-1` keeps a size): the gradient is summed over
    /// the dims broadcast.
    ///
    /// # Errors
    /// As [`Layout::expand`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let g = x.expand(&[3, 2])?.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![3.0, 3.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn expand(&self, sizes: &[isize]) -> Result<Var<'g, D>> {
        let layout = self.layout.expand(sizes)?;
        let shape = self.shape().to_vec();
        self.view_with("Expand", layout, move |g| sum_to(g, &shape))
    }

    /// `x.as_strided(size, stride, offset)` (`offset` absolute in the
    /// storage; the input's when `None`): any layout over the storage,
    /// checked against it. Its gradient follows PyTorch's
    /// `as_strided_backward`: the output's gradient added at the storage
    /// positions it reads, then read back through the input's layout, each
    /// divided by how many of the input's elements share its position.
    ///
    /// # Errors
    /// As [`Layout::as_strided`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64; 4], &[4])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let w = x.as_strided(&[3, 2], &[1, 1], None)?; // overlapping windows
    /// let g = w.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![1.0, 2.0, 2.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn as_strided(
        &self,
        size: &[usize],
        stride: &[isize],
        offset: Option<usize>,
    ) -> Result<Var<'g, D>> {
        let len = self.data.storage().len_of(self.dtype);
        let layout = self
            .layout
            .as_strided(size, stride, offset, len, self.dtype.size())?;
        let (input, output) = (self.layout.clone(), layout.clone());
        self.view_with("AsStrided", layout, move |g| {
            as_strided_backward(&input, &output, &g)
        })
    }

    /// `x.contiguous()`: this tensor when already contiguous, else a copy
    /// with its history.
    ///
    /// # Errors
    /// A failure of the device.
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 3], DType::F32)?)?;
    /// assert!(x.t()?.contiguous()?.value().is_contiguous());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn contiguous(&self) -> Result<Var<'g, D>> {
        if self.layout.is_contiguous() {
            return Ok(self.share());
        }
        let mut out = Var::fresh(self.value().to_contiguous()?);
        if Var::tracks(&[self]) {
            out.attach("Clone", &[self], Box::new(|g, _| Ok(vec![Some(g)])));
        }
        Ok(out)
    }

    /// `torch.split(x, size, dim)`: views of `size` along `dim`, the last
    /// one shorter.
    ///
    /// # Errors
    /// As [`TensorRef::split`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[5], DType::F32)?)?;
    /// assert_eq!(x.split(2, 0)?.len(), 3);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn split(&self, size: usize, dim: isize) -> Result<Vec<Var<'g, D>>> {
        let sizes: Vec<usize> = (self.value().split(size, dim)?)
            .iter()
            .map(|p| p.shape()[wrap_dim(dim, p.dim()).unwrap_or(0)])
            .collect();
        self.split_with_sizes(&sizes, dim)
    }

    /// `torch.chunk(x, chunks, dim)`.
    ///
    /// # Errors
    /// As [`TensorRef::chunk`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, DType, RawTensor};
    /// let x = Var::leaf(RawTensor::zeros(&[2, 12], DType::F32)?)?;
    /// assert_eq!(x.chunk(3, -1)?[2].shape(), &[2, 4]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn chunk(&self, chunks: usize, dim: isize) -> Result<Vec<Var<'g, D>>> {
        let sizes: Vec<usize> = (self.value().chunk(chunks, dim)?)
            .iter()
            .map(|p| p.shape()[wrap_dim(dim, p.dim()).unwrap_or(0)])
            .collect();
        self.split_with_sizes(&sizes, dim)
    }

    /// `torch.split(x, sizes, dim)`: views of those sizes along `dim`.
    ///
    /// # Errors
    /// As [`TensorRef::split_with_sizes`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let x = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3])?)?;
    /// let id = x.leaf_id().unwrap();
    /// let parts = x.split_with_sizes(&[1, 2], 0)?;
    /// let g = parts[1].sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(id).unwrap().to_vec::<f64>()?, vec![0.0, 1.0, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn split_with_sizes(&self, sizes: &[usize], dim: isize) -> Result<Vec<Var<'g, D>>> {
        self.value().split_with_sizes(sizes, dim)?;
        let mut start = 0;
        sizes
            .iter()
            .map(|&n| {
                let piece = self.narrow(dim, start as isize, n);
                start += n;
                piece
            })
            .collect()
    }

    /// `torch.cat(tensors, dim)`: each gradient is the output's slice where
    /// its tensor went (a view).
    ///
    /// # Errors
    /// As [`RawTensor::cat`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let a = Var::leaf(RawTensor::from_vec(vec![1.0f64], &[1])?)?;
    /// let b = Var::leaf(RawTensor::from_vec(vec![2.0f64, 3.0], &[2])?)?;
    /// let w = Var::constant(RawTensor::from_vec(vec![1.0f64, 10.0, 100.0], &[3])?);
    /// let ib = b.leaf_id().unwrap();
    /// let g = Var::cat(&[&a, &b], 0)?.mul(&w)?.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(ib).unwrap().to_vec::<f64>()?, vec![10.0, 100.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn cat(tensors: &[&Var<'g, D>], dim: isize) -> Result<Var<'g, D>> {
        let views: Vec<TensorRef<'_, D>> = tensors.iter().map(|t| t.value()).collect();
        let mut out = Var::fresh(RawTensor::cat(&views, dim)?);
        if Var::tracks(tensors) {
            let parts: Vec<(&[usize], DType)> =
                tensors.iter().map(|t| (t.shape(), t.dtype)).collect();
            let (Cat { dim }, _) = Cat::new(dim, &parts)?;
            let shapes: Vec<(Vec<usize>, DType)> = tensors
                .iter()
                .map(|t| (t.shape().to_vec(), t.dtype))
                .collect();
            out.attach(
                "Cat",
                tensors,
                Box::new(move |g, needs| {
                    let mut start = 0;
                    let mut grads = Vec::with_capacity(shapes.len());
                    for ((shape, dtype), &need) in shapes.iter().zip(needs) {
                        let n = shape[dim];
                        let s = start as isize;
                        start += n;
                        grads.push(match need {
                            true => Some(fit(
                                g.relayout(|l| l.narrow(dim as isize, s, n))?,
                                shape,
                                *dtype,
                            )?),
                            false => None,
                        });
                    }
                    Ok(grads)
                }),
            );
        }
        Ok(out)
    }

    /// `torch.stack(tensors, dim)`: each gradient is the output's slice at
    /// its position along the new dim (a view).
    ///
    /// # Errors
    /// As [`RawTensor::stack`].
    ///
    /// ```
    /// # use axial_core::{autograd::Var, RawTensor};
    /// let a = Var::leaf(RawTensor::from_vec(vec![1.0f64, 2.0], &[2])?)?;
    /// let ia = a.leaf_id().unwrap();
    /// let s = Var::stack(&[&a, &a], 0)?; // [2, 2]
    /// let g = s.sum(&[], false)?.backward()?;
    /// assert_eq!(g.get(ia).unwrap().to_vec::<f64>()?, vec![2.0, 2.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn stack(tensors: &[&Var<'g, D>], dim: isize) -> Result<Var<'g, D>> {
        let views: Vec<TensorRef<'_, D>> = tensors.iter().map(|t| t.value()).collect();
        let mut out = Var::fresh(RawTensor::stack(&views, dim)?);
        if Var::tracks(tensors) {
            let shapes: Vec<&[usize]> = tensors.iter().map(|t| t.shape()).collect();
            let Stack { dim } = Stack::new(dim, &shapes)?;
            let dtypes: Vec<DType> = tensors.iter().map(|t| t.dtype).collect();
            let shapes: Vec<Vec<usize>> = shapes.iter().map(|s| s.to_vec()).collect();
            out.attach(
                "Stack",
                tensors,
                Box::new(move |g, needs| {
                    let mut grads = Vec::with_capacity(needs.len());
                    for (i, &need) in needs.iter().enumerate() {
                        grads.push(match need {
                            true => Some(fit(
                                g.relayout(|l| l.select(dim as isize, i as isize))?,
                                &shapes[i],
                                dtypes[i],
                            )?),
                            false => None,
                        });
                    }
                    Ok(grads)
                }),
            );
        }
        Ok(out)
    }
}

/// PyTorch's `as_strided_backward`: `g` (the output's gradient, `output`
/// its layout over the storage) added at the storage positions it reads,
/// then read through `input`'s layout, each element divided by how many
/// of the input's elements share its position.
fn as_strided_backward<D: Backend>(
    input: &Layout,
    output: &Layout,
    g: &Grad<D>,
) -> Result<Grad<D>> {
    let start = |l: &Layout| {
        if l.numel() == 0 {
            usize::MAX
        } else {
            l.offset()
        }
    };
    let base = start(input).min(start(output));
    let end = input.required_len().max(output.required_len());
    let gv = g.view();
    let device = gv.storage().device().clone();
    if base == usize::MAX || end <= base {
        return Ok(Grad::new(RawTensor::zeros_on(
            &device,
            input.shape(),
            gv.dtype(),
        )?));
    }
    let shift =
        |l: &Layout| Layout::from_parts(l.shape(), l.strides(), l.offset().saturating_sub(base));
    let span = end - base;
    let read = shift(input);
    let covers = |l: &Layout| l.numel() == span && l.is_non_overlapping();
    if covers(input) && covers(output) {
        // Both read every position of the span once (a permutation or a
        // reshape of the base, as a typed tensor's views record): `g`
        // written through the output's layout is the gradient, read through
        // the input's, with no zeros, sum or copy back.
        let dtype = gv.dtype();
        let mut buffer = alloc_output(&device, Layout::contiguous(&[span]), dtype)?;
        TensorMut::new(buffer.storage_mut(), shift(output), dtype)?.copy_(&gv)?;
        let (storage, _, _) = buffer.into_parts();
        return Ok(Grad::new(RawTensor::from_parts(storage, read, dtype)?));
    }
    let mut buffer = RawTensor::zeros_on(&device, &[span], gv.dtype())?;
    add_through(&mut buffer, shift(output), &gv)?;
    if !input.is_non_overlapping() {
        let mut count = RawTensor::zeros_on(&device, &[span], gv.dtype())?;
        let ones = RawTensor::full_on(&device, &[], crate::Scalar::Float(1.0), gv.dtype())?;
        let sizes: Vec<isize> = input.shape().iter().map(|&n| n as isize).collect();
        add_through(&mut count, read.clone(), &ones.view().expand(&sizes)?)?;
        buffer = buffer.view().binary(crate::BinaryOp::Div, &count.view())?;
    }
    let out = TensorRef::new(buffer.storage(), read, gv.dtype())?.to_contiguous()?;
    Ok(Grad::new(out))
}
