//! HDF5 datatypes as axial's dtypes, and elements read as raw bytes of
//! their size (so one read path serves every dtype, f16 and h5py's bool
//! enum included), in the machine's byte order.

use axial_core::DType;
use hdf5_reader::error::Error as H5Error;
use hdf5_reader::{ByteOrder, Datatype, H5Type};

/// One element as its `N` bytes, little-endian.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub(crate) struct Raw<const N: usize>(pub(crate) [u8; N]);

// SAFETY: a transparent wrapper of `[u8; N]`: no padding, every bit
// pattern valid, alignment 1.
unsafe impl<const N: usize> bytemuck::Zeroable for Raw<N> {}
// SAFETY: as above.
unsafe impl<const N: usize> bytemuck::Pod for Raw<N> {}

/// The byte order of a numeric datatype (an enum's is its base's).
fn order(dtype: &Datatype) -> Option<ByteOrder> {
    match dtype {
        Datatype::FixedPoint { byte_order, .. } | Datatype::FloatingPoint { byte_order, .. } => {
            Some(*byte_order)
        }
        Datatype::Enum { base, .. } => order(base),
        _ => None,
    }
}

fn size_of(dtype: &Datatype) -> Option<usize> {
    match dtype {
        Datatype::FixedPoint { size, .. } | Datatype::FloatingPoint { size, .. } => {
            Some(usize::from(*size))
        }
        Datatype::Enum { base, .. } => size_of(base),
        // h5py's complex numbers, read whole (their parts little-endian).
        Datatype::Compound { size, .. } if complex_of(dtype).is_some() => {
            usize::try_from(*size).ok()
        }
        _ => None,
    }
}

impl<const N: usize> H5Type for Raw<N> {
    fn hdf5_type() -> Datatype {
        Datatype::FixedPoint {
            size: N as u8,
            signed: false,
            byte_order: ByteOrder::LittleEndian,
        }
    }

    fn from_bytes(bytes: &[u8], dtype: &Datatype) -> hdf5_reader::error::Result<Self> {
        let mut out = [0u8; N];
        let src = bytes
            .get(..N)
            .filter(|_| size_of(dtype) == Some(N))
            .ok_or_else(|| {
                H5Error::InvalidData(format!("an element of {dtype:?} is not {N} bytes"))
            })?;
        out.copy_from_slice(src);
        if order(dtype) == Some(ByteOrder::BigEndian) {
            out.reverse();
        }
        Ok(Raw(out))
    }

    fn element_size(_dtype: &Datatype) -> usize {
        N
    }

    fn decode_vec(
        raw: &[u8],
        dtype: &Datatype,
        count: usize,
    ) -> Option<hdf5_reader::error::Result<Vec<Self>>> {
        if size_of(dtype) != Some(N) {
            return None;
        }
        let bytes = raw.get(..count.checked_mul(N)?)?;
        let swap = order(dtype) == Some(ByteOrder::BigEndian);
        Some(Ok(bytes
            .chunks_exact(N)
            .map(|c| {
                let mut e = [0u8; N];
                e.copy_from_slice(c);
                if swap {
                    e.reverse();
                }
                Raw(e)
            })
            .collect()))
    }

    fn native_copy_compatible(dtype: &Datatype) -> bool {
        size_of(dtype) == Some(N)
            && order(dtype) == Some(ByteOrder::LittleEndian)
            && cfg!(target_endian = "little")
    }
}

/// axial's dtype for an HDF5 datatype, if it has one.
pub(crate) fn dtype_of(dtype: &Datatype) -> Option<DType> {
    Some(match dtype {
        Datatype::FixedPoint {
            size: 1,
            signed: true,
            ..
        } => DType::I8,
        Datatype::FixedPoint {
            size: 1,
            signed: false,
            ..
        } => DType::U8,
        Datatype::FixedPoint {
            size: 2,
            signed: true,
            ..
        } => DType::I16,
        Datatype::FixedPoint {
            size: 4,
            signed: true,
            ..
        } => DType::I32,
        Datatype::FixedPoint {
            size: 8,
            signed: true,
            ..
        } => DType::I64,
        Datatype::FixedPoint {
            size: 2,
            signed: false,
            ..
        } => DType::U16,
        Datatype::FixedPoint {
            size: 4,
            signed: false,
            ..
        } => DType::U32,
        Datatype::FixedPoint {
            size: 8,
            signed: false,
            ..
        } => DType::U64,
        Datatype::Compound { .. } => complex_of(dtype)?,
        Datatype::FloatingPoint { size: 2, .. } => DType::F16,
        Datatype::FloatingPoint { size: 4, .. } => DType::F32,
        Datatype::FloatingPoint { size: 8, .. } => DType::F64,
        Datatype::Enum { base, members } if is_bool(base, members) => DType::Bool,
        Datatype::Enum { base, .. } => dtype_of(base)?,
        _ => return None,
    })
}

