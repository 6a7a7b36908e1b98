//! `axial` for Python: NumPy and PyTorch take axial tensors through DLPack
//! (`np.from_dlpack(t)`, `torch.from_dlpack(t)`), and axial takes NumPy
//! arrays (`axial.from_numpy(a)`) and any DLPack producer
//! (`axial.from_dlpack(x)`), all without copies: one memory, seen from
//! both sides.
//!
//! What `torch.from_numpy` refuses (negative strides, strides that are not
//! whole elements, non-native byte order, dtypes axial does not hold) is
//! refused with a `ValueError`/`TypeError` naming the problem, or copied
//! when asked (`copy=True`). A read-only NumPy array gives a read-only
//! axial tensor (PyTorch warns, then lets writes through).
//!
//! Tensors that share memory (an import and the array, `t()` and its
//! source) are separate Python objects over one buffer. Every method takes
//! at most one tensor and the GIL is held throughout, so no two Rust
//! borrows of that buffer are ever live at once.

use axial_core::storage::KeepAlive;
use axial_core::{DType, Layout, RawTensor, Scalar, Storage, UnaryOp};
use dlpark::ffi::{DLDevice, DLManagedTensor, DLManagedTensorVersioned};
use dlpark::python::{ExportAbi, ExportRequest, ImportedDlpack};
use numpy::npyffi::flags::{NPY_ARRAY_ALIGNED, NPY_ARRAY_WRITEABLE};
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyBufferError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use pyo3::{IntoPyObject, IntoPyObjectExt};

/// An axial tensor (untyped: shape, strides and dtype are run-time values).
#[pyclass(name = "Tensor", module = "axial")]
struct PyTensor {
    raw: RawTensor,
}

