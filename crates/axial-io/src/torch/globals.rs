//! The globals `torch.load(weights_only=True)` allows
//! (`torch/_weights_only_unpickler.py::_get_allowed_globals`, torch 2.15),
//! with Python 2's module and name renames, and what each one is to the
//! unpickler.

use axial_core::DType;

use crate::{Error, Result};

/// What an allowed global is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Global {
    /// `collections.OrderedDict`.
    OrderedDict,
    /// `collections.Counter`.
    Counter,
    /// `torch.nn.parameter.Parameter`.
    Parameter,
    /// `torch.serialization._get_layout`.
    GetLayout,
    /// `torch.Size`.
    Size,
    /// `torch.Tensor`.
    Tensor,
    /// `torch.device`.
    Device,
    /// `_codecs.encode`.
    Encode,
    /// `builtins.bytearray`.
    ByteArray,
    /// `builtins.set`.
    Set,
    /// `builtins.complex`.
    Complex,
    /// A `torch.<dtype>`.
    DType(TorchDType),
    /// A storage class (`torch.FloatStorage`, `torch.cuda.HalfStorage`,
    /// `torch.storage.UntypedStorage`): the dtype of its elements.
    Storage(TorchDType),
    /// `torch.storage.TypedStorage` (a class with no dtype of its own).
    TypedStorage,
    /// A tensor rebuild function of `torch._utils` (or
    /// `torch._tensor._rebuild_from_type_v2`).
    Rebuild(Rebuild),
    /// Another allowed global (a tensor class, a quantization scheme): a
    /// value only, nothing to call.
    Other(String),
}

/// The tensor rebuild functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rebuild {
    Tensor,
    TensorV2,
    TensorV3,
    Parameter,
    ParameterWithState,
    FromTypeV2,
    QTensor,
    SparseTensor,
    MetaTensorNoStorage,
    WrapperSubclass,
    DeviceTensorFromNumpy,
    DeviceTensorFromCpuTensor,
}

/// A torch dtype: its name, its element size, and axial's dtype when axial
/// has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TorchDType {
    /// torch's name without `torch.` (`float32`).
    pub(crate) name: &'static str,
    /// Bytes per element.
    pub(crate) size: usize,
    /// axial's dtype, if it has this one.
    pub(crate) dtype: Option<DType>,
}

const fn td(name: &'static str, size: usize, dtype: Option<DType>) -> TorchDType {
    TorchDType { name, size, dtype }
}

/// torch's dtypes that `weights_only` allows, with sizes.
const DTYPES: &[TorchDType] = &[
    td("float32", 4, Some(DType::F32)),
    td("float64", 8, Some(DType::F64)),
    td("float16", 2, Some(DType::F16)),
    td("bfloat16", 2, Some(DType::BF16)),
    td("int64", 8, Some(DType::I64)),
    td("int32", 4, Some(DType::I32)),
    td("int16", 2, Some(DType::I16)),
    td("int8", 1, Some(DType::I8)),
    td("uint8", 1, Some(DType::U8)),
    td("bool", 1, Some(DType::Bool)),
    td("complex32", 4, None),
    td("complex64", 8, Some(DType::C64)),
    td("complex128", 16, Some(DType::C128)),
    td("uint16", 2, Some(DType::U16)),
    td("uint32", 4, Some(DType::U32)),
    td("uint64", 8, Some(DType::U64)),
    td("float8_e4m3fn", 1, Some(DType::F8E4M3Fn)),
    td("float8_e4m3fnuz", 1, Some(DType::F8E4M3FnUz)),
    td("float8_e5m2", 1, Some(DType::F8E5M2)),
    td("float8_e5m2fnuz", 1, Some(DType::F8E5M2FnUz)),
    td("float8_e8m0fnu", 1, None),
    td("float4_e2m1fn_x2", 1, None),
    td("qint8", 1, None),
    td("quint8", 1, None),
    td("qint32", 4, None),
    td("quint4x2", 1, None),
    td("quint2x4", 1, None),
    td("bcomplex32", 4, None),
    td("bits1x8", 1, None),
    td("bits2x4", 1, None),
    td("bits4x2", 1, None),
    td("bits8", 1, None),
    td("bits16", 2, None),
    td("uint1", 1, None),
    td("uint2", 1, None),
    td("uint3", 1, None),
    td("uint4", 1, None),
    td("uint5", 1, None),
    td("uint6", 1, None),
    td("uint7", 1, None),
    td("int1", 1, None),
    td("int2", 1, None),
    td("int3", 1, None),
    td("int4", 1, None),
    td("int5", 1, None),
    td("int6", 1, None),
    td("int7", 1, None),
];

