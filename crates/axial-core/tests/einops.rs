//! einops on the core: einops' documented cases (shapes, values against a
//! naive evaluation of einops' definition, views where einops returns views),
//! `parse_shape`, and every runtime error with einops' wording.

use std::collections::HashMap;

use axial_core::einops::{self, Atom, Expression, Operation, Pattern, Recipe, Reduction};
use axial_core::{DType, Error, MaybeOwned, RawTensor, Result, TensorRef};

/// `0, 1, 2, …` (as f64) laid out contiguously in `shape`.
fn arange(shape: &[usize]) -> RawTensor {
    let n: usize = shape.iter().product();
    RawTensor::from_vec((0..n).map(|v| v as f64).collect::<Vec<f64>>(), shape).unwrap()
}

/// Values that make every reduction informative: distinct, signed, some zero.
fn wavy(shape: &[usize]) -> RawTensor {
    let n: usize = shape.iter().product();
    let data: Vec<f64> = (0..n).map(|i| ((i * 7 % 11) as f64) - 5.0).collect();
    RawTensor::from_vec(data, shape).unwrap()
}

/// One side's dims as lists of axis keys, `...` expanded to `ell` dims (`…k`)
/// and anonymous axes keyed by position.
fn keyed(side: &Expression, ell: usize) -> Vec<Vec<String>> {
    let key = |a: &Atom| -> Vec<String> {
        match a {
            Atom::Named { name, .. } => vec![name.clone()],
            Atom::Anonymous { span, .. } => vec![format!("#{}", span.start)],
            Atom::Ellipsis { .. } => (0..ell).map(|k| format!("…{k}")).collect(),
        }
    };
    let mut dims = Vec::new();
    for d in &side.dims {
        if d.is_ellipsis() {
            dims.extend((0..ell).map(|k| vec![format!("…{k}")]));
        } else {
            dims.push(d.atoms.iter().flat_map(key).collect());
        }
    }
    dims
}

/// einops by its definition: every assignment of the elementary axes maps an
/// input element (groups composed in C order) to an output element; reduced
/// axes are folded with `reduction`. Returns the output's values.
fn naive(
    input: &[f64],
    shape: &[usize],
    pattern: &str,
    reduction: Option<Reduction>,
    sizes: &[(&str, usize)],
) -> Vec<f64> {
    let p = Pattern::parse(pattern).unwrap();
    let ell = shape.len() + 1 - p.input().dims.len();
    let ell = if p.input().has_ellipsis() { ell } else { 0 };
    let (left, right) = (keyed(p.input(), ell), keyed(p.output(), ell));
    let mut length: HashMap<String, usize> =
        sizes.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    for a in p.input().atoms().chain(p.output().atoms()) {
        if let Atom::Anonymous { size, span } = a {
            length.insert(format!("#{}", span.start), *size);
        }
    }
    for (group, &n) in left.iter().zip(shape) {
        let known: usize = group.iter().filter_map(|a| length.get(a)).product();
        if let Some(unknown) = group.iter().find(|a| !length.contains_key(*a)) {
            length.insert(unknown.clone(), n / known);
        }
    }
    let mut axes: Vec<String> = left.iter().flatten().cloned().collect();
    axes.extend(
        right
            .iter()
            .flatten()
            .filter(|a| !axes.contains(a))
            .cloned()
            .collect::<Vec<_>>(),
    );
    let out_numel: usize = right
        .iter()
        .map(|g| g.iter().map(|a| length[a]).product::<usize>())
        .product();
    let mut out: Vec<Option<f64>> = vec![None; out_numel];
    let mut count = vec![0usize; out_numel];
    let total: usize = axes.iter().map(|a| length[a]).product();
    let flat = |groups: &[Vec<String>], at: &HashMap<&str, usize>| -> usize {
        groups.iter().fold(0, |acc, g| {
            let len: usize = g.iter().map(|a| length[a]).product();
            acc * len + g.iter().fold(0, |c, a| c * length[a] + at[a.as_str()])
        })
    };
    for mut i in 0..total {
        let mut at: HashMap<&str, usize> = HashMap::new();
        for a in axes.iter().rev() {
            at.insert(a, i % length[a]);
            i /= length[a];
        }
        let v = input[flat(&left, &at)];
        let o = flat(&right, &at);
        count[o] += 1;
        out[o] = Some(match (out[o], reduction) {
            (None, _) | (_, None) => v,
            (Some(acc), Some(Reduction::Sum | Reduction::Mean)) => acc + v,
            (Some(acc), Some(Reduction::Prod)) => acc * v,
            (Some(acc), Some(Reduction::Min)) => acc.min(v),
            (Some(acc), Some(Reduction::Max)) => acc.max(v),
            (Some(acc), Some(Reduction::Any)) => f64::from(acc != 0.0 || v != 0.0),
            (Some(acc), Some(Reduction::All)) => f64::from(acc != 0.0 && v != 0.0),
        });
    }
    out.iter()
        .zip(&count)
        .map(|(v, &n)| {
            let v = v.unwrap_or(0.0);
            match reduction {
                Some(Reduction::Mean) => v / n as f64,
                Some(Reduction::Any | Reduction::All) if n == 1 => f64::from(v != 0.0),
                _ => v,
            }
        })
        .collect()
}