fn value_error(e: axial_core::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

impl PyTensor {
    fn read_only(&self) -> bool {
        !self.raw.storage().is_writable()
    }

    /// A new tensor over this one's memory with `layout`: the memory is
    /// shared in place (kept alive by whichever of the two goes last).
    fn sharing(&mut self, layout: Layout) -> PyResult<PyTensor> {
        let dtype = self.raw.dtype();
        let writable = self.raw.storage().is_writable();
        let storage = self.raw.storage_mut();
        let keep = storage.keep_alive();
        let (ptr, nbytes) = (storage.data_ptr(), storage.nbytes());
        // SAFETY: the same memory, kept alive by the same owner; under the
        // GIL the two tensors are never borrowed at once (see the module doc).
        let shared = unsafe { Storage::from_owner(ptr as *mut u8, nbytes, keep, writable) };
        let raw = RawTensor::from_parts(shared, layout, dtype).map_err(value_error)?;
        Ok(PyTensor { raw })
    }

    fn check_writable(&self, op: &str) -> PyResult<()> {
        if self.read_only() {
            return Err(PyValueError::new_err(format!(
                "{op}: the tensor is read-only (its producer said so); copy it with .contiguous(copy=True) to write"
            )));
        }
        Ok(())
    }

    fn scalar_op(&mut self, op: axial_core::BinaryOp, value: f64) -> PyResult<()> {
        self.check_writable("in-place op")?;
        let scalar = if self.raw.dtype().is_float() {
            Scalar::Float(value)
        } else {
            Scalar::Int(value as i64)
        };
        self.raw
            .view_mut()
            .binary_scalar_(op, scalar)
            .map_err(value_error)
    }
}

#[pymethods]
impl PyTensor {
    /// The sizes.
    #[getter]
    fn shape(&self) -> Vec<usize> {
        self.raw.shape().to_vec()
    }

    /// The sizes (PyTorch's `size()`).
    fn size(&self) -> Vec<usize> {
        self.shape()
    }

    /// The strides, in elements (PyTorch's `stride()`).
    fn stride(&self) -> Vec<isize> {
        self.raw.strides().to_vec()
    }

    /// The storage offset, in elements.
    fn storage_offset(&self) -> usize {
        self.raw.layout().offset()
    }

    /// The address of the first element.
    fn data_ptr(&self) -> usize {
        self.raw.view().data_ptr()
    }

    /// The dtype's name, as PyTorch prints it (`torch.float32`).
    #[getter]
    fn dtype(&self) -> String {
        self.raw.dtype().to_string()
    }

    /// True when writes are refused (an import the producer marked read-only).
    #[getter]
    fn is_read_only(&self) -> bool {
        self.read_only()
    }

    /// The transpose of a 2-d tensor: a view sharing this tensor's memory.
    fn t(&mut self) -> PyResult<PyTensor> {
        let layout = self.raw.layout().t().map_err(value_error)?;
        self.sharing(layout)
    }

    /// A view of the same memory with another shape (PyTorch's `view`).
    fn view(&mut self, shape: Vec<isize>) -> PyResult<PyTensor> {
        let layout = self
            .raw
            .view()
            .view(&shape)
            .map_err(value_error)?
            .layout()
            .clone();
        self.sharing(layout)
    }

    /// A row-major copy when `copy` or when not contiguous; else a view.
    #[pyo3(signature = (copy=false))]
    fn contiguous(&mut self, copy: bool) -> PyResult<PyTensor> {
        if copy || !self.raw.view().is_contiguous() {
            let raw = self.raw.view().to_contiguous().map_err(value_error)?;
            return Ok(PyTensor { raw });
        }
        let layout = self.raw.layout().clone();
        self.sharing(layout)
    }

    /// Adds `value` to every element, in place.
    fn add_<'py>(mut slf: PyRefMut<'py, Self>, value: f64) -> PyResult<PyRefMut<'py, Self>> {
        slf.scalar_op(axial_core::BinaryOp::Add, value)?;
        Ok(slf)
    }

    /// Multiplies every element by `value`, in place.
    fn mul_<'py>(mut slf: PyRefMut<'py, Self>, value: f64) -> PyResult<PyRefMut<'py, Self>> {
        slf.scalar_op(axial_core::BinaryOp::Mul, value)?;
        Ok(slf)
    }

    /// Negates every element, in place.
    fn neg_<'py>(mut slf: PyRefMut<'py, Self>) -> PyResult<PyRefMut<'py, Self>> {
        slf.check_writable("neg_")?;
        slf.raw
            .view_mut()
            .unary_(UnaryOp::Neg)
            .map_err(value_error)?;
        Ok(slf)
    }

    /// The elements as nested lists (floats for float dtypes, ints otherwise).
    fn tolist<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let as_f64 = self.raw.view().to_dtype(DType::F64).map_err(value_error)?;
        let flat = as_f64.to_vec::<f64>().map_err(value_error)?;
        let float = self.raw.dtype().is_float();
        nested(py, self.raw.shape(), &flat, float)
    }

    /// `__dlpack__`: a capsule over this tensor's memory, versioned when the
    /// consumer asks for DLPack 1.x (NumPy and PyTorch do), `READ_ONLY`
    /// when the tensor is read-only or its elements share memory.
    #[pyo3(signature = (*, stream=None, max_version=None, dl_device=None, copy=None))]
    fn __dlpack__<'py>(
        &mut self,
        py: Python<'py>,
        stream: Option<Bound<'py, PyAny>>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(u32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Py<PyAny>> {
        let request = ExportRequest::parse(stream.as_ref(), max_version, dl_device, copy)?;
        if let Some(device) = request.device()
            && device != DLDevice::CPU
        {
            return Err(PyBufferError::new_err(format!(
                "axial tensors are on the CPU; DLPack device ({}, {}) was asked for",
                device.device_type.0, device.device_id
            )));
        }
        if stream.as_ref().is_some_and(|s| !s.is_none()) {
            return Err(PyValueError::new_err(
                "a stream is meaningless for a CPU tensor",
            ));
        }
        let mut copied;
        let source = if request.copy() == Some(true) {
            copied = self.raw.view().to_contiguous().map_err(value_error)?;
            &mut copied
        } else {
            &mut self.raw
        };
        let read_only = !source.storage().is_writable();
        let (layout, dtype) = (source.layout().clone(), source.dtype());
        let storage = source.storage_mut();
        let capsule = match request.abi() {
            ExportAbi::Versioned => axial_io::dlpack::export::<DLManagedTensorVersioned>(
                storage, &layout, dtype, read_only,
            )
            .map_err(|e| PyBufferError::new_err(e.to_string()))?
            .into_pyobject(py)?
            .into_any()
            .unbind(),
            ExportAbi::Legacy => {
                axial_io::dlpack::export::<DLManagedTensor>(storage, &layout, dtype, read_only)
                    .map_err(|e| {
                        PyBufferError::new_err(format!(
                            "{e} (a read-only or aliasing tensor needs the versioned ABI)"
                        ))
                    })?
                    .into_pyobject(py)?
                    .into_any()
                    .unbind()
            }
        };
        Ok(capsule)
    }

    /// `__dlpack_device__`: (kDLCPU, 0).
    fn __dlpack_device__(&self) -> (u32, i32) {
        (DLDevice::CPU.device_type.0, DLDevice::CPU.device_id)
    }

    /// `numpy.from_dlpack(self)`: a NumPy array over the same memory.
    fn numpy<'py>(slf: Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("numpy")?.call_method1("from_dlpack", (slf,))
    }

    fn __repr__(&self) -> String {
        self.raw.to_string()
    }
}