/// The legacy storage classes and the dtype of their elements.
const STORAGES: &[(&str, &str)] = &[
    ("FloatStorage", "float32"),
    ("DoubleStorage", "float64"),
    ("HalfStorage", "float16"),
    ("BFloat16Storage", "bfloat16"),
    ("LongStorage", "int64"),
    ("IntStorage", "int32"),
    ("ShortStorage", "int16"),
    ("CharStorage", "int8"),
    ("ByteStorage", "uint8"),
    ("BoolStorage", "bool"),
    ("ComplexFloatStorage", "complex64"),
    ("ComplexDoubleStorage", "complex128"),
    ("QInt8Storage", "qint8"),
    ("QUInt8Storage", "quint8"),
    ("QInt32Storage", "qint32"),
    ("QUInt4x2Storage", "quint4x2"),
    ("QUInt2x4Storage", "quint2x4"),
];

/// The tensor classes (`torch.FloatTensor`...), allowed as values.
const TENSOR_CLASSES: &[&str] = &[
    "BFloat16Tensor",
    "BoolTensor",
    "ByteTensor",
    "CharTensor",
    "DoubleTensor",
    "FloatTensor",
    "HalfTensor",
    "IntTensor",
    "LongTensor",
    "ShortTensor",
];

/// The modules whose globals are refused even when allow-listed.
const BLOCKED: &[&str] = &["sys", "os", "posix", "nt"];

/// A global's module and name.
type Path2 = (&'static str, &'static str);

/// Python 2 names that the unpickler renames (`torch._utils.NAME_MAPPING`).
const NAME_MAPPING: &[(Path2, Path2)] = &[
    (("__builtin__", "xrange"), ("builtins", "range")),
    (("__builtin__", "reduce"), ("functools", "reduce")),
    (("__builtin__", "intern"), ("sys", "intern")),
    (("__builtin__", "unichr"), ("builtins", "chr")),
    (("__builtin__", "unicode"), ("builtins", "str")),
    (("__builtin__", "long"), ("builtins", "int")),
    (("itertools", "izip"), ("builtins", "zip")),
    (("itertools", "imap"), ("builtins", "map")),
    (("itertools", "ifilter"), ("builtins", "filter")),
    (("itertools", "ifilterfalse"), ("itertools", "filterfalse")),
    (("itertools", "izip_longest"), ("itertools", "zip_longest")),
    (
        ("UserDict", "IterableUserDict"),
        ("collections", "UserDict"),
    ),
    (("UserList", "UserList"), ("collections", "UserList")),
    (("UserString", "UserString"), ("collections", "UserString")),
    (("__builtin__", "basestring"), ("builtins", "str")),
    (("exceptions", "StandardError"), ("builtins", "Exception")),
    (("UserDict", "UserDict"), ("collections", "UserDict")),
];

/// Python 2 modules that the unpickler renames (`torch._utils.IMPORT_MAPPING`).
const IMPORT_MAPPING: &[(&str, &str)] = &[
    ("__builtin__", "builtins"),
    ("copy_reg", "copyreg"),
    ("Queue", "queue"),
    ("repr", "reprlib"),
    ("_abcoll", "collections.abc"),
    ("UserDict", "collections"),
    ("UserList", "collections"),
    ("UserString", "collections"),
    ("whichdb", "dbm"),
    ("StringIO", "io"),
    ("cStringIO", "io"),
];

