//! `einops.einsum` on the core: contractions against a naive sum over every
//! assignment of the subscripts, diagonals, broadcasting, `...`, integer
//! operands, empty dims, and PyTorch's errors.

use std::collections::HashMap;

use axial_core::einops;
use axial_core::{DType, Error, RawTensor, TensorRef};

/// A tensor of `shape` with small distinct integer values (exact in floats).
fn tensor(shape: &[usize], seed: usize, dtype: DType) -> RawTensor {
    let n: usize = shape.iter().product();
    let data: Vec<f64> = (0..n)
        .map(|i| ((i * 5 + seed * 3) % 13) as f64 - 6.0)
        .collect();
    let x = RawTensor::from_vec(data, shape).unwrap();
    x.view().to_dtype(dtype).unwrap()
}

fn as_f64(t: &TensorRef<'_>) -> Vec<f64> {
    t.to_dtype(DType::F64)
        .unwrap()
        .view()
        .to_vec::<f64>()
        .unwrap()
}

/// The sum over every assignment of the labels of the product of the operands'
/// elements (size-1 dims broadcast): einsum by its definition. Labels are
/// space-separated names; no `...`.
fn naive(pattern: &str, operands: &[&TensorRef<'_>]) -> (Vec<usize>, Vec<f64>) {
    let (inputs, output) = pattern.split_once("->").unwrap();
    let inputs: Vec<Vec<&str>> = inputs
        .split(',')
        .map(|s| s.split_whitespace().collect())
        .collect();
    let output: Vec<&str> = output.split_whitespace().collect();
    let mut size: HashMap<&str, usize> = HashMap::new();
    let mut labels: Vec<&str> = Vec::new();
    for (names, x) in inputs.iter().zip(operands) {
        for (&name, &n) in names.iter().zip(x.shape()) {
            let s = size.entry(name).or_insert(n);
            *s = (*s).max(n);
            if !labels.contains(&name) {
                labels.push(name);
            }
        }
    }
    let data: Vec<Vec<f64>> = operands.iter().map(|x| as_f64(x)).collect();
    let out_shape: Vec<usize> = output.iter().map(|l| size[l]).collect();
    let mut out = vec![0.0; out_shape.iter().product()];
    let total: usize = labels.iter().map(|l| size[l]).product();
    let flat = |names: &[&str], shape: &[usize], at: &HashMap<&str, usize>| {
        names
            .iter()
            .zip(shape)
            .fold(0, |acc, (l, &n)| acc * n + if n == 1 { 0 } else { at[l] })
    };
    for mut i in 0..total {
        let mut at = HashMap::new();
        for l in labels.iter().rev() {
            at.insert(*l, i % size[l]);
            i /= size[l];
        }
        let product: f64 = inputs
            .iter()
            .zip(operands)
            .zip(&data)
            .map(|((names, x), d)| d[flat(names, x.shape(), &at)])
            .product();
        out[flat(&output, &out_shape, &at)] += product;
    }
    (out_shape, out)
}

/// Runs `einsum` and compares with [`naive`] of `explicit` (the same
/// contraction written without `...`).
fn check_as(pattern: &str, explicit: &str, operands: &[&TensorRef<'_>]) -> RawTensor {
    let y = einops::einsum(pattern, operands).unwrap_or_else(|e| panic!("{pattern}: {e}"));
    let (shape, want) = naive(explicit, operands);
    assert_eq!(y.shape(), shape.as_slice(), "{pattern}");
    assert_eq!(as_f64(&y.view()), want, "{pattern}");
    y
}

fn check(pattern: &str, operands: &[&TensorRef<'_>]) -> RawTensor {
    check_as(pattern, pattern, operands)
}

#[test]
fn two_operand_contractions() {
    for dtype in [DType::F32, DType::F64] {
        let a = tensor(&[2, 3], 1, dtype);
        let b = tensor(&[3, 4], 2, dtype);
        let y = check("i j, j k -> i k", &[&a.view(), &b.view()]);
        assert_eq!(y.dtype(), dtype);
        check("i j, j k -> k i", &[&a.view(), &b.view()]);
        let bt = b.view().t().unwrap();
        check("i j, k j -> i k", &[&a.view(), &bt]);
    }
    let a = tensor(&[5, 2, 3], 1, DType::F32);
    let b = tensor(&[5, 3, 4], 2, DType::F32);
    check("b i j, b j k -> b i k", &[&a.view(), &b.view()]);
    let b2 = tensor(&[5, 4, 3], 3, DType::F32);
    check("b i j, b k j -> b k i", &[&a.view(), &b2.view()]);
    let images = tensor(&[6, 4, 4], 4, DType::F64);
    let filters = tensor(&[4, 4, 3], 5, DType::F64);
    check(
        "batch h w, h w channel -> batch channel",
        &[&images.view(), &filters.view()],
    );
}

#[test]
fn vectors_outer_products_and_kept_contracted_axes() {
    let m = tensor(&[3, 4], 1, DType::F32);
    let v = tensor(&[4], 2, DType::F32);
    let u = tensor(&[3], 3, DType::F32);
    check("i j, j -> i", &[&m.view(), &v.view()]);
    check("i, i ->", &[&u.view(), &u.view()]);
    check("i, j -> i j", &[&u.view(), &v.view()]);
    check("i j, i j -> i j", &[&m.view(), &m.view()]);
    check("i j, i j -> j", &[&m.view(), &m.view()]);
    check("i j, k -> i", &[&m.view(), &u.view()]);
}

#[test]
fn one_operand_permutes_sums_and_takes_diagonals() {
    let x = tensor(&[2, 3, 4], 1, DType::F64);
    check("a b c -> c a b", &[&x.view()]);
    check("a b c -> b", &[&x.view()]);
    check("a b c ->", &[&x.view()]);
    let sq = tensor(&[4, 4], 2, DType::F64);
    let trace = check("i i ->", &[&sq.view()]);
    assert_eq!(trace.shape(), &[] as &[usize]);
    check("i i -> i", &[&sq.view()]);
    let batch = tensor(&[3, 4, 4], 3, DType::F64);
    check("b i i -> b i", &[&batch.view()]);
    check(
        "b i i, b i -> b",
        &[&batch.view(), &tensor(&[3, 4], 4, DType::F64).view()],
    );
}

#[test]
fn three_operands_contract_left_to_right() {
    let x = tensor(&[2, 3, 4], 1, DType::F64);
    let y = tensor(&[4, 3, 2], 2, DType::F64);
    let z = tensor(&[2, 2, 3], 3, DType::F64);
    check(
        "a b c, c b d, a g k -> a b k",
        &[&x.view(), &y.view(), &z.view()],
    );
    let v = tensor(&[3], 4, DType::F32);
    let m = tensor(&[3, 3], 5, DType::F32);
    check("i, i j, j ->", &[&v.view(), &m.view(), &v.view()]);
}

#[test]
fn size_one_dims_broadcast() {
    let a = tensor(&[2, 1], 1, DType::F32);
    let b = tensor(&[2, 3], 2, DType::F32);
    check("i j, i j -> i j", &[&a.view(), &b.view()]);
    check("i j, i j -> i", &[&a.view(), &b.view()]);
}

#[test]
fn ellipsis_dims_broadcast_from_the_right() {
    let data = tensor(&[5, 3, 4], 1, DType::F32);
    let weights = tensor(&[2, 4], 2, DType::F32);
    check_as(
        "out_dim in_dim, ... in_dim -> ... out_dim",
        "o i, a b i -> a b o",
        &[&weights.view(), &data.view()],
    );
    let a = tensor(&[2, 3, 4], 3, DType::F64);
    let b = tensor(&[3, 4], 4, DType::F64);
    check_as(
        "... i, ... i -> ...",
        "x y i, y i -> x y",
        &[&a.view(), &b.view()],
    );
    check_as("... i -> i", "x y i -> i", &[&a.view()]);
}

#[test]
fn integer_operands_keep_their_dtype() {
    let a = tensor(&[2, 3], 1, DType::I64);
    let b = tensor(&[3, 4], 2, DType::I64);
    let y = check("i j, j k -> i k", &[&a.view(), &b.view()]);
    assert_eq!(y.dtype(), DType::I64);
    let c = tensor(&[2, 3], 3, DType::I32);
    let y = check("i j, i j -> i", &[&c.view(), &c.view()]);
    assert_eq!(y.dtype(), DType::I32);
}

#[test]
fn empty_dims_give_zeros() {
    let a = tensor(&[2, 0], 1, DType::F32);
    let b = tensor(&[0, 4], 2, DType::F32);
    let y = check("i j, j k -> i k", &[&a.view(), &b.view()]);
    assert_eq!(y.view().to_vec::<f32>().unwrap(), vec![0.0; 8]);
    let e = tensor(&[0, 3], 3, DType::F32);
    let y = check(
        "i j, j k -> i k",
        &[&e.view(), &tensor(&[3, 4], 4, DType::F32).view()],
    );
    assert_eq!(y.shape(), &[0, 4]);
}

fn einsum_err(pattern: &str, operands: &[&TensorRef<'_>]) -> Error {
    einops::einsum(pattern, operands).err().unwrap()
}

#[test]
fn pytorch_errors() {
    let a = tensor(&[2, 3], 1, DType::F32);
    let b = tensor(&[3, 4], 2, DType::F32);
    let (a, b) = (a.view(), b.view());
    let message = |m: &str| Error::invalid("einsum", m);
    assert_eq!(
        einsum_err("i j, j k -> i k", &[&a]),
        message("fewer operands were provided than specified in the equation")
    );
    assert_eq!(
        einsum_err("i j -> i", &[&a, &b]),
        message("more operands were provided than specified in the equation")
    );
    assert_eq!(
        einsum_err("i j k, j k -> i", &[&a, &b]),
        message(
            "the number of subscripts in the equation (3) does not match the number of dimensions (2) for operand 0 and no ellipsis was given"
        )
    );
    assert_eq!(
        einsum_err("i j k ..., j k -> i", &[&a, &b]),
        message(
            "the number of subscripts in the equation (3) is more than the number of dimensions (2) for operand 0"
        )
    );
    assert_eq!(
        einsum_err("i i -> i", &[&a]),
        message("subscript i is repeated for operand 0 but the sizes don't match, 3 != 2")
    );
    assert_eq!(
        einsum_err("i j, i k -> j k", &[&a, &b]),
        message(
            "operands do not broadcast with remapped shapes [original->remapped]: [2, 3]->[3, 1, 2] [3, 4]->[1, 4, 3]"
        )
    );
    let d = tensor(&[3, 4], 2, DType::F64);
    assert_eq!(
        einsum_err("i j, j k -> i k", &[&a, &d.view()]).to_string(),
        "matmul: expected m1 and m2 to have the same dtype, but got: float32 != float64"
    );
    assert_eq!(
        einsum_err("i j, j k -> i k", &[]),
        message(
            "`einops.einsum` takes at minimum two arguments: the tensors (at least one), followed by the pattern."
        )
    );
}

#[test]
fn a_spec_checked_once_runs_on_operands() {
    let spec = einops::Einsum::new(&einops::Pattern::parse_einsum("i j, j -> i").unwrap()).unwrap();
    let m = tensor(&[3, 4], 1, DType::F64);
    let v = tensor(&[4], 2, DType::F64);
    let y = einops::apply_einsum(&spec, &[&m.view(), &v.view()]).unwrap();
    assert_eq!(
        as_f64(&y.view()),
        naive("i j, j -> i", &[&m.view(), &v.view()]).1
    );
    let empty = einops::Einsum {
        inputs: Vec::new(),
        output: Vec::new(),
    };
    assert_eq!(
        einops::apply_einsum::<axial_core::Cpu>(&empty, &[])
            .err()
            .unwrap(),
        Error::invalid(
            "einsum",
            "`einops.einsum` takes at minimum two arguments: the tensors (at least one), followed by the pattern."
        )
    );
}

#[test]
fn pattern_errors_are_einops_own() {
    let a = tensor(&[2, 3], 1, DType::F32);
    let a = a.view();
    let err = einsum_err("i j -> i k", &[&a]);
    assert_eq!(
        err.to_string(),
        "einsum: Unknown axis k on right side of einsum i j -> i k."
    );
    let Error::Pattern { error, .. } = err else {
        panic!()
    };
    assert_eq!(error.span().map(|s| s.text("i j -> i k")), Some("k"));
    assert_eq!(
        einsum_err("(i j) -> i", &[&a]).to_string(),
        "einsum: Shape rearrangement is not yet supported in einsum."
    );
    assert_eq!(
        einsum_err("i j", &[&a]).to_string(),
        "einsum: Einsum pattern must contain '->'."
    );
}
