//! Kernel arguments as the PTX reads them (`Walk<N>`, `Scalars`,
//! `Reduction`, `Tiles` of `kernels/common.cuh`), built from the
//! device-independent plans, and the launch itself.

use std::ffi::c_void;

use crate::sys as cu;
use axial_core::plan::{Dims, Plan};
use axial_core::{DType, Result, Scalar, with_dtype};

use crate::driver::{State, check, device_error};

/// Dims a kernel's walk holds (`MAX_DIMS`); a plan with more is cut on the
/// host into walks of this many.
pub(crate) const MAX_DIMS: usize = 8;
/// Threads per block of the elementwise kernels.
pub(crate) const THREADS: u32 = 256;

/// `Walk<N>` of `common.cuh`: the coalesced shape (innermost last) and each
/// operand's strides, in elements.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub(crate) struct Walk<const N: usize> {
    pub(crate) numel: u64,
    pub(crate) sizes: [u64; MAX_DIMS],
    pub(crate) strides: [[i64; MAX_DIMS]; N],
    pub(crate) ndim: i32,
    pub(crate) contiguous: i32,
}

impl<const N: usize> Walk<N> {
    /// The walk over `sizes` (at most [`MAX_DIMS`]) with `strides[k]` for
    /// operand k.
    pub(crate) fn new(sizes: &[usize], strides: [&[isize]; N]) -> Self {
        debug_assert!(sizes.len() <= MAX_DIMS);
        let mut w = Walk {
            numel: sizes.iter().product::<usize>() as u64,
            sizes: [0; MAX_DIMS],
            strides: [[0; MAX_DIMS]; N],
            ndim: sizes.len() as i32,
            contiguous: 0,
        };
        for (d, &n) in sizes.iter().enumerate() {
            w.sizes[d] = n as u64;
            for (row, st) in w.strides.iter_mut().zip(&strides) {
                row[d] = st[d] as i64;
            }
        }
        let unit = sizes.len() == 1 && (0..N).all(|k| strides[k][0] == 1);
        w.contiguous = (sizes.is_empty() || unit) as i32;
        w
    }

    /// The walk of `dims`, each operand's strides from them.
    pub(crate) fn of_dims(dims: &Dims<N>) -> Result<Self> {
        if dims.sizes.len() > MAX_DIMS {
            return Err(too_many_dims(dims.sizes.len()));
        }
        Ok(Self::new(
            &dims.sizes,
            std::array::from_fn(|k| &dims.strides[k][..]),
        ))
    }
}

pub(crate) fn too_many_dims(n: usize) -> axial_core::Error {
    device_error(
        "cuda kernel",
        format!("{n} dims remain after coalescing; the CUDA kernels take at most {MAX_DIMS}"),
    )
}

/// Calls `f(walk, offsets)` for pieces of `plan` of at most [`MAX_DIMS`]
/// dims: the whole plan when it has that few, else one piece per index of
/// its outer dims, `offsets` the operands' element offsets there.
pub(crate) fn for_pieces<const N: usize>(
    plan: &Plan<N>,
    mut f: impl FnMut(Walk<N>, [i64; N]) -> Result<()>,
) -> Result<()> {
    let shape = plan.shape();
    let base: [i64; N] = plan.offsets().map(|o| o as i64);
    if shape.len() <= MAX_DIMS {
        let strides: [&[isize]; N] = std::array::from_fn(|k| plan.strides(k));
        return f(Walk::new(shape, strides), base);
    }
    let outer = shape.len() - MAX_DIMS;
    let inner_strides: [&[isize]; N] = std::array::from_fn(|k| &plan.strides(k)[outer..]);
    let walk = Walk::new(&shape[outer..], inner_strides);
    let mut index = vec![0usize; outer];
    loop {
        let offsets = std::array::from_fn(|k| {
            base[k]
                + index
                    .iter()
                    .enumerate()
                    .map(|(d, &i)| i as i64 * plan.strides(k)[d] as i64)
                    .sum::<i64>()
        });
        f(walk, offsets)?;
        let mut d = outer;
        loop {
            if d == 0 {
                return Ok(());
            }
            d -= 1;
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
}

/// `Scalars` of `common.cuh`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Scalars {
    pub(crate) bits: u64,
    pub(crate) f: [f64; 2],
    pub(crate) i: [i64; 2],
    pub(crate) flags: u32,
    pub(crate) pad: u32,
}

/// The bits of `s` converted to `dtype`, as a kernel reads a scalar.
pub(crate) fn scalar_bits(s: Scalar, dtype: DType) -> u64 {
    with_dtype!(dtype, T => {
        let v: T = s.to::<T>();
        let mut bits = [0u8; 8];
        let bytes = bytemuck::bytes_of(&v);
        bits[..bytes.len()].copy_from_slice(bytes);
        u64::from_le_bytes(bits)
    })
}

/// How PTX declares a kernel parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParamType {
    /// `.u64` (`.b64`, `.s64`): a device address or a 64-bit integer.
    B64,
    /// `.u32` (`.b32`, `.s32`).
    B32,
    /// `.param .align A .b8 p[N]`: a struct of `N` bytes passed by value.
    Bytes { size: usize, align: usize },
}

