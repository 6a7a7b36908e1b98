//! Typed launches, checked without a GPU: every kernel of the committed PTX
//! takes, in order and type, the parameters its launch passes (each launch
//! also checks its arguments against the PTX when it runs, [`launch`]), and
//! every launch stays within sm_80's limits of threads and shared memory.
//!
//! [`launch`]: crate::launch::launch

use crate::cnn::{AffineShape, ConvShape, PoolShape};
use crate::elementwise::Tiles;
use crate::launch::{
    KernelArg, KernelParam, ParamType, Scalars, THREADS, Walk, arg, check_limits, check_params,
    limits,
};
use crate::norm::{NormShape, SoftmaxShape, row_threads};
use crate::ptx;
use crate::reduce::{MAX_SHARED, Reduction};
use crate::scan::ScanLine;

/// What the Rust side passes to a kernel of each family, as its launch
/// builds the arguments (`None`: no launch takes such a kernel).
fn passes(name: &str) -> Option<Vec<ParamType>> {
    let ptr = u64::PARAM;
    let family = |prefix: &str| name.starts_with(prefix);
    Some(if family("copy_b") || family("cast_") {
        vec![ptr, ptr, Walk::<2>::PARAM]
    } else if family("transpose_b") {
        vec![ptr, ptr, Tiles::PARAM]
    } else if family("fill_b") {
        vec![ptr, Walk::<1>::PARAM, Scalars::PARAM]
    } else if family("where_b") {
        vec![ptr, ptr, ptr, ptr, Walk::<4>::PARAM]
    } else if family("gather_b") {
        vec![i64::PARAM, ptr, ptr, ptr, Walk::<3>::PARAM]
    } else if name == "index_check" {
        vec![ptr, ptr, Walk::<1>::PARAM, i64::PARAM]
    } else if family("unary_") {
        vec![ptr, ptr, Walk::<2>::PARAM, Scalars::PARAM]
    } else if family("binary_") || family("compare_") {
        vec![ptr, ptr, ptr, Walk::<3>::PARAM, Scalars::PARAM]
    } else if family("check_rhs_") {
        vec![ptr, ptr, Walk::<1>::PARAM, Scalars::PARAM]
    } else if family("reduce_") && name.ends_with("_finish") {
        vec![ptr, ptr, Reduction::PARAM, u32::PARAM]
    } else if family("reduce_") {
        vec![ptr, ptr, Reduction::PARAM, ptr]
    } else if family("softmax_rows_") || family("softmax_cols_") {
        vec![ptr, ptr, SoftmaxShape::PARAM]
    } else if family("conv_direct_") {
        vec![ptr, ptr, ptr, ptr, ConvShape::PARAM]
    } else if family("pool_") {
        vec![ptr, ptr, ptr, PoolShape::PARAM]
    } else if family("channel_affine_") {
        vec![ptr, ptr, ptr, ptr, AffineShape::PARAM]
    } else if family("layer_norm_") {
        vec![ptr, ptr, ptr, ptr, NormShape::PARAM]
    } else if family("cumsum_block_") || family("cumsum_rows_") {
        vec![ptr, ptr, Walk::<2>::PARAM, ScanLine::PARAM]
    } else {
        return None;
    })
}

#[test]
fn every_kernel_takes_the_parameters_its_launch_passes() {
    let mut n = 0;
    for module in ptx::MODULES {
        let text = ptx::module(module).expect("listed");
        for name in ptx::entries(text) {
            let declared = ptx::params(text, name).unwrap_or_else(|| {
                panic!("`{name}` of `{module}` has parameters of a kind no launch passes")
            });
            let passed =
                passes(name).unwrap_or_else(|| panic!("no launch passes `{name}` of `{module}`"));
            assert_eq!(declared, passed, "`{name}` of `{module}`");
            n += 1;
        }
    }
    assert!(n > 500, "{n} kernels");
}

#[test]
fn launches_stay_within_the_limits_of_sm_80() {
    // The block shapes the launches use, at their largest.
    let blocks = [
        (THREADS, 1, 1),
        (32, 8, 1),
        (row_threads(1 << 40), 1, 1),
        (256, 1, 1),
        (1, 256, 1),
    ];
    for block in blocks {
        check_limits("any", (1, 1, 1), block, 0).unwrap();
    }
    // Static shared memory plus the most dynamic memory a launch asks.
    for module in ptx::MODULES {
        let m = axial_ptx::Module::parse(ptx::module(module).expect("listed")).expect("parses");
        for name in m.kernel_names() {
            let k = m.kernel(name).expect("decodes");
            let dynamic = if name.starts_with("reduce_") && !name.ends_with("_finish") {
                MAX_SHARED
            } else {
                0
            };
            let total = k.static_shared() as u64 + dynamic as u64;
            assert!(
                total <= limits::SHARED,
                "`{name}`: {total} bytes of shared memory"
            );
        }
    }
    // Past the limits, a launch is refused before it reaches the driver.
    assert!(check_limits("k", (1, 1, 1), (1024, 2, 1), 0).is_err());
    assert!(check_limits("k", (1, 65_536, 1), (32, 1, 1), 0).is_err());
    assert!(check_limits("k", (1, 1, 1), (32, 1, 1), limits::SHARED + 1).is_err());
}

#[test]
fn a_launch_with_two_arguments_swapped_is_refused() {
    let text = ptx::module("move").expect("listed");
    let params = ptx::params(text, "fill_b4").expect("a kernel");
    let (ptr, walk, sc) = (0u64, Walk::<1>::new(&[4], [&[1]]), Scalars::default());
    let right: [KernelArg; 3] = [arg(&ptr), arg(&walk), arg(&sc)];
    check_params("fill_b4", &params, &right).unwrap();
    let swapped = [arg(&ptr), arg(&sc), arg(&walk)];
    let err = check_params("fill_b4", &params, &swapped)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("kernel `fill_b4` takes (.u64, .align 8 .b8[144], .align 8 .b8[48]) but the launch passes (.u64, .align 8 .b8[48], .align 8 .b8[144])"),
        "{err}"
    );
    // One argument too few.
    assert!(check_params("fill_b4", &params, &right[..2]).is_err());
}