/// Nested Python lists of `flat` (row-major) in `shape`.
fn nested<'py>(
    py: Python<'py>,
    shape: &[usize],
    flat: &[f64],
    float: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let Some((&n, rest)) = shape.split_first() else {
        return if float {
            flat[0].into_bound_py_any(py)
        } else {
            (flat[0] as i64).into_bound_py_any(py)
        };
    };
    let step: usize = rest.iter().product();
    let items = (0..n)
        .map(|i| nested(py, rest, &flat[i * step..(i + 1) * step], float))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, items)?.into_any())
}

/// The axial dtype of a NumPy dtype (kind and item size), or a `TypeError`
/// naming the supported ones, as `torch.from_numpy` words it.
fn numpy_dtype(kind: u8, itemsize: usize, name: &str) -> PyResult<DType> {
    let dtype = match (kind, itemsize) {
        (b'b', 1) => DType::Bool,
        (b'u', 1) => DType::U8,
        (b'i', 1) => DType::I8,
        (b'i', 2) => DType::I16,
        (b'i', 4) => DType::I32,
        (b'i', 8) => DType::I64,
        (b'f', 2) => DType::F16,
        (b'f', 4) => DType::F32,
        (b'f', 8) => DType::F64,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "can't convert np.ndarray of type numpy.{name}. The only supported types are: float64, float32, float16, int64, int32, int16, int8, uint8, and bool."
            )));
        }
    };
    Ok(dtype)
}

/// `axial.from_numpy(array, copy=False)`: an axial tensor over a NumPy
/// array's memory, without a copy (the array is kept alive by the tensor).
/// Its strides are NumPy's divided by the item size, the storage starts at
/// the first element (as PyTorch's does). Refused unless `copy=True`:
/// negative strides, strides that are not whole elements, non-native byte
/// order, an unaligned array; a read-only array gives a read-only tensor.
#[pyfunction]
#[pyo3(signature = (array, copy=false))]
fn from_numpy<'py>(py: Python<'py>, array: Bound<'py, PyAny>, copy: bool) -> PyResult<PyTensor> {
    let Ok(a) = array.cast::<PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "expected np.ndarray (got {})",
            array.get_type().name()?
        )));
    };
    let descr = a.dtype();
    let name: String = descr.typeobj().name()?.extract()?;
    let dtype = numpy_dtype(descr.kind(), descr.itemsize(), &name)?;
    let size = dtype.size();
    // SAFETY: a live ndarray object, read under the GIL.
    let flags = unsafe { (*a.as_array_ptr()).fields.flags };
    let problem = if a.strides().iter().any(|&s| s < 0) {
        Some("At least one stride in the given numpy array is negative, and tensors with negative strides are not currently supported. (Copy it: axial.from_numpy(array, copy=True).)".to_string())
    } else if a.strides().iter().any(|&s| s % size as isize != 0) {
        Some("given numpy array strides not a multiple of the element byte size. Copy the numpy array to reallocate the memory (axial.from_numpy(array, copy=True)).".to_string())
    } else if descr.is_native_byteorder() == Some(false) {
        Some("given numpy array has byte order different from the native byte order. Conversion between byte orders is currently not supported (axial.from_numpy(array, copy=True) converts).".to_string())
    } else if flags & NPY_ARRAY_ALIGNED == 0 {
        Some("given numpy array is not aligned for its dtype; copy it (axial.from_numpy(array, copy=True))".to_string())
    } else {
        None
    };
    if let Some(problem) = problem {
        if !copy {
            return Err(PyValueError::new_err(problem));
        }
        // NumPy makes the native, aligned, row-major copy; axial takes it.
        let native = descr.call_method1("newbyteorder", ("=",))?;
        let fresh = py
            .import("numpy")?
            .call_method1("ascontiguousarray", (&array, native))?;
        let fresh = if fresh.is(&array) {
            fresh.call_method0("copy")?
        } else {
            fresh
        };
        return from_numpy(py, fresh, false);
    }
    let shape = a.shape().to_vec();
    let strides: Vec<isize> = a.strides().iter().map(|&s| s / size as isize).collect();
    let layout = Layout::from_parts(&shape, &strides, 0);
    // SAFETY: a live ndarray object, read under the GIL.
    let data = unsafe { (*a.as_array_ptr()).fields.data }.cast::<u8>();
    let numel = layout.numel();
    let nbytes = if numel == 0 {
        0
    } else {
        layout.required_len() * size
    };
    let writable = flags & NPY_ARRAY_WRITEABLE != 0;
    let owner = KeepAlive::new(array.clone().unbind());
    // SAFETY: the array object (kept alive by the owner) owns or keeps its
    // buffer: the elements span `nbytes` from `data` (non-negative strides),
    // writable when NumPy says so; Python code and axial take turns under
    // the GIL, and axial borrows the memory only within one call.
    let storage = unsafe {
        Storage::from_owner(
            if numel == 0 {
                std::ptr::null_mut()
            } else {
                data
            },
            nbytes,
            owner,
            writable,
        )
    };
    let raw = RawTensor::from_parts(storage, layout, dtype).map_err(value_error)?;
    Ok(PyTensor { raw })
}

