//! Creation: from host data, filled, ranges, identity and random tensors.

use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, StandardNormal};

use super::{RawTensor, TensorRef, alloc_output};
use crate::layout::checked_numel;
use crate::{
    Backend, Cpu, DType, Element, Error, Layout, Result, Scalar, Storage, cast, with_dtype,
};

/// A seeded random generator (ChaCha8): the same seed gives the same tensors
/// on every machine.
///
/// # Example
/// ```
/// use axial_core::{Generator, RawTensor, DType};
/// let a = RawTensor::rand(&[3], DType::F32, &mut Generator::seed(7))?;
/// let b = RawTensor::rand(&[3], DType::F32, &mut Generator::seed(7))?;
/// assert_eq!(a.to_vec::<f32>()?, b.to_vec::<f32>()?);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct Generator(rand_chacha::ChaCha8Rng);

impl Generator {
    /// A generator from a seed.
    ///
    /// ```
    /// # use axial_core::{DType, Generator, RawTensor};
    /// let mut rng = Generator::seed(1);
    /// let a = RawTensor::randn(&[4], DType::F64, &mut rng)?;
    /// let b = RawTensor::randn(&[4], DType::F64, &mut rng)?; // the stream moves on
    /// assert_ne!(a.to_vec::<f64>()?, b.to_vec::<f64>()?);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn seed(seed: u64) -> Self {
        Generator(rand_chacha::ChaCha8Rng::seed_from_u64(seed))
    }
}

impl RawTensor<Cpu> {
    /// A contiguous tensor of `shape` holding `data`.
    ///
    /// # Errors
    /// `data` has another number of elements than `shape`.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// assert!(RawTensor::from_vec(vec![1.0f32; 6], &[2, 3]).is_ok());
    /// assert!(RawTensor::from_vec(vec![1.0f32; 4], &[2, 3]).is_err());
    /// ```
    pub fn from_vec<T: Element>(data: Vec<T>, shape: &[usize]) -> Result<Self> {
        Self::from_slice_on(&Cpu, &data, shape)
    }

    /// `torch.zeros(shape, dtype)` on the CPU.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::zeros(&[2, 2], DType::I16)?;
    /// assert_eq!(x.to_vec::<i16>()?, vec![0; 4]);
    /// assert!(RawTensor::zeros(&[1 << 62, 4], DType::F32).is_err()); // too large
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn zeros(shape: &[usize], dtype: DType) -> Result<Self> {
        Self::zeros_on(&Cpu, shape, dtype)
    }

    /// `torch.arange(start, end, step, dtype)` on the CPU.
    ///
    /// # Errors
    /// As [`RawTensor::arange_on`].
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::arange(0.0, 1.0, 0.25, DType::F32)?;
    /// assert_eq!(x.to_vec::<f32>()?, vec![0.0, 0.25, 0.5, 0.75]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn arange(start: f64, end: f64, step: f64, dtype: DType) -> Result<Self> {
        Self::arange_on(&Cpu, start, end, step, dtype)
    }

    /// `torch.rand(shape)`: uniform in `[0, 1)`, floats only.
    ///
    /// # Errors
    /// A non-float dtype.
    ///
    /// ```
    /// # use axial_core::{DType, Generator, RawTensor};
    /// let x = RawTensor::rand(&[1000], DType::F32, &mut Generator::seed(3))?;
    /// assert!(x.to_vec::<f32>()?.iter().all(|v| (0.0..1.0).contains(v)));
    /// assert!(RawTensor::rand(&[2], DType::I32, &mut Generator::seed(3)).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn rand(shape: &[usize], dtype: DType, rng: &mut Generator) -> Result<Self> {
        Self::rand_on(&Cpu, shape, dtype, rng)
    }

    /// `torch.randn(shape)`: standard normal, floats only.
    ///
    /// # Errors
    /// A non-float dtype.
    ///
    /// ```
    /// # use axial_core::{DType, Generator, RawTensor, ReduceOp};
    /// let x = RawTensor::randn(&[10_000], DType::F64, &mut Generator::seed(5))?;
    /// let mean = x.view().reduce(ReduceOp::Mean, &[], false)?.view().item::<f64>()?;
    /// assert!(mean.abs() < 0.05);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn randn(shape: &[usize], dtype: DType, rng: &mut Generator) -> Result<Self> {
        Self::randn_on(&Cpu, shape, dtype, rng)
    }
}