/// h5py's complex numbers: a compound of two little-endian floats of one
/// size named `r` and `i`, the real part first with no padding.
fn complex_of(dtype: &Datatype) -> Option<DType> {
    let Datatype::Compound { size, fields } = dtype else {
        return None;
    };
    let part = |name: &str, offset: u32| {
        fields
            .iter()
            .find(|f| f.name == name)
            .and_then(|f| match f.datatype {
                Datatype::FloatingPoint {
                    size: s,
                    byte_order: ByteOrder::LittleEndian,
                } if f.byte_offset as u64 == u64::from(offset) => Some(s),
                _ => None,
            })
    };
    let half = size / 2;
    match (fields.len(), part("r", 0), part("i", half)) {
        (2, Some(4), Some(4)) if *size == 8 => Some(DType::C64),
        (2, Some(8), Some(8)) if *size == 16 => Some(DType::C128),
        _ => None,
    }
}

/// The name numpy (through h5py) gives an HDF5 datatype: `uint16`,
/// `complex64` (h5py's compound of two floats), `bytes80` (a fixed-size
/// string); HDF5's class for what numpy has no dtype for.
pub(crate) fn dtype_name(dtype: &Datatype) -> String {
    match dtype {
        Datatype::FixedPoint { size, signed, .. } => {
            format!(
                "{}int{}",
                if *signed { "" } else { "u" },
                8 * u32::from(*size)
            )
        }
        Datatype::FloatingPoint { size, .. } => format!("float{}", 8 * u32::from(*size)),
        Datatype::Compound { size, fields }
            if fields.len() == 2
                && fields
                    .iter()
                    .all(|f| matches!(f.datatype, Datatype::FloatingPoint { .. })) =>
        {
            format!("complex{}", 8 * size)
        }
        Datatype::Compound { .. } => "compound".into(),
        Datatype::String {
            size: hdf5_reader::StringSize::Fixed(n),
            ..
        } => format!("bytes{}", 8 * u64::from(*n)),
        Datatype::String { .. } => "string".into(),
        Datatype::VarLen {
            kind: hdf5_reader::VarLenKind::String,
            ..
        } => "string".into(),
        Datatype::VarLen { base, .. } => {
            format!("variable-length sequence of {}", dtype_name(base))
        }
        Datatype::Array { base, dims } => format!("{} of shape {dims:?}", dtype_name(base)),
        Datatype::Enum { base, .. } => format!("enum of {}", dtype_name(base)),
        Datatype::Opaque { size, .. } => format!("void{}", 8 * u64::from(*size)),
        Datatype::Reference { .. } => "reference".into(),
        Datatype::Bitfield { size, .. } => format!("bitfield{}", 8 * u32::from(*size)),
    }
}

/// h5py's bool: an enum over a one-byte int with `FALSE` = 0 and `TRUE` = 1.
fn is_bool(base: &Datatype, members: &[hdf5_reader::EnumMember]) -> bool {
    let value = |name: &str| {
        members
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.value.as_slice())
    };
    matches!(base, Datatype::FixedPoint { size: 1, .. })
        && members.len() == 2
        && value("FALSE") == Some(&[0])
        && value("TRUE") == Some(&[1])
}

/// The HDF5 datatype axial writes for a dtype (little-endian; bool as
/// h5py's enum, complex numbers as h5py's `{r, i}` compound), or why there
/// is none.
pub(crate) fn datatype_for(dtype: DType) -> Result<Datatype, String> {
    let int = |size: u8, signed: bool| Datatype::FixedPoint {
        size,
        signed,
        byte_order: ByteOrder::LittleEndian,
    };
    let float = |size: u8| Datatype::FloatingPoint {
        size,
        byte_order: ByteOrder::LittleEndian,
    };
    Ok(match dtype {
        DType::Bool => Datatype::Enum {
            base: Box::new(int(1, true)),
            members: vec![
                hdf5_reader::EnumMember {
                    name: "FALSE".into(),
                    value: vec![0],
                },
                hdf5_reader::EnumMember {
                    name: "TRUE".into(),
                    value: vec![1],
                },
            ],
        },
        DType::U8 => int(1, false),
        DType::I8 => int(1, true),
        DType::I16 => int(2, true),
        DType::I32 => int(4, true),
        DType::I64 => int(8, true),
        DType::F32 => float(4),
        DType::F64 => float(8),
        DType::U16 => int(2, false),
        DType::U32 => int(4, false),
        DType::U64 => int(8, false),
        DType::C64 | DType::C128 => {
            // h5py's complex numbers: `{r, i}`, the real part first.
            let part = (dtype.size() / 2) as u8;
            let field = |name: &str, at: u8| hdf5_reader::CompoundField {
                name: name.into(),
                byte_offset: u32::from(at),
                datatype: float(part),
            };
            Datatype::Compound {
                size: u32::from(2 * part),
                fields: vec![field("r", 0), field("i", part)],
            }
        }
        DType::F16
        | DType::BF16
        | DType::F8E4M3Fn
        | DType::F8E5M2
        | DType::F8E4M3FnUz
        | DType::F8E5M2FnUz => {
            return Err(format!(
                "writing {dtype} datasets is not supported: cast to float32 first"
            ));
        }
    })
}