fn values(t: &MaybeOwned<'_>) -> Vec<f64> {
    let v = t.as_ref();
    match v.dtype() {
        DType::F64 => v.to_vec::<f64>().unwrap(),
        _ => v
            .to_dtype(DType::F64)
            .unwrap()
            .view()
            .to_vec::<f64>()
            .unwrap(),
    }
}

/// Runs the operation and checks shape and values against [`naive`].
fn check<'a>(
    x: &TensorRef<'a>,
    operation: Operation,
    pattern: &str,
    sizes: &[(&str, usize)],
    want_shape: &[usize],
) -> MaybeOwned<'a> {
    let y = match operation {
        Operation::Rearrange => einops::rearrange(x, pattern, sizes),
        Operation::Reduce(r) => einops::reduce(x, pattern, r, sizes),
        Operation::Repeat => einops::repeat(x, pattern, sizes),
    }
    .unwrap_or_else(|e| panic!("{pattern}: {e}"));
    assert_eq!(y.as_ref().shape(), want_shape, "{pattern}");
    let reduction = match operation {
        Operation::Reduce(r) => Some(r),
        _ => None,
    };
    let input = x.to_vec::<f64>().unwrap();
    let want = naive(&input, x.shape(), pattern, reduction, sizes);
    assert_eq!(values(&y), want, "{pattern}");
    y
}

const R: Operation = Operation::Rearrange;

#[test]
fn rearrange_cases_1_to_18() {
    let x = arange(&[2, 3, 4, 5]);
    let x = x.view();
    let y = check(&x, R, "b c h w -> b h w c", &[], &[2, 4, 5, 3]);
    assert!(y.is_view());
    assert!(y.as_ref().shares_storage_with(&x));
    assert!(check(&x, R, "b c h w -> b (c h w)", &[], &[2, 60]).is_view());
    assert!(!check(&x, R, "b c h w -> (b h) w c", &[], &[8, 5, 3]).is_view());
    let x6 = arange(&[2, 3, 4, 6]);
    let y = check(
        &x6.view(),
        R,
        "b c h (w1 w2) -> b c h w1 w2",
        &[("w2", 2)],
        &[2, 3, 4, 3, 2],
    );
    assert!(y.is_view());
    let sizes = [("h1", 2), ("w1", 2)];
    check(
        &x6.view(),
        R,
        "b c (h h1) (w w1) -> b (c h1 w1) h w",
        &sizes,
        &[2, 12, 2, 3],
    );
    let x12 = arange(&[2, 12, 4, 5]);
    check(
        &x12.view(),
        R,
        "b (h1 c) h w -> b c (h h1) w",
        &[("h1", 2)],
        &[2, 6, 8, 5],
    );
    assert!(check(&x, R, "b ... -> b (...)", &[], &[2, 60]).is_view());
    assert!(check(&x, R, "... c -> c ...", &[], &[5, 2, 3, 4]).is_view());
    assert!(check(&x, R, "... -> (...)", &[], &[120]).is_view());
    let m = arange(&[2, 3]);
    assert!(check(&m.view(), R, "a b -> a 1 b", &[], &[2, 1, 3]).is_view());
    assert!(check(&m.view(), R, "a b -> a () b ()", &[], &[2, 1, 3, 1]).is_view());
    let u = arange(&[2, 1, 3]);
    assert!(check(&u.view(), R, "a 1 b -> a b", &[], &[2, 3]).is_view());
    assert!(check(&u.view(), R, "a () b -> b a", &[], &[3, 2]).is_view());
    let v = arange(&[6]);
    assert!(check(&v.view(), R, "(a b) -> a b", &[("a", 2)], &[2, 3]).is_view());
    let x5 = arange(&[2, 3, 4, 5, 6]);
    check(
        &x5.view(),
        R,
        "a b c d e -> (e a) d (c b)",
        &[],
        &[12, 5, 12],
    );
    check(&x5.view(), R, "a b ... e -> b (a ...) e", &[], &[3, 40, 6]);
    let s = RawTensor::from_vec(vec![7.0f64], &[]).unwrap();
    let y = check(&s.view(), R, "... -> ...", &[], &[]);
    assert!(y.is_view());
    let x4 = arange(&[4, 5, 6, 3]);
    check(
        &x4.view(),
        R,
        "(a a2) b c ... -> b (c a2) (a ...)",
        &[("a2", 2)],
        &[5, 12, 6],
    );
}