/// `axial.from_dlpack(x)`: an axial tensor over any DLPack producer's
/// memory (a NumPy array, a PyTorch tensor, a capsule), without a copy:
/// strides and byte offset kept, read-only when the producer says so.
#[pyfunction]
#[pyo3(signature = (x, copy=false))]
fn from_dlpack(x: Bound<'_, PyAny>, copy: bool) -> PyResult<PyTensor> {
    let imported = dlpark::python::from_dlpack(x.as_borrowed(), None, None)?;
    if copy {
        let raw = match imported {
            ImportedDlpack::Legacy(m) => axial_io::dlpack::copy_from_dlpack(m),
            ImportedDlpack::Versioned(m) => axial_io::dlpack::copy_from_dlpack(m),
        }
        .map_err(value_error)?;
        return Ok(PyTensor { raw });
    }
    let imported = match imported {
        ImportedDlpack::Legacy(m) => axial_io::dlpack::from_dlpack(m),
        ImportedDlpack::Versioned(m) => axial_io::dlpack::from_dlpack(m),
    }
    .map_err(value_error)?;
    // A read-only import stays read-only: the wrapper refuses writes, and
    // its storage would copy itself before any write that got through.
    Ok(PyTensor {
        raw: imported.into_raw_copy_on_write(),
    })
}

/// `axial.arange(n, dtype="float32")`: 0, 1, …, n − 1.
#[pyfunction]
#[pyo3(signature = (n, dtype="float32"))]
fn arange(n: usize, dtype: &str) -> PyResult<PyTensor> {
    let dtype = match dtype {
        "float32" => DType::F32,
        "float64" => DType::F64,
        "float16" => DType::F16,
        "bfloat16" => DType::BF16,
        "int64" => DType::I64,
        "int32" => DType::I32,
        "int16" => DType::I16,
        "int8" => DType::I8,
        "uint8" => DType::U8,
        other => return Err(PyTypeError::new_err(format!("unknown dtype {other:?}"))),
    };
    let raw = RawTensor::arange(0.0, n as f64, 1.0, dtype).map_err(value_error)?;
    Ok(PyTensor { raw })
}

/// The `axial` module.
#[pymodule]
fn axial(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTensor>()?;
    m.add_function(wrap_pyfunction!(from_numpy, m)?)?;
    m.add_function(wrap_pyfunction!(from_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(arange, m)?)?;
    Ok(())
}