impl<D: Backend> RawTensor<D> {
    /// A contiguous tensor of `shape` holding `data`, on `device`.
    ///
    /// # Errors
    /// `data` has another number of elements than `shape`.
    ///
    /// ```
    /// # use axial_core::{Cpu, RawTensor};
    /// let x = RawTensor::from_slice_on(&Cpu, &[1u8, 2, 3, 4, 5, 6], &[3, 2])?;
    /// assert_eq!(x.view().get::<u8>(&[2, 0])?, 5);
    /// assert!(RawTensor::from_slice_on(&Cpu, &[1u8, 2], &[3]).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn from_slice_on<T: Element>(device: &D, data: &[T], shape: &[usize]) -> Result<Self> {
        let numel = checked_numel("alloc", shape)?;
        if numel != data.len() {
            return Err(Error::ElementCount {
                op: "from_vec",
                expected: numel,
                got: data.len(),
            });
        }
        RawTensor::from_parts(
            Storage::from_host_slice(device, data)?,
            Layout::contiguous(shape),
            T::DTYPE,
        )
    }

    /// `torch.zeros`.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{Cpu, DType, RawTensor};
    /// let x = RawTensor::zeros_on(&Cpu, &[3], DType::F64)?;
    /// assert_eq!(x.to_vec::<f64>()?, vec![0.0; 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn zeros_on(device: &D, shape: &[usize], dtype: DType) -> Result<Self> {
        let nbytes = checked_numel("alloc", shape)?
            .checked_mul(dtype.size())
            .ok_or_else(|| Error::invalid("zeros", "size overflows"))?;
        RawTensor::from_parts(
            Storage::zeroed(device, nbytes)?,
            Layout::contiguous(shape),
            dtype,
        )
    }

    /// `torch.full(shape, value, dtype)` (and `ones` with 1).
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{Cpu, DType, RawTensor};
    /// let x = RawTensor::full_on(&Cpu, &[2], 3.7.into(), DType::I32)?;
    /// assert_eq!(x.to_vec::<i32>()?, vec![3, 3]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn full_on(device: &D, shape: &[usize], value: Scalar, dtype: DType) -> Result<Self> {
        checked_numel("alloc", shape)?;
        let mut out = alloc_output(device, Layout::contiguous(shape), dtype)?;
        device.fill(out.output(), value)?;
        Ok(out)
    }

    /// `torch.arange(start, end, step)`: `ceil((end - start) / step)` values
    /// `start + i * step`.
    ///
    /// # Errors
    /// `step == 0`, or a step whose sign does not lead from start to end.
    ///
    /// ```
    /// # use axial_core::{Cpu, DType, RawTensor};
    /// let x = RawTensor::arange_on(&Cpu, 1.0, 13.0, 1.0, DType::I64)?;
    /// assert_eq!(x.to_vec::<i64>()?, (1..13).collect::<Vec<_>>());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn arange_on(device: &D, start: f64, end: f64, step: f64, dtype: DType) -> Result<Self> {
        if step == 0.0 {
            return Err(Error::invalid("arange", "step must be nonzero"));
        }
        if (step > 0.0 && end < start) || (step < 0.0 && end > start) {
            return Err(Error::invalid(
                "arange",
                "upper bound and larger bound inconsistent with step sign",
            ));
        }
        let n = ((end - start) / step).ceil();
        if !n.is_finite() || n > isize::MAX as f64 {
            return Err(Error::invalid(
                "arange",
                format!("invalid size, possible overflow? start={start}, end={end}, step={step}"),
            ));
        }
        let n = n as usize;
        with_dtype!(dtype, T => {
            let data = host_values("arange", n, |i| T::from_f64(start + i as f64 * step))?;
            Self::from_slice_on(device, &data, &[n])
        })
    }

    /// `torch.linspace(start, end, steps)`: evenly spaced, both ends included
    /// (computed from both ends, as PyTorch, so the last value is `end`).
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{Cpu, DType, RawTensor};
    /// let x = RawTensor::linspace_on(&Cpu, 0.0, 1.0, 5, DType::F32)?;
    /// assert_eq!(x.to_vec::<f32>()?, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn linspace_on(
        device: &D,
        start: f64,
        end: f64,
        steps: usize,
        dtype: DType,
    ) -> Result<Self> {
        let step = if steps > 1 {
            (end - start) / (steps - 1) as f64
        } else {
            0.0
        };
        let half = steps / 2;
        with_dtype!(dtype, T => {
            let data = host_values("linspace", steps, |i| {
                let v = if i < half { start + step * i as f64 } else { end - step * (steps - 1 - i) as f64 };
                T::from_f64(v)
            })?;
            Self::from_slice_on(device, &data, &[steps])
        })
    }

    /// `torch.eye(n, m)`: ones on the main diagonal.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// # use axial_core::{Cpu, DType, RawTensor};
    /// let x = RawTensor::eye_on(&Cpu, 2, 3, DType::I64)?;
    /// assert_eq!(x.to_vec::<i64>()?, vec![1, 0, 0, 0, 1, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn eye_on(device: &D, n: usize, m: usize, dtype: DType) -> Result<Self> {
        let mut out = Self::zeros_on(device, &[n, m], dtype)?;
        out.view_mut().diagonal(0, 0, 1)?.fill_(Scalar::Int(1))?;
        Ok(out)
    }

    /// `torch.rand`: uniform in `[0, 1)` from `rng`, floats only.
    ///
    /// # Errors
    /// A non-float dtype.
    ///
    /// ```
    /// # use axial_core::{Cpu, DType, Generator, RawTensor};
    /// let x = RawTensor::rand_on(&Cpu, &[2, 2], DType::BF16, &mut Generator::seed(0))?;
    /// assert_eq!((x.shape(), x.dtype()), (&[2, 2][..], DType::BF16));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn rand_on(device: &D, shape: &[usize], dtype: DType, rng: &mut Generator) -> Result<Self> {
        float_only("rand", dtype)?;
        Self::from_samples(device, "rand", shape, dtype, || rng.0.random::<f64>())
    }

    /// `torch.randn`: standard normal from `rng`, floats only.
    ///
    /// # Errors
    /// A non-float dtype.
    ///
    /// ```
    /// # use axial_core::{Cpu, DType, Generator, RawTensor};
    /// let a = RawTensor::randn_on(&Cpu, &[3], DType::F32, &mut Generator::seed(9))?;
    /// let b = RawTensor::randn_on(&Cpu, &[3], DType::F32, &mut Generator::seed(9))?;
    /// assert_eq!(a.to_vec::<f32>()?, b.to_vec::<f32>()?); // same seed, same values
    /// assert!(RawTensor::randn_on(&Cpu, &[3], DType::U8, &mut Generator::seed(9)).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn randn_on(
        device: &D,
        shape: &[usize],
        dtype: DType,
        rng: &mut Generator,
    ) -> Result<Self> {
        float_only("randn", dtype)?;
        Self::from_samples(device, "randn", shape, dtype, || -> f64 {
            StandardNormal.sample(&mut rng.0)
        })
    }

    /// `torch.randint(low, high, shape)`: integers uniform in `[low, high)`.
    ///
    /// # Errors
    /// `low >= high`.
    ///
    /// ```
    /// # use axial_core::{Cpu, DType, Generator, RawTensor};
    /// let x = RawTensor::randint_on(&Cpu, 0, 10, &[100], DType::I64, &mut Generator::seed(0))?;
    /// assert!(x.to_vec::<i64>()?.iter().all(|v| (0..10).contains(v)));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn randint_on(
        device: &D,
        low: i64,
        high: i64,
        shape: &[usize],
        dtype: DType,
        rng: &mut Generator,
    ) -> Result<Self> {
        if low >= high {
            return Err(Error::invalid(
                "randint",
                format!(
                    "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
                ),
            ));
        }
        Self::from_samples(device, "randint", shape, dtype, || {
            rng.0.random_range(low..high)
        })
    }

    /// A tensor of `shape` whose elements, in row-major order, are
    /// `sample()` cast to `dtype`.
    fn from_samples<S: Element>(
        device: &D,
        op: &'static str,
        shape: &[usize],
        dtype: DType,
        mut sample: impl FnMut() -> S,
    ) -> Result<Self> {
        let n = checked_numel("alloc", shape)?;
        with_dtype!(dtype, T => {
            let data = host_values(op, n, |_| cast::<S, T>(sample()))?;
            Self::from_slice_on(device, &data, shape)
        })
    }

    /// The elements in row-major order, copied to the host.
    ///
    /// # Errors
    /// `T` is not the tensor's dtype, or the device failed.
    ///
    /// ```
    /// # use axial_core::RawTensor;
    /// let x = RawTensor::from_vec(vec![1i32, 2, 3], &[3])?;
    /// assert_eq!(x.to_vec::<i32>()?, vec![1, 2, 3]);
    /// assert!(x.to_vec::<i64>().is_err()); // not the dtype
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.view().to_vec()
    }
}