impl std::fmt::Display for ParamType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamType::B64 => f.write_str(".u64"),
            ParamType::B32 => f.write_str(".u32"),
            ParamType::Bytes { size, align } => write!(f, ".align {align} .b8[{size}]"),
        }
    }
}

/// A value a kernel takes as a parameter, and how PTX declares it.
pub(crate) trait KernelParam: Copy {
    /// The parameter's PTX type.
    const PARAM: ParamType;
}

impl KernelParam for u64 {
    const PARAM: ParamType = ParamType::B64;
}
impl KernelParam for i64 {
    const PARAM: ParamType = ParamType::B64;
}
impl KernelParam for u32 {
    const PARAM: ParamType = ParamType::B32;
}

/// Implements [`KernelParam`] for a `#[repr(C)]` struct passed by value.
macro_rules! by_value {
    ($($t:ty),*) => {$(
        impl crate::launch::KernelParam for $t {
            const PARAM: crate::launch::ParamType = crate::launch::ParamType::Bytes {
                size: size_of::<$t>(),
                align: align_of::<$t>(),
            };
        }
    )*};
}
pub(crate) use by_value;

impl<const N: usize> KernelParam for Walk<N> {
    const PARAM: ParamType = ParamType::Bytes {
        size: size_of::<Walk<N>>(),
        align: align_of::<Walk<N>>(),
    };
}
by_value!(Scalars);

/// A kernel argument: its value's address, as `cuLaunchKernel` takes it,
/// and its PTX type.
#[derive(Copy, Clone, Debug)]
pub(crate) struct KernelArg {
    ptr: *mut c_void,
    pub(crate) ty: ParamType,
}

/// The argument `v`.
pub(crate) fn arg<T: KernelParam>(v: &T) -> KernelArg {
    KernelArg {
        ptr: (v as *const T).cast_mut().cast(),
        ty: T::PARAM,
    }
}

/// sm_80's limits on a launch.
pub(crate) mod limits {
    /// Threads of a block.
    pub(crate) const THREADS: u64 = 1024;
    /// A block's z extent.
    pub(crate) const BLOCK_Z: u32 = 64;
    /// The grid's x extent (exclusive) and its y and z extents.
    pub(crate) const GRID_X: u64 = 1 << 31;
    pub(crate) const GRID_YZ: u32 = 65_535;
    /// Shared memory of a block (static and dynamic) without opting in.
    pub(crate) const SHARED: u64 = 48 * 1024;
}

/// Refuses a launch outside sm_80's limits: a bug of the launching code.
pub(crate) fn check_limits(
    name: &str,
    grid: (u32, u32, u32),
    block: (u32, u32, u32),
    shared: u64,
) -> Result<()> {
    let threads = block.0 as u64 * block.1 as u64 * block.2 as u64;
    let ok = (1..=limits::THREADS).contains(&threads)
        && block.2 <= limits::BLOCK_Z
        && grid.0 >= 1
        && (grid.0 as u64) < limits::GRID_X
        && (1..=limits::GRID_YZ).contains(&grid.1)
        && (1..=limits::GRID_YZ).contains(&grid.2)
        && shared <= limits::SHARED;
    if ok {
        return Ok(());
    }
    Err(device_error(
        "cuda launch",
        format!(
            "kernel `{name}` launched with grid {grid:?}, block {block:?} and {shared} bytes of shared memory, outside sm_80's limits"
        ),
    ))
}

/// Refuses arguments that are not the kernel's parameters, in order and type.
pub(crate) fn check_params(name: &str, params: &[ParamType], args: &[KernelArg]) -> Result<()> {
    if params.len() == args.len() && params.iter().zip(args).all(|(p, a)| *p == a.ty) {
        return Ok(());
    }
    let list = |t: &mut dyn Iterator<Item = ParamType>| {
        t.map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
    };
    Err(device_error(
        "cuda launch",
        format!(
            "kernel `{name}` takes ({}) but the launch passes ({})",
            list(&mut params.iter().copied()),
            list(&mut args.iter().map(|a| a.ty))
        ),
    ))
}

