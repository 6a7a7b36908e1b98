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

/// axial's dtype for an HDF5 datatype, or why there is none.
pub(crate) fn dtype_of(dtype: &Datatype) -> Result<DType, String> {
    Ok(match dtype {
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
        Datatype::FloatingPoint { size: 2, .. } => DType::F16,
        Datatype::FloatingPoint { size: 4, .. } => DType::F32,
        Datatype::FloatingPoint { size: 8, .. } => DType::F64,
        Datatype::Enum { base, members } if is_bool(base, members) => DType::Bool,
        Datatype::Enum { base, .. } => dtype_of(base)?,
        other => return Err(format!("the datatype {other:?} has no axial dtype")),
    })
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
/// h5py's enum), or why there is none.
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
        DType::F16 | DType::BF16 => {
            return Err(format!(
                "writing {dtype} datasets is not supported: cast to float32 first"
            ));
        }
    })
}