impl<D: Backend> TensorRef<'_, D> {
    /// The elements in row-major order, copied to the host.
    ///
    /// # Errors
    /// `T` is not the view's dtype, or the device failed.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let x = RawTensor::arange(0.0, 6.0, 1.0, DType::I64)?;
    /// let t = x.view().view(&[2, 3])?.t()?;
    /// assert_eq!(t.to_vec::<i64>()?, vec![0, 3, 1, 4, 2, 5]);
    /// // An empty view reads as empty, even with its offset past the storage.
    /// let e = RawTensor::zeros(&[0, 2, 1], DType::F32)?;
    /// let v = e.view().slice(2, Some(1), Some(-1), 2)?; // storage offset 1 of 0
    /// assert_eq!((v.offset(), v.to_vec::<f32>()?), (1, vec![]));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        super::expect_dtype::<T>("to_vec", self.dtype)?;
        self.check_in_bounds()?;
        if self.numel() == 0 {
            // An empty view addresses nothing, wherever its offset lies
            // (`x[:, 2:1:2]` of an empty `x` is past its storage's end).
            return Ok(Vec::new());
        }
        let c = self.contiguous()?;
        let view = c.as_ref();
        let start = view.offset() * self.dtype.size();
        let mut out = vec![T::ZERO; self.numel()];
        view.storage.device().copy_to_host(
            view.storage.buffer(),
            start,
            bytemuck::cast_slice_mut(&mut out),
        )?;
        Ok(out)
    }

    /// The element at `index`, one coordinate per dim: unsigned, as the
    /// sizes of `shape()` are, or signed, negative counting from the end
    /// (see [`AxisIndex`](crate::layout::AxisIndex)).
    ///
    /// # Errors
    /// `T` is not the dtype, or an index is out of range.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor};
    /// let g = RawTensor::arange(1.0, 13.0, 1.0, DType::F32)?;
    /// let g = g.view().view(&[3, 4])?;
    /// assert_eq!(g.get::<f32>(&[1, 2])?, 7.0);
    /// assert_eq!(g.get::<f32>(&[-1, -1])?, 12.0);
    /// let last: Vec<usize> = g.shape().iter().map(|n| n - 1).collect();
    /// assert_eq!(g.get::<f32>(&last)?, 12.0);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn get<T: Element>(&self, index: &[impl crate::layout::AxisIndex]) -> Result<T> {
        super::expect_dtype::<T>("get", self.dtype)?;
        self.check_in_bounds()?;
        let at = self.layout.storage_index(index)?;
        let mut value = T::ZERO;
        self.storage.device().copy_to_host(
            self.storage.buffer(),
            at * self.dtype.size(),
            bytemuck::bytes_of_mut(&mut value),
        )?;
        Ok(value)
    }

    /// The one element of a one-element tensor (`x.item()`).
    ///
    /// # Errors
    /// `T` is not the dtype, or the tensor has another number of elements.
    ///
    /// ```
    /// # use axial_core::{DType, RawTensor, ReduceOp};
    /// let x = RawTensor::arange(1.0, 5.0, 1.0, DType::F32)?;
    /// let total = x.view().reduce(ReduceOp::Sum, &[], false)?;
    /// assert_eq!(total.view().item::<f32>()?, 10.0);
    /// assert!(x.view().item::<f32>().is_err()); // four elements
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn item<T: Element>(&self) -> Result<T> {
        if self.numel() != 1 {
            return Err(Error::invalid(
                "item",
                format!(
                    "a Tensor with {} elements cannot be converted to Scalar",
                    self.numel()
                ),
            ));
        }
        let zeros = vec![0usize; self.dim()];
        self.get(&zeros)
    }
}