/// The torch dtype named `name` (without `torch.`).
pub(crate) fn dtype_named(name: &str) -> Option<TorchDType> {
    DTYPES.iter().copied().find(|d| d.name == name)
}

/// The torch dtype of an axial dtype.
pub(crate) fn torch_dtype(dtype: DType) -> TorchDType {
    DTYPES
        .iter()
        .copied()
        .find(|d| d.dtype == Some(dtype))
        .unwrap_or(DTYPES[0])
}

/// The legacy storage class of an axial dtype (`FloatStorage`), if it has
/// one (uint16, uint32, uint64 and the float8s have none).
pub(crate) fn legacy_storage_class(dtype: DType) -> Option<&'static str> {
    let name = torch_dtype(dtype).name;
    STORAGES
        .iter()
        .find(|(_, d)| *d == name)
        .map(|(class, _)| *class)
}

/// `(module, name)` after Python 2's renames.
fn renamed<'a>(module: &'a str, name: &'a str) -> (&'a str, &'a str) {
    if let Some((_, to)) = NAME_MAPPING
        .iter()
        .find(|(from, _)| *from == (module, name))
    {
        return *to;
    }
    match IMPORT_MAPPING.iter().find(|(from, _)| *from == module) {
        Some((_, to)) => (to, name),
        None => (module, name),
    }
}

/// The global `module.name` as `weights_only` resolves it: allowed (and
/// what it is), or refused with torch's reason.
pub(crate) fn resolve(module: &str, name: &str) -> Result<Global> {
    let (module, name) = renamed(module, name);
    let full = format!("{module}.{name}");
    if BLOCKED.contains(&module) {
        return Err(Error::Unpickling {
            message: format!(
                "Trying to load unsupported GLOBAL {full} whose module {module} is blocked."
            ),
        });
    }
    if let Some(global) = allowed(module, name) {
        return Ok(global);
    }
    if full.starts_with("torch.distributed.") && DTENSOR.contains(&full.as_str()) {
        return Err(Error::Unpickling {
            message: "``torch.distributed.tensor`` must be imported to load DTensors".into(),
        });
    }
    // torch prints builtins without their module (`GLOBAL print`).
    let global = match full.strip_prefix("builtins.") {
        Some(rest) => rest.to_string(),
        None => full,
    };
    Err(Error::UnsupportedGlobal { global })
}

const DTENSOR: &[&str] = &[
    "torch.distributed.device_mesh.DeviceMesh",
    "torch.distributed.tensor._dtensor_spec.DTensorSpec",
    "torch.distributed.tensor._dtensor_spec.TensorMeta",
    "torch.distributed.tensor.DTensor",
    "torch.distributed.tensor.placement_types.Partial",
    "torch.distributed.tensor.placement_types.Replicate",
    "torch.distributed.tensor.placement_types.Shard",
];

fn allowed(module: &str, name: &str) -> Option<Global> {
    let storage = |class: &str| {
        STORAGES
            .iter()
            .find(|(c, _)| *c == class)
            .and_then(|(_, d)| dtype_named(d))
            .map(Global::Storage)
    };
    let other = || Some(Global::Other(format!("{module}.{name}")));
    match (module, name) {
        ("collections", "OrderedDict") => Some(Global::OrderedDict),
        ("collections", "Counter") => Some(Global::Counter),
        ("torch.nn.parameter", "Parameter") => Some(Global::Parameter),
        ("torch.serialization", "_get_layout") => Some(Global::GetLayout),
        ("torch", "Size") => Some(Global::Size),
        ("torch", "Tensor") => Some(Global::Tensor),
        ("torch", "device") => Some(Global::Device),
        ("_codecs", "encode") => Some(Global::Encode),
        ("builtins", "bytearray") => Some(Global::ByteArray),
        ("builtins", "set") => Some(Global::Set),
        ("builtins", "complex") => Some(Global::Complex),
        ("torch.storage", "TypedStorage") => Some(Global::TypedStorage),
        ("torch.storage", "UntypedStorage") => dtype_named("uint8").map(Global::Storage),
        ("torch._tensor", "_rebuild_from_type_v2") => Some(Global::Rebuild(Rebuild::FromTypeV2)),
        ("torch._utils", f) => rebuild(f).map(Global::Rebuild),
        ("torch", "per_tensor_affine")
        | ("torch", "per_tensor_symmetric")
        | ("torch", "per_channel_affine")
        | ("torch", "per_channel_symmetric")
        | ("torch", "per_channel_affine_float_qparams") => other(),
        ("torch", n) if n.ends_with("Storage") => storage(n),
        ("torch.cuda", n) if n.ends_with("Storage") && !n.starts_with('Q') => storage(n),
        ("torch" | "torch.cuda", n) if TENSOR_CLASSES.contains(&n) => other(),
        ("torch.sparse" | "torch.cuda.sparse", n)
            if TENSOR_CLASSES.contains(&n) && n != "BoolTensor" =>
        {
            other()
        }
        ("torch", n) => dtype_named(n).map(Global::DType),
        _ => None,
    }
}