/// Blocks for a grid-stride walk over `n` elements.
pub(crate) fn blocks_for(s: &State, n: u64) -> u32 {
    let wanted = n.div_ceil(THREADS as u64);
    wanted.clamp(1, s.sms as u64 * 32) as u32
}

/// Launches kernel `name` of `module` on the compute stream, after checking
/// the arguments against the kernel's PTX parameters and the launch against
/// sm_80's limits (an `Err` names what differs).
///
/// # Safety
/// Every address the arguments hold is valid for what the kernel reads and
/// writes over the launch (the stream runs it in order with what came
/// before).
pub(crate) unsafe fn launch(
    s: &State,
    module: &'static str,
    name: &str,
    grid: (u32, u32, u32),
    block: (u32, u32, u32),
    shared: u32,
    args: &[KernelArg],
) -> Result<()> {
    let f = s.function(module, name)?;
    check_params(name, &f.params, args)?;
    check_limits(name, grid, block, f.static_shared as u64 + shared as u64)?;
    let mut ptrs: Vec<*mut c_void> = args.iter().map(|a| a.ptr).collect();
    // SAFETY: one pointer per parameter, each to a value of the parameter's
    // PTX type and size (checked above); the caller's contract for the
    // addresses; `f` is a kernel of a loaded module.
    check("cuda launch", unsafe {
        cu::cuLaunchKernel(
            f.raw,
            grid.0,
            grid.1,
            grid.2,
            block.0,
            block.1,
            block.2,
            shared,
            s.stream.0,
            ptrs.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    })
}

/// The element size's name in the kernels that move bits (`b4`): 1, 2, 4
/// or 8 bytes. A complex128's 16 bytes have no such kernel (moved as 8,
/// each element would be half copied): `op` is refused for it, as for
/// every dtype without CUDA kernels, instead of giving wrong values.
pub(crate) fn size_name(op: &'static str, dtype: DType) -> Result<&'static str> {
    match dtype.size() {
        1 => Ok("b1"),
        2 => Ok("b2"),
        4 => Ok("b4"),
        8 => Ok("b8"),
        _ => Err(axial_core::Error::Unsupported { op, dtype }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axial_core::Layout;

    #[test]
    fn elements_of_16_bytes_are_refused_not_half_moved() {
        assert_eq!(size_name("copy_", DType::F64).unwrap(), "b8");
        assert_eq!(size_name("copy_", DType::C64).unwrap(), "b8");
        assert_eq!(
            size_name("copy_", DType::C128).unwrap_err().to_string(),
            "\"copy_\" not implemented for 'ComplexDouble'"
        );
    }

    #[test]
    fn walks_have_the_layout_of_common_cuh() {
        assert_eq!(size_of::<Walk<1>>(), 8 + 64 + 64 + 8);
        assert_eq!(size_of::<Walk<4>>(), 8 + 64 + 4 * 64 + 8);
        assert_eq!(size_of::<Scalars>(), 48);
    }

    #[test]
    fn a_contiguous_walk_needs_no_index_math() {
        let l = Layout::contiguous(&[4, 5]);
        let plan = Plan::new([&l, &l]);
        let mut walks = vec![];
        for_pieces(&plan, |w, o| {
            walks.push((w, o));
            Ok(())
        })
        .unwrap();
        assert_eq!(walks.len(), 1);
        assert_eq!((walks[0].0.contiguous, walks[0].0.numel), (1, 20));
    }

    #[test]
    fn deep_plans_are_cut_into_walks_of_eight_dims() {
        // Ten dims of size 2, each stride four times the next: nothing coalesces.
        let strides: Vec<isize> = (0..10).rev().map(|d| 4isize.pow(d)).collect();
        let l = Layout::from_parts(&[2; 10], &strides, 0);
        let plan = Plan::new([&l]);
        assert_eq!(plan.shape().len(), 10);
        let mut starts = vec![];
        for_pieces(&plan, |w, [o]| {
            assert_eq!(w.ndim, 8);
            starts.push(o);
            Ok(())
        })
        .unwrap();
        assert_eq!(
            starts,
            [
                0,
                plan.strides(0)[1] as i64,
                plan.strides(0)[0] as i64,
                (plan.strides(0)[0] + plan.strides(0)[1]) as i64
            ]
        );
    }

    #[test]
    fn scalars_take_the_dtype_of_their_tensor() {
        assert_eq!(
            scalar_bits(Scalar::Float(1.5), DType::F32),
            1.5f32.to_bits() as u64
        );
        assert_eq!(scalar_bits(Scalar::Int(-1), DType::I16), 0xffff);
        assert_eq!(scalar_bits(Scalar::Bool(true), DType::Bool), 1);
    }
}