#[test]
fn rearrange_of_a_strided_view_reads_through_its_layout() {
    let x = arange(&[4, 6]);
    let t = x.view().t().unwrap().slice(1, Some(1), None, 2).unwrap();
    let y = check(&t, R, "a (b c) -> c a b", &[("c", 1)], &[1, 6, 2]);
    assert!(y.is_view());
    check(&t, R, "a b -> (b a)", &[], &[12]);
}

#[test]
fn case_19_ellipsis_in_a_group_on_the_left() {
    let x = arange(&[2, 3, 4, 5, 6]);
    let err = einops::rearrange(&x.view(), "a b c d (...) -> a b c d", &[])
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        " Error while processing rearrange-reduction pattern \"a b c d (...) -> a b c d\".\n Input tensor shape: [2, 3, 4, 5, 6]. Additional info: {}.\n Ellipsis inside parenthesis in the left side is not allowed: a b c d (...) -> a b c d"
    );
    let Error::Einops(e) = err else {
        panic!("{err:?}")
    };
    assert_eq!(e.error.span().map(|s| s.text(&e.pattern)), Some("..."));
}

#[test]
fn reduce_cases_20_to_27() {
    use Reduction::*;
    let x = wavy(&[2, 3, 4, 5]);
    let x = x.view();
    check(&x, Operation::Reduce(Mean), "b c h w -> b c", &[], &[2, 3]);
    let x6 = wavy(&[2, 3, 4, 6]);
    let sizes = [("h2", 2), ("w2", 2)];
    check(
        &x6.view(),
        Operation::Reduce(Max),
        "b c (h h2) (w w2) -> b c h w",
        &sizes,
        &[2, 3, 2, 3],
    );
    check(
        &x6.view(),
        Operation::Reduce(Max),
        "b c (h 2) (w 2) -> b c h w",
        &[],
        &[2, 3, 2, 3],
    );
    let big = wavy(&[10, 20, 30, 40]);
    let sizes = [("h1", 3), ("w1", 4)];
    let pattern = "b c (h1 h2) (w1 w2) -> b c h1 w1";
    check(
        &big.view(),
        Operation::Reduce(Max),
        pattern,
        &sizes,
        &[10, 20, 3, 4],
    );
    check(
        &x,
        Operation::Reduce(Mean),
        "b c h w -> b c () ()",
        &[],
        &[2, 3, 1, 1],
    );
    check(
        &x,
        Operation::Reduce(Mean),
        "b c h w -> 1 c 1 1",
        &[],
        &[1, 3, 1, 1],
    );
    let x5 = wavy(&[2, 3, 4, 5, 6]);
    check(
        &x5.view(),
        Operation::Reduce(Sum),
        "a b c d e -> ",
        &[],
        &[],
    );
    check(
        &x5.view(),
        Operation::Reduce(Min),
        "a b c d e -> (e c) a",
        &[],
        &[24, 2],
    );
    let sizes = [("a1", 1), ("e2", 2)];
    check(
        &x5.view(),
        Operation::Reduce(Sum),
        "(a1 a2) ... (e1 e2) -> ",
        &sizes,
        &[],
    );
}

