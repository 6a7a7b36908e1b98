//! The CUDA kernels of the op table: each op's kernel names and numbers,
//! and the header of `axial-cuda` generated from them ([`header`],
//! `kernels/ops.cuh`), which the `.cu` files include for the numbers their
//! kernels switch on and the lists of kernels they instantiate. The CUDA
//! device launches kernels by these names, and a test of `axial-cuda`
//! checks that the committed PTX has an entry for every kernel
//! [`every_kernel`] lists.
//!
//! Modules: `elementwise_<dtype>` and `reduce_<dtype>` hold the kernels
//! whose input has that dtype; `move`, `index`, `norm` and `scan` hold the
//! others, named by element size (`_b<bytes>`) or dtype.
//!
//! # Example
//! ```
//! use axial_core::{DType, UnaryOp, ops::cuda};
//! assert_eq!(UnaryOp::Exp.cuda_entry(DType::F16), "unary_exp_f16");
//! assert_eq!(UnaryOp::Abs.cuda_entry(DType::I32), "unary_int_i32"); // with UnaryOp::Abs.code()
//! assert!(cuda::header().contains("#define AXIAL_UNARY_ABS 1"));
//! ```

use super::unary::Class;
use super::{
    ArgReduceOp, BinaryOp, CmpOp, Cumsum, LayerNorm, PowScalarKind, ReduceOp, RhsRule, Softmax,
    UnaryOp,
};
use crate::DType;

/// The short name of a dtype in kernel and module names (`f32`, `bool`).
///
/// ```
/// # use axial_core::{DType, ops::cuda};
/// assert_eq!(cuda::short(DType::BF16), "bf16");
/// ```
pub fn short(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "bool",
        DType::U8 => "u8",
        DType::I8 => "i8",
        DType::I16 => "i16",
        DType::I32 => "i32",
        DType::I64 => "i64",
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        DType::F32 => "f32",
        DType::F64 => "f64",
        DType::U16 => "u16",
        DType::U32 => "u32",
        DType::U64 => "u64",
        DType::C64 => "c64",
        DType::C128 => "c128",
        DType::F8E4M3Fn => "f8e4m3fn",
        DType::F8E5M2 => "f8e5m2",
        DType::F8E4M3FnUz => "f8e4m3fnuz",
        DType::F8E5M2FnUz => "f8e5m2fnuz",
    }
}

/// The name of an element size in kernel names (`b4`).
///
/// ```
/// # use axial_core::ops::cuda;
/// assert_eq!(cuda::size_name(8), "b8");
/// ```
pub fn size_name(size: usize) -> &'static str {
    match size {
        1 => "b1",
        2 => "b2",
        4 => "b4",
        _ => "b8",
    }
}

/// The elementwise module of a dtype: the kernels whose input has it.
///
/// ```
/// # use axial_core::{DType, ops::cuda};
/// assert_eq!(cuda::elementwise_module(DType::F32), "elementwise_f32");
/// ```
pub fn elementwise_module(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "elementwise_bool",
        DType::U8 => "elementwise_u8",
        DType::I8 => "elementwise_i8",
        DType::I16 => "elementwise_i16",
        DType::I32 => "elementwise_i32",
        DType::I64 => "elementwise_i64",
        DType::F16 => "elementwise_f16",
        DType::BF16 => "elementwise_bf16",
        DType::F32 => "elementwise_f32",
        DType::F64 => "elementwise_f64",
        DType::U16 => "elementwise_u16",
        DType::U32 => "elementwise_u32",
        DType::U64 => "elementwise_u64",
        DType::C64 => "elementwise_c64",
        DType::C128 => "elementwise_c128",
        DType::F8E4M3Fn => "elementwise_f8e4m3fn",
        DType::F8E5M2 => "elementwise_f8e5m2",
        DType::F8E4M3FnUz => "elementwise_f8e4m3fnuz",
        DType::F8E5M2FnUz => "elementwise_f8e5m2fnuz",
    }
}

