// Generated from the op table of axial-core (crates/axial-core/src/ops/)
// by `gen-ptx.sh`, which `gen-ptx.sh --check` (CI) compares with this
// file: edit the table, not this file.
#pragma once

// Unary ops (UnaryOp::code): the op an integer kernel computes.
#define AXIAL_UNARY_NEG 0
#define AXIAL_UNARY_ABS 1
#define AXIAL_UNARY_SQRT 2
#define AXIAL_UNARY_RSQRT 3
#define AXIAL_UNARY_EXP 4
#define AXIAL_UNARY_LOG 5
#define AXIAL_UNARY_LOG1P 6
#define AXIAL_UNARY_EXPM1 7
#define AXIAL_UNARY_SIN 8
#define AXIAL_UNARY_COS 9
#define AXIAL_UNARY_TAN 10
#define AXIAL_UNARY_TANH 11
#define AXIAL_UNARY_SIGMOID 12
#define AXIAL_UNARY_RELU 13
#define AXIAL_UNARY_GELU 14
#define AXIAL_UNARY_GELU_TANH 15
#define AXIAL_UNARY_SILU 16
#define AXIAL_UNARY_ERF 17
#define AXIAL_UNARY_FLOOR 18
#define AXIAL_UNARY_CEIL 19
#define AXIAL_UNARY_ROUND 20
#define AXIAL_UNARY_TRUNC 21
#define AXIAL_UNARY_SIGN 22
#define AXIAL_UNARY_RECIPROCAL 23
#define AXIAL_UNARY_SQUARE 24
#define AXIAL_UNARY_SOFTPLUS 25
#define AXIAL_UNARY_POW 26
#define AXIAL_UNARY_CLAMP 27
#define AXIAL_UNARY_LOGICAL_NOT 28

// The float kernels of the unary ops without arguments, X(kernel, DT, T).
#define AXIAL_FLOAT_UNARY(X, DT, T) \
    X(neg, DT, T) \
    X(abs, DT, T) \
    X(sqrt, DT, T) \
    X(rsqrt, DT, T) \
    X(exp, DT, T) \
    X(log, DT, T) \
    X(log1p, DT, T) \
    X(expm1, DT, T) \
    X(sin, DT, T) \
    X(cos, DT, T) \
    X(tan, DT, T) \
    X(tanh, DT, T) \
    X(sigmoid, DT, T) \
    X(relu, DT, T) \
    X(gelu, DT, T) \
    X(gelu_tanh, DT, T) \
    X(silu, DT, T) \
    X(erf, DT, T) \
    X(floor, DT, T) \
    X(ceil, DT, T) \
    X(round, DT, T) \
    X(trunc, DT, T) \
    X(sign, DT, T) \
    X(reciprocal, DT, T) \
    X(square, DT, T) \
    X(softplus, DT, T)

// Binary ops (BinaryOp::code): the op an integer kernel computes.
#define AXIAL_BINARY_ADD 0
#define AXIAL_BINARY_SUB 1
#define AXIAL_BINARY_MUL 2
#define AXIAL_BINARY_DIV 3
#define AXIAL_BINARY_REMAINDER 4
#define AXIAL_BINARY_FLOOR_DIVIDE 5
#define AXIAL_BINARY_POW 6
#define AXIAL_BINARY_MAXIMUM 7
#define AXIAL_BINARY_MINIMUM 8
#define AXIAL_BINARY_ATAN2 9
#define AXIAL_BINARY_LOGICAL_AND 10
#define AXIAL_BINARY_LOGICAL_OR 11

// The float kernels of the binary ops but the logical ones, X(name, DT, T).
#define AXIAL_FLOAT_BINARY(X, DT, T) \
    X(add, DT, T) \
    X(sub, DT, T) \
    X(mul, DT, T) \
    X(div, DT, T) \
    X(remainder, DT, T) \
    X(floor_divide, DT, T) \
    X(pow, DT, T) \
    X(maximum, DT, T) \
    X(minimum, DT, T) \
    X(atan2, DT, T)

// Comparisons (CmpOp::code), X(code, operator).
#define AXIAL_CMP_EQ 0
#define AXIAL_CMP_NE 1
#define AXIAL_CMP_LT 2
#define AXIAL_CMP_LE 3
#define AXIAL_CMP_GT 4
#define AXIAL_CMP_GE 5
#define AXIAL_COMPARE(X) \
    X(0, ==) \
    X(1, !=) \
    X(2, <) \
    X(3, <=) \
    X(4, >) \
    X(5, >=)

// How `x ** p` is computed (PowScalarKind::code).
#define AXIAL_POW_ONE 0
#define AXIAL_POW_IDENTITY 1
#define AXIAL_POW_SQRT 2
#define AXIAL_POW_RSQRT 3
#define AXIAL_POW_RECIPROCAL 4
#define AXIAL_POW_SQUARE 5
#define AXIAL_POW_CUBE 6
#define AXIAL_POW_INVERSE_SQUARE 7
#define AXIAL_POW_IN_F64 8
#define AXIAL_POW_IN_F32 9

// The values of the right operand an integer op refuses (RhsRule::code).
#define AXIAL_RHS_NONZERO 1
#define AXIAL_RHS_NONNEGATIVE 2