#[test]
fn every_reduction() {
    let x = wavy(&[2, 3, 4]);
    for r in Reduction::ALL {
        check(
            &x.view(),
            Operation::Reduce(r),
            "a b (c 2) -> b a c",
            &[],
            &[3, 2, 2],
        );
        check(&x.view(), Operation::Reduce(r), "a b c -> c", &[], &[4]);
    }
}

#[test]
fn reduce_without_reduced_axes_is_a_view() {
    let x = arange(&[2, 3]);
    let y = einops::reduce(&x.view(), "a b -> b a", Reduction::Sum, &[]).unwrap();
    assert!(y.is_view());
    assert_eq!(y.as_ref().strides(), &[1, 3]);
}

#[test]
fn reduce_dtypes_follow_the_reduction() {
    let x = RawTensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap();
    let s = einops::reduce(&x.view(), "a b -> a", Reduction::Sum, &[]).unwrap();
    assert_eq!(s.as_ref().dtype(), DType::I64);
    assert_eq!(s.as_ref().to_vec::<i64>().unwrap(), vec![3, 7]);
    let m = einops::reduce(&x.view(), "a b -> b", Reduction::Max, &[]).unwrap();
    assert_eq!(m.as_ref().to_vec::<i32>().unwrap(), vec![3, 4]);
    let any = einops::reduce(&x.view(), "a b -> a", Reduction::Any, &[]).unwrap();
    assert_eq!(any.as_ref().dtype(), DType::Bool);
}

#[test]
fn mean_of_an_integer_tensor() {
    let x = RawTensor::from_vec(vec![1i64, 2, 3, 4], &[2, 2]).unwrap();
    let err = einops::reduce(&x.view(), "a b -> a", Reduction::Mean, &[])
        .err()
        .unwrap();
    assert_eq!(
        err,
        Error::invalid(
            "reduce",
            "reduce_mean is not available for non-floating tensors"
        )
    );
    let same = einops::reduce(&x.view(), "a b -> a b", Reduction::Mean, &[]).unwrap();
    assert!(same.is_view());
}

#[test]
fn repeat_cases_28_to_31() {
    let x = arange(&[30, 40]);
    let y = check(
        &x.view(),
        Operation::Repeat,
        "h w -> h w c",
        &[("c", 3)],
        &[30, 40, 3],
    );
    assert!(y.is_view());
    assert_eq!(y.as_ref().strides(), &[40, 1, 0]);
    let sizes = [("h2", 2), ("w2", 2)];
    let y = check(
        &x.view(),
        Operation::Repeat,
        "h w -> (h h2) (w w2)",
        &sizes,
        &[60, 80],
    );
    assert!(!y.is_view());
    let x = arange(&[2, 3, 5]);
    let sizes = [("copy1", 2), ("copy2", 3)];
    let y = check(
        &x.view(),
        Operation::Repeat,
        "... -> copy1 ... copy2",
        &sizes,
        &[2, 2, 3, 5, 3],
    );
    assert!(y.is_view());
    assert_eq!(y.as_ref().strides(), &[0, 15, 5, 1, 0]);
    let x = arange(&[1, 2, 4, 6]);
    let pattern = "1 b c d -> (d copy 1) 3 b c";
    check(
        &x.view(),
        Operation::Repeat,
        pattern,
        &[("copy", 3)],
        &[18, 3, 2, 4],
    );
}

#[test]
fn case_32_a_list_is_stacked_first() {
    let parts: Vec<RawTensor> = (0..5)
        .map(|i| {
            let data: Vec<f64> = (0..12).map(|v| (v + 100 * i) as f64).collect();
            RawTensor::from_vec(data, &[3, 4]).unwrap()
        })
        .collect();
    let views: Vec<TensorRef<'_>> = parts.iter().map(RawTensor::view).collect();
    let y = einops::rearrange_list(&views, "b h w -> h (b w)", &[]).unwrap();
    assert_eq!(y.shape(), &[3, 20]);
    let stacked: Vec<f64> = parts
        .iter()
        .flat_map(|p| p.view().to_vec::<f64>().unwrap())
        .collect();
    let want = naive(&stacked, &[5, 3, 4], "b h w -> h (b w)", None, &[]);
    assert_eq!(y.view().to_vec::<f64>().unwrap(), want);
    let kept = einops::rearrange_list(&views, "b h w -> b h w", &[]).unwrap();
    assert_eq!(kept.view().to_vec::<f64>().unwrap(), stacked);
}