/// The reduction module of a dtype: the kernels whose input has it.
///
/// ```
/// # use axial_core::{DType, ops::cuda};
/// assert_eq!(cuda::reduce_module(DType::I8), "reduce_i8");
/// ```
pub fn reduce_module(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "reduce_bool",
        DType::U8 => "reduce_u8",
        DType::I8 => "reduce_i8",
        DType::I16 => "reduce_i16",
        DType::I32 => "reduce_i32",
        DType::I64 => "reduce_i64",
        DType::F16 => "reduce_f16",
        DType::BF16 => "reduce_bf16",
        DType::F32 => "reduce_f32",
        DType::F64 => "reduce_f64",
        DType::U16 => "reduce_u16",
        DType::U32 => "reduce_u32",
        DType::U64 => "reduce_u64",
        DType::C64 => "reduce_c64",
        DType::C128 => "reduce_c128",
        DType::F8E4M3Fn => "reduce_f8e4m3fn",
        DType::F8E5M2 => "reduce_f8e5m2",
        DType::F8E4M3FnUz => "reduce_f8e4m3fnuz",
        DType::F8E5M2FnUz => "reduce_f8e5m2fnuz",
    }
}

impl UnaryOp {
    /// The CUDA kernel of this op on `dtype`, as [`UnaryOp::resolve`]
    /// returns it (`Resolved::Op`): `unary_<kernel>_<dtype>` for floats
    /// and `logical_not`, `unary_int_<dtype>` (with [`UnaryOp::code`]) for
    /// integers.
    pub fn cuda_entry(self, dtype: DType) -> String {
        let dt = short(dtype);
        if self.class() == Class::logical_not || dtype.is_float() {
            format!("unary_{}_{dt}", self.cuda_kernel())
        } else {
            format!("unary_int_{dt}")
        }
    }
}

impl BinaryOp {
    /// The CUDA kernel of this op on operands of `dtype`, as
    /// [`BinaryOp::resolve`] returns it: `binary_<name>_<dtype>` for
    /// floats and the logical ops, `binary_int_<dtype>` (with
    /// [`BinaryOp::code`]) for integers.
    ///
    /// ```
    /// # use axial_core::{BinaryOp, DType};
    /// assert_eq!(BinaryOp::Rem.cuda_entry(DType::F64), "binary_remainder_f64");
    /// assert_eq!(BinaryOp::Rem.cuda_entry(DType::U8), "binary_int_u8");
    /// ```
    pub fn cuda_entry(self, dtype: DType) -> String {
        let dt = short(dtype);
        if self.is_logical() || dtype.is_float() {
            format!("binary_{}_{dt}", self.name())
        } else {
            format!("binary_int_{dt}")
        }
    }
}

impl CmpOp {
    /// The CUDA kernel of the comparisons on `dtype` (`compare_<dtype>`,
    /// with [`CmpOp::code`]).
    ///
    /// ```
    /// # use axial_core::{CmpOp, DType};
    /// assert_eq!(CmpOp::cuda_entry(DType::Bool), "compare_bool");
    /// ```
    pub fn cuda_entry(dtype: DType) -> String {
        format!("compare_{}", short(dtype))
    }
}

impl ReduceOp {
    /// The CUDA kernel of this reduction of `dtype` into `out` (the
    /// result's dtype, [`ReduceOp::output_dtype`]): `reduce_<name>_<dtype>`,
    /// and `reduce_<all|any>_u8out_u8` for u8 into u8. A split reduction
    /// finishes with the kernel's `_finish` twin.
    ///
    /// ```
    /// # use axial_core::{DType, ReduceOp};
    /// assert_eq!(ReduceOp::Std { correction: 1.0 }.cuda_entry(DType::F32, DType::F32), "reduce_std_f32");
    /// assert_eq!(ReduceOp::Any.cuda_entry(DType::U8, DType::U8), "reduce_any_u8out_u8");
    /// ```
    pub fn cuda_entry(self, dtype: DType, out: DType) -> String {
        if matches!(self, ReduceOp::All | ReduceOp::Any) && out == DType::U8 {
            format!("reduce_{}_u8out_u8", self.name())
        } else {
            format!("reduce_{}_{}", self.name(), short(dtype))
        }
    }
}

impl ArgReduceOp {
    /// The CUDA kernel of this op on `dtype` (`reduce_<name>_<dtype>`).
    ///
    /// ```
    /// # use axial_core::{ArgReduceOp, DType};
    /// assert_eq!(ArgReduceOp::ArgMin.cuda_entry(DType::I16), "reduce_argmin_i16");
    /// ```
    pub fn cuda_entry(self, dtype: DType) -> String {
        format!("reduce_{}_{}", self.name(), short(dtype))
    }
}