fn float_only(op: &'static str, dtype: DType) -> Result<()> {
    if !dtype.is_float() {
        return Err(Error::Unsupported { op, dtype });
    }
    Ok(())
}

/// The host values `f(0), ..., f(n - 1)`: an error, not an abort, when they
/// do not fit in memory.
fn host_values<T>(op: &'static str, n: usize, f: impl FnMut(usize) -> T) -> Result<Vec<T>> {
    let mut data = Vec::new();
    data.try_reserve_exact(n)
        .map_err(|_| Error::out_of_memory(op, n.saturating_mul(size_of::<T>())))?;
    data.extend((0..n).map(f));
    Ok(data)
}

#[cfg(test)]
mod tests {
    use crate::{Cpu, DType, Generator, RawTensor};

    #[test]
    fn sizes_past_memory_are_errors_not_aborts() {
        let n = (1u64 << 62) as f64;
        assert!(RawTensor::arange_on(&Cpu, 0.0, n, 1.0, DType::F64).is_err());
        assert!(RawTensor::linspace_on(&Cpu, 0.0, 1.0, usize::MAX / 2, DType::F32).is_err());
        assert!(RawTensor::zeros(&[1 << 62, 4], DType::F32).is_err());
    }

    #[test]
    fn randint_is_exact_for_every_i64() {
        let (low, high) = (i64::MAX - 4, i64::MAX);
        let mut rng = Generator::seed(0);
        let x = RawTensor::randint_on(&Cpu, low, high, &[64], DType::I64, &mut rng).unwrap();
        let values = x.to_vec::<i64>().unwrap();
        assert!(values.iter().all(|v| (low..high).contains(v)), "{values:?}");
        assert!(values.iter().any(|&v| v != values[0]));
    }
}