#[test]
fn list_errors() {
    let empty: [TensorRef<'_>; 0] = [];
    let err = einops::rearrange_list(&empty, "b h -> h b", &[])
        .err()
        .unwrap();
    assert_eq!(
        err,
        Error::invalid(
            "einops",
            "Rearrange/Reduce/Repeat can't be applied to an empty list"
        )
    );
    let (a, b) = (arange(&[3, 4]), arange(&[3, 5]));
    let err = einops::rearrange_list(&[a.view(), b.view()], "b h w -> h b w", &[])
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "stack: stack expects each tensor to be equal size, but got [3, 4] at entry 0 and [3, 5] at entry 1"
    );
    let err = einops::rearrange_list(&[a.view(), a.view()], "b h -> h b", &[])
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        " Error while processing rearrange-reduction pattern \"b h -> h b\".\n Input is list. Additional info: {}.\n Wrong shape: expected 2 dims. Received 3-dim tensor."
    );
}

/// The wrapped message of an op on a tensor of `shape`.
fn wrapped(operation: &str, pattern: &str, shape: &str, info: &str, message: &str) -> String {
    format!(
        " Error while processing {operation}-reduction pattern \"{pattern}\".\n Input tensor shape: {shape}. Additional info: {info}.\n {message}"
    )
}

fn rearrange_err(shape: &[usize], pattern: &str, sizes: &[(&str, usize)]) -> String {
    let x = RawTensor::zeros(shape, DType::F32).unwrap();
    einops::rearrange(&x.view(), pattern, sizes)
        .err()
        .unwrap()
        .to_string()
}

#[test]
fn runtime_errors_are_wrapped_as_einops_wraps_them() {
    assert_eq!(
        rearrange_err(&[2, 3, 4, 5], "a b c -> c b a", &[]),
        wrapped(
            "rearrange",
            "a b c -> c b a",
            "[2, 3, 4, 5]",
            "{}",
            "Wrong shape: expected 3 dims. Received 4-dim tensor."
        )
    );
    assert_eq!(
        rearrange_err(&[2], "a b ... -> b a ...", &[]),
        wrapped(
            "rearrange",
            "a b ... -> b a ...",
            "[2]",
            "{}",
            "Wrong shape: expected >=2 dims. Received 1-dim tensor."
        )
    );
    assert_eq!(
        rearrange_err(&[6], "(a b) -> a b", &[]),
        wrapped(
            "rearrange",
            "(a b) -> a b",
            "[6]",
            "{}",
            "Could not infer sizes for {'a', 'b'}"
        )
    );
    assert_eq!(
        rearrange_err(&[6, 2], "(a b) c -> a b c", &[("b", 4)]),
        wrapped(
            "rearrange",
            "(a b) c -> a b c",
            "[6, 2]",
            "{'b': 4}",
            "Shape mismatch, can't divide axis of length 6 in chunks of 4"
        )
    );
    assert_eq!(
        rearrange_err(&[6, 2], "(a b) c -> a b c", &[("a", 2), ("b", 2)]),
        wrapped(
            "rearrange",
            "(a b) c -> a b c",
            "[6, 2]",
            "{'a': 2, 'b': 2}",
            "Shape mismatch, 6 != 4"
        )
    );
    assert_eq!(
        rearrange_err(&[2, 3], "a b -> b a", &[("e", 3)]),
        wrapped(
            "rearrange",
            "a b -> b a",
            "[2, 3]",
            "{'e': 3}",
            "Axis e is not used in transform"
        )
    );
    assert_eq!(
        rearrange_err(&[2, 3], "a b -> b a e", &[]),
        wrapped(
            "rearrange",
            "a b -> b a e",
            "[2, 3]",
            "{}",
            "Identifiers only on one side of expression (should be on both): {'e'}"
        )
    );
    assert_eq!(
        rearrange_err(&[2, 3], "a b -> a (b", &[]),
        wrapped(
            "rearrange",
            "a b -> a (b",
            "[2, 3]",
            "{}",
            "Imbalanced parentheses in expression: \" a (b\""
        )
    );
    let x = RawTensor::zeros(&[2, 3], DType::F32).unwrap();
    let err = einops::repeat(&x.view(), "a b -> a b c", &[])
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        wrapped(
            "repeat",
            "a b -> a b c",
            "[2, 3]",
            "{}",
            "Specify sizes for new axes in repeat: {'c'}"
        )
    );
    let err = einops::reduce(&x.view(), "a b -> a c", Reduction::Max, &[])
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        wrapped(
            "max",
            "a b -> a c",
            "[2, 3]",
            "{}",
            "Unexpected identifiers on the right side of reduce max: {'c'}"
        )
    );
}