/// Every kernel the table's ops launch on CUDA, for each (op, dtype) their
/// rules accept, as `(module, entry, what)`: `what` names the op and dtype
/// for a test's message.
///
/// ```
/// # use axial_core::ops::cuda;
/// let all = cuda::every_kernel();
/// assert!(all.iter().any(|(m, e, _)| *m == "elementwise_bf16" && e == "unary_gelu_tanh_bf16"));
/// assert!(all.iter().any(|(m, e, _)| *m == "norm" && e == "softmax_rows_f16"));
/// ```
pub fn every_kernel() -> Vec<(&'static str, String, String)> {
    let mut out = vec![];
    let mut add =
        |module: &'static str, entry: String, what: String| out.push((module, entry, what));
    for dtype in DType::ALL {
        let (dt, module) = (short(dtype), elementwise_module(dtype));
        for op in UnaryOp::every() {
            if let Ok(super::Resolved::Op(op)) = op.resolve(dtype) {
                add(module, op.cuda_entry(dtype), format!("{op:?} of {dt}"));
            }
        }
        for &op in BinaryOp::ALL {
            if let Ok(op) = op.resolve(dtype) {
                add(module, op.cuda_entry(dtype), format!("{op:?} of {dt}"));
                if op.rhs_rule(dtype).is_some() {
                    add(
                        module,
                        format!("check_rhs_{dt}"),
                        format!("{op:?}'s divisor of {dt}"),
                    );
                }
            }
        }
        add(
            module,
            CmpOp::cuda_entry(dtype),
            format!("comparisons of {dt}"),
        );
        for to in DType::ALL {
            let entry = format!("cast_{dt}_{}", short(to));
            add(module, entry, format!("casts of {dt}"));
        }
        let reductions = [
            ReduceOp::Sum,
            ReduceOp::Prod,
            ReduceOp::Mean,
            ReduceOp::Max,
            ReduceOp::Min,
            ReduceOp::All,
            ReduceOp::Any,
            ReduceOp::Var { correction: 1.0 },
            ReduceOp::Std { correction: 1.0 },
        ];
        for op in reductions {
            if let Ok(out) = op.output_dtype(dtype) {
                let entry = op.cuda_entry(dtype, out);
                add(
                    reduce_module(dtype),
                    format!("{entry}_finish"),
                    format!("{op:?} of {dt}"),
                );
                add(reduce_module(dtype), entry, format!("{op:?} of {dt}"));
            }
        }
        if dtype != DType::Bool {
            for op in [ArgReduceOp::ArgMax, ArgReduceOp::ArgMin] {
                let entry = op.cuda_entry(dtype);
                add(
                    reduce_module(dtype),
                    format!("{entry}_finish"),
                    format!("{op:?} of {dt}"),
                );
                add(reduce_module(dtype), entry, format!("{op:?} of {dt}"));
            }
            for kernel in Cumsum::CUDA_KERNELS {
                add("scan", format!("{kernel}_{dt}"), format!("cumsum of {dt}"));
            }
        }
        if dtype.is_float() {
            for kernel in Softmax::CUDA_KERNELS {
                add("norm", format!("{kernel}_{dt}"), format!("softmax of {dt}"));
            }
            let entry = format!("{}_{dt}", LayerNorm::CUDA_KERNEL);
            add("norm", entry, format!("layer_norm of {dt}"));
        }
    }
    for size in [1, 2, 4, 8] {
        let b = size_name(size);
        for kernel in ["copy", "transpose", "fill", "where"] {
            add(
                "move",
                format!("{kernel}_{b}"),
                format!("{kernel} of {size}-byte elements"),
            );
        }
        add(
            "index",
            format!("gather_{b}"),
            format!("gather of {size}-byte elements"),
        );
    }
    add("index", "index_check".into(), "the index check".into());
    out
}

