//! Comparisons: `dst = lhs op rhs` into bool, on every dtype, with each
//! row's operator ([`crate::ops::compare_table`]).

use half::{bf16, f16};

use super::convert::{bf16_to_f32, f16_to_f32};
use super::map::apply2;
use crate::ops::compare_table;
use crate::{
    Arg, Bool, CmpOp, Cpu, DType, Element, Error, Output, Result, with_dtype, with_real_dtype,
};

/// `dst = lhs op rhs`: `lhs` and `rhs` share a dtype; `dst` is bool.
pub(crate) fn compare(
    op: CmpOp,
    lhs: Arg<'_, Cpu>,
    rhs: Arg<'_, Cpu>,
    mut dst: Output<'_, Cpu>,
) -> Result<()> {
    let dtype = Arg::pair_dtype(op.name(), &lhs, &rhs)?;
    op.check(dtype)?;
    with_real_dtype!(dtype, T => compare_typed::<T>(op, &lhs, &rhs, &mut dst),
        _ => equality(op, &lhs, &rhs, &mut dst, dtype))
}

/// `==` and `!=` of the dtypes with no order (complex numbers) or no
/// ordering kernel (the float8s): equality of values, NaN unequal.
fn equality(
    op: CmpOp,
    lhs: &Arg<'_, Cpu>,
    rhs: &Arg<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
    dtype: DType,
) -> Result<()> {
    let eq = match op {
        CmpOp::Eq => true,
        CmpOp::Ne => false,
        _ => {
            return Err(Error::Unsupported {
                op: op.name(),
                dtype,
            });
        }
    };
    with_dtype!(dtype, T => apply2(op.name(), lhs, rhs, dst, move |a: T, b: T| Bool::from((a == b) == eq)))
}

fn compare_typed<T: Ordered>(
    op: CmpOp,
    lhs: &Arg<'_, Cpu>,
    rhs: &Arg<'_, Cpu>,
    dst: &mut Output<'_, Cpu>,
) -> Result<()> {
    let name = op.name();
    // Each row's operator (a macro rather than a function pointer, so each
    // comparison inlines).
    macro_rules! run {
        ($(
            $(#[$doc:meta])*
            $op:ident = $name:literal ($cmp:tt) $kind:ident $($kernel:literal)?, derivative: $derivative:tt;
        )*) => {
            match op {
                $(CmpOp::$op => apply2(name, lhs, rhs, dst, |a: T, b: T| Bool::from(a.key() $cmp b.key())),)*
            }
        };
    }
    compare_table!(run)
}

/// An element as a value that compares as PyTorch compares it: halves as
/// f32, bools as `false < true` whatever their non-zero byte.
trait Ordered: Element {
    type Key: PartialOrd;
    fn key(self) -> Self::Key;
}

macro_rules! ordered {
    ($($t:ty => $k:ty, $key:expr;)*) => {$(
        impl Ordered for $t {
            type Key = $k;
            #[inline(always)]
            fn key(self) -> $k {
                $key(self)
            }
        }
    )*};
}
ordered! {
    u8 => u8, |x| x;
    i8 => i8, |x| x;
    i16 => i16, |x| x;
    i32 => i32, |x| x;
    i64 => i64, |x| x;
    u16 => u16, |x| x;
    u32 => u32, |x| x;
    u64 => u64, |x| x;
    f32 => f32, |x| x;
    f64 => f64, |x| x;
    f16 => f32, f16_to_f32;
    bf16 => f32, bf16_to_f32;
    Bool => bool, Bool::get;
}