fn rebuild(name: &str) -> Option<Rebuild> {
    Some(match name {
        "_rebuild_tensor" => Rebuild::Tensor,
        "_rebuild_tensor_v2" => Rebuild::TensorV2,
        "_rebuild_tensor_v3" => Rebuild::TensorV3,
        "_rebuild_parameter" => Rebuild::Parameter,
        "_rebuild_parameter_with_state" => Rebuild::ParameterWithState,
        "_rebuild_qtensor" => Rebuild::QTensor,
        "_rebuild_sparse_tensor" => Rebuild::SparseTensor,
        "_rebuild_meta_tensor_no_storage" => Rebuild::MetaTensorNoStorage,
        "_rebuild_wrapper_subclass" => Rebuild::WrapperSubclass,
        "_rebuild_device_tensor_from_numpy" => Rebuild::DeviceTensorFromNumpy,
        "_rebuild_device_tensor_from_cpu_tensor" => Rebuild::DeviceTensorFromCpuTensor,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allow_list_is_torchs() {
        assert_eq!(
            resolve("collections", "OrderedDict").unwrap(),
            Global::OrderedDict
        );
        assert_eq!(resolve("__builtin__", "set").unwrap(), Global::Set);
        assert!(matches!(resolve("torch", "float16").unwrap(), Global::DType(d) if d.size == 2));
        assert!(
            matches!(resolve("torch.cuda", "HalfStorage").unwrap(), Global::Storage(d) if d.name == "float16")
        );
        assert!(matches!(
            resolve("torch", "QInt8Storage").unwrap(),
            Global::Storage(_)
        ));
        assert!(resolve("torch.cuda", "QInt8Storage").is_err());
        assert!(matches!(
            resolve("torch.sparse", "FloatTensor").unwrap(),
            Global::Other(_)
        ));
        let e = resolve("posix", "system").unwrap_err().to_string();
        assert!(
            e.ends_with(
                "Trying to load unsupported GLOBAL posix.system whose module posix is blocked."
            ),
            "{e}"
        );
        let e = resolve("__main__", "TrainingConfig").unwrap_err();
        assert!(
            matches!(&e, Error::UnsupportedGlobal { global } if global == "__main__.TrainingConfig")
        );
        let e = resolve("__builtin__", "eval").unwrap_err();
        assert!(matches!(&e, Error::UnsupportedGlobal { global } if global == "eval"));
        assert!(resolve("torch.nn.modules.linear", "Linear").is_err());
        assert!(resolve("torch", "load").is_err());
        assert!(resolve("__builtin__", "intern").is_err()); // sys.intern: blocked
    }

    #[test]
    fn every_axial_dtype_has_its_storage_class_or_its_dtype_global() {
        for d in DType::EVERY {
            match legacy_storage_class(d) {
                Some(class) => assert!(
                    matches!(resolve("torch", class).unwrap(), Global::Storage(t) if t.dtype == Some(d))
                ),
                None => assert!(
                    matches!(resolve("torch", d.name()).unwrap(), Global::DType(t) if t.dtype == Some(d)),
                    "{d}"
                ),
            }
        }
    }
}