/// The header `kernels/ops.cuh` of `axial-cuda`: the numbers of the
/// table's ops, and the lists of the kernels the `.cu` files instantiate
/// (an X-macro per family: a new row of the table is a new kernel once
/// its element function is written).
///
/// ```
/// # use axial_core::ops::cuda;
/// let h = cuda::header();
/// assert!(h.contains("#define AXIAL_BINARY_ADD 0"));
/// assert!(h.contains("X(exp, DT, T)"));
/// ```
pub fn header() -> String {
    let mut h = String::new();
    let mut line = |s: &str| {
        h.push_str(s);
        h.push('\n');
    };
    line("// Generated from the op table of axial-core (crates/axial-core/src/ops/)");
    line("// by `gen-ptx.sh`, which `gen-ptx.sh --check` (CI) compares with this");
    line("// file: edit the table, not this file.");
    line("#pragma once");
    line("");
    line("// Unary ops (UnaryOp::code): the op an integer kernel computes.");
    for op in UnaryOp::every() {
        line(&format!(
            "#define AXIAL_UNARY_{} {}",
            upper(op.cuda_kernel()),
            op.code()
        ));
    }
    line("");
    line("// The float kernels of the unary ops without arguments, X(kernel, DT, T).");
    let plain = UnaryOp::rows()
        .filter(|(_, class, _)| !matches!(class, Class::pow | Class::clamp | Class::logical_not));
    let items: Vec<String> = plain.map(|(_, _, k)| format!("X({k}, DT, T)")).collect();
    line(&list_macro("AXIAL_FLOAT_UNARY(X, DT, T)", &items));
    line("");
    line("// Binary ops (BinaryOp::code): the op an integer kernel computes.");
    for &op in BinaryOp::ALL {
        line(&format!(
            "#define AXIAL_BINARY_{} {}",
            upper(op.name()),
            op.code()
        ));
    }
    line("");
    line("// The float kernels of the binary ops but the logical ones, X(name, DT, T).");
    let items: Vec<String> = (BinaryOp::ALL.iter())
        .filter(|op| !op.is_logical())
        .map(|op| format!("X({}, DT, T)", op.name()))
        .collect();
    line(&list_macro("AXIAL_FLOAT_BINARY(X, DT, T)", &items));
    line("");
    line("// Comparisons (CmpOp::code), X(code, operator).");
    for &op in CmpOp::ALL {
        line(&format!(
            "#define AXIAL_CMP_{} {}",
            upper(op.name()),
            op.code()
        ));
    }
    let items: Vec<String> = (CmpOp::ALL.iter())
        .map(|op| format!("X({}, {})", op.code(), op.operator()))
        .collect();
    line(&list_macro("AXIAL_COMPARE(X)", &items));
    line("");
    line("// How `x ** p` is computed (PowScalarKind::code).");
    for (code, name) in PowScalarKind::NAMES.iter().enumerate() {
        line(&format!("#define AXIAL_POW_{name} {code}"));
    }
    line("");
    line("// The values of the right operand an integer op refuses (RhsRule::code).");
    for rule in [RhsRule::NonZero, RhsRule::NonNegative] {
        line(&format!(
            "#define AXIAL_RHS_{} {}",
            upper(&format!("{rule:?}")),
            rule.code()
        ));
    }
    h
}

/// `#define head item item ...`, an item a line.
fn list_macro(head: &str, items: &[String]) -> String {
    let mut out = format!("#define {head}");
    for item in items {
        out.push_str(" \\\n    ");
        out.push_str(item);
    }
    out
}

/// `name` in capitals, `NonZero` as `NONZERO`.
fn upper(name: &str) -> String {
    name.to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pow_kind_has_its_number() {
        let kinds = [
            PowScalarKind::One,
            PowScalarKind::Identity,
            PowScalarKind::Sqrt,
            PowScalarKind::Rsqrt,
            PowScalarKind::Reciprocal,
            PowScalarKind::Square,
            PowScalarKind::Cube,
            PowScalarKind::InverseSquare,
            PowScalarKind::InF64(1.5),
            PowScalarKind::InF32(1.5),
        ];
        for (i, kind) in kinds.into_iter().enumerate() {
            assert_eq!(kind.code().0 as usize, i, "{kind:?}");
        }
    }

    #[test]
    fn numbers_are_distinct() {
        let mut codes: Vec<u32> = UnaryOp::every().map(UnaryOp::code).collect();
        codes.dedup();
        assert_eq!(codes.len(), UnaryOp::every().count());
        assert!(codes.windows(2).all(|w| w[0] < w[1]));
    }
}