#[test]
fn a_runtime_error_keeps_the_span_of_its_group() {
    let x = RawTensor::zeros(&[6, 2], DType::F32).unwrap();
    let err = einops::rearrange(&x.view(), "(a b) c -> a b c", &[("b", 4)])
        .err()
        .unwrap();
    let Error::Einops(e) = err else {
        panic!("{err:?}")
    };
    assert_eq!(e.error.span().map(|s| s.text(&e.pattern)), Some("(a b)"));
    assert_eq!((e.reduction, e.shape), ("rearrange", Some(vec![6, 2])));
    assert_eq!(e.sizes, vec![("b".to_owned(), 4)]);
}

#[test]
fn a_recipe_built_once_runs_on_many_shapes() -> Result<()> {
    let p = Pattern::parse("b ... (c p) -> b (... c) p")?;
    let recipe = Recipe::new(&p, Operation::Rearrange, &["p"])?;
    for shape in [vec![2, 6], vec![2, 3, 6], vec![2, 3, 4, 6]] {
        let x = arange(&shape);
        let y = einops::apply(&x.view(), &recipe, &[3])?;
        let want = naive(
            &x.view().to_vec::<f64>()?,
            &shape,
            p.text(),
            None,
            &[("p", 3)],
        );
        assert_eq!(values(&y), want);
    }
    let x = arange(&[2, 5]);
    let err = einops::apply(&x.view(), &recipe, &[3]).err().unwrap();
    assert_eq!(
        err.to_string(),
        wrapped(
            "rearrange",
            p.text(),
            "[2, 5]",
            "{'p': 3}",
            "Shape mismatch, can't divide axis of length 5 in chunks of 3"
        )
    );
    Ok(())
}

#[test]
fn parse_shape_names_the_lengths() -> Result<()> {
    let x = RawTensor::zeros(&[2, 3, 5, 7], DType::F32)?;
    let x = x.view();
    let named = |v: &[(&str, usize)]| -> Vec<(String, usize)> {
        v.iter().map(|(k, n)| (k.to_string(), *n)).collect()
    };
    assert_eq!(
        einops::parse_shape(&x, "batch _ h w")?,
        named(&[("batch", 2), ("h", 5), ("w", 7)])
    );
    assert_eq!(
        einops::parse_shape(&x, "b ... w")?,
        named(&[("b", 2), ("w", 7)])
    );
    assert_eq!(einops::parse_shape(&x, "_ 3 _ _")?, named(&[]));
    assert_eq!(einops::parse_shape(&x, "... a b c d")?.len(), 4);
    let err = |p: &str| einops::parse_shape(&x, p).unwrap_err().to_string();
    assert_eq!(
        err("b (c h) w"),
        "parse_shape: Can't parse shape with composite axes: b (c h) w [2, 3, 5, 7]"
    );
    assert_eq!(
        err("b c h"),
        "parse_shape: Can't parse shape with different number of dimensions: b c h [2, 3, 5, 7]"
    );
    assert_eq!(
        err("a b c d e ..."),
        "parse_shape: Can't parse shape with this number of dimensions: a b c d e ... [2, 3, 5, 7]"
    );
    assert_eq!(
        err("b 1 h w"),
        "parse_shape: Length of axis is not 1: b 1 h w [2, 3, 5, 7]"
    );
    assert_eq!(
        err("b 4 h w"),
        "parse_shape: Length of anonymous axis does not match: b 4 h w [2, 3, 5, 7]"
    );
    assert_eq!(
        err("b b h w"),
        "parse_shape: Indexing expression contains duplicate dimension \"b\""
    );
    Ok(())
}
