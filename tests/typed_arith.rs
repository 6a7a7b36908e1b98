//! Elementwise ops through the typed API: broadcasting by name, scalars on
//! either side, the operators, in-place rules, dtypes of results, comparisons and `if_else`. Values are checked against a
//! naive evaluation or against the untyped core on the same data.

use axial::prelude::*;
use axial_core::{BinaryOp, RawTensor};

axes!(Batch, Rows, Cols, N, C, Win);

type Grid = shape![Rows: 3, Cols: 4];
type Row = shape![Cols: 4];
type Column = shape![Rows: 3, Cols: 1];
type Batched = shape![Batch: 2, Rows: 3, Cols: 1];

/// `f(i)` for each row-major index `i` of a static shape.
fn filled<S: axial::Shape + axial::shape::StaticShape + axial::shape::Distinct>(
    f: impl Fn(usize) -> f32,
) -> Tensor<f32, S> {
    let n = Tensor::<f32, S>::zeros().numel();
    Tensor::from_vec((0..n).map(f).collect())
}

/// The row-major index of `coords` in `sizes`, with size-1 axes broadcast.
fn broadcast_index(coords: &[usize], sizes: &[usize]) -> usize {
    let skip = coords.len() - sizes.len();
    sizes.iter().enumerate().fold(0, |at, (d, &n)| {
        let c = if n == 1 { 0 } else { coords[skip + d] };
        at * n + c
    })
}

/// Every coordinate of `sizes` in row-major order.
fn coordinates(sizes: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &n in sizes {
        all = all
            .into_iter()
            .flat_map(|c| {
                (0..n).map(move |i| {
                    let mut c = c.clone();
                    c.push(i);
                    c
                })
            })
            .collect();
    }
    all
}

#[test]
fn broadcast_pairs_axes_by_name_from_the_right() {
    let a = filled::<Batched>(|i| i as f32);
    let b = filled::<Row>(|i| 10.0 * i as f32);
    let c = &a + &b;
    assert_eq!(
        c.names().as_slice(),
        &[Some("Batch"), Some("Rows"), Some("Cols")]
    );
    assert_eq!(c.sizes().as_slice(), &[2, 3, 4]);
    let (av, bv) = (a.to_vec(), b.to_vec());
    let expected: Vec<f32> = coordinates(&[2, 3, 4])
        .iter()
        .map(|x| av[broadcast_index(x, &[2, 3, 1])] + bv[broadcast_index(x, &[4])])
        .collect();
    assert_eq!(c.to_vec(), expected);
}

#[test]
fn typed_results_equal_the_core_on_the_same_data() {
    let a = filled::<Column>(|i| i as f32 - 1.0);
    let b = filled::<Grid>(|i| 0.5 * i as f32 + 0.25);
    let core_a = RawTensor::from_vec(a.to_vec(), &[3, 1]).unwrap();
    let core_b = RawTensor::from_vec(b.to_vec(), &[3, 4]).unwrap();
    let cases: [(BinaryOp, Vec<f32>); 5] = [
        (BinaryOp::Add, a.add(&b).to_vec()),
        (BinaryOp::Sub, a.sub(&b).to_vec()),
        (BinaryOp::Mul, a.mul(&b).to_vec()),
        (BinaryOp::Div, a.div(&b).to_vec()),
        (BinaryOp::Maximum, a.maximum(&b).to_vec()),
    ];
    for (op, typed) in cases {
        let core = core_a.view().binary(op, &core_b.view()).unwrap();
        assert_eq!(typed, core.to_vec::<f32>().unwrap(), "{op:?}");
    }
}

#[test]
fn semantics_broadcast_examples() {
    // (5,1,4,1) + (3,1,1) -> (5,3,4,1), anonymous axes.
    type Wide = shape![5, 3, 4, 1];
    let a = Tensor::<f32, shape![5, 1, 4, 1]>::ones();
    let b = Tensor::<f32, shape![3, 1, 1]>::ones();
    let c: Tensor<f32, Wide> = a + b;
    assert_eq!(c.sizes().as_slice(), &[5, 3, 4, 1]);
    // () + (2,3) -> (2,3)
    let s = Tensor::<f32, shape![]>::full(2.0);
    let m = Tensor::<f32, shape![2, 3]>::ones();
    assert_eq!((&s + &m).to_vec(), vec![3.0; 6]);
    // (2,1) + (1,0) -> (2,0)
    let e = Tensor::<f32, shape![2, 1]>::ones() + Tensor::<f32, shape![1, 0]>::ones();
    assert_eq!(e.sizes().as_slice(), &[2, 0]);
}

#[test]
fn semantics_named_broadcast_examples() {
    // [N,C] + [C] -> [N,C]
    let nc = Tensor::<f32, shape![N: 2, C: 3]>::ones();
    let c = Tensor::<f32, shape![C: 3]>::ones();
    assert_eq!((&nc + &c).names().as_slice(), &[Some("N"), Some("C")]);
    // [None,C] + [N,None] -> [N,C]
    let anon_c = Tensor::<f32, shape![2, C: 3]>::ones();
    let n_anon = Tensor::<f32, shape![N: 2, 3]>::ones();
    assert_eq!(
        (&anon_c + &n_anon).names().as_slice(),
        &[Some("N"), Some("C")]
    );
    // [N,C] + unnamed (5,2,3) -> (None,N,C)
    let unnamed = Tensor::<f32, shape![5, 2, 3]>::ones();
    let r = &nc + &unnamed;
    assert_eq!(r.names().as_slice(), &[None, Some("N"), Some("C")]);
    assert_eq!(r.sizes().as_slice(), &[5, 2, 3]);
}

#[test]
fn dyn_sizes_are_checked_at_run_time() {
    type DynRows = shape![Rows: Dyn, Cols: 4];
    let grid = Tensor::<f32, Grid>::ones();
    let one = Tensor::<f32, DynRows>::ones_dyn(1);
    let stretched: Tensor<f32, Grid> = grid.try_add(&one).unwrap();
    assert_eq!(stretched.to_vec(), vec![2.0; 12]);
    let two = Tensor::<f32, DynRows>::ones_dyn(2);
    assert_eq!(
        grid.try_add(&two).unwrap_err().to_string(),
        "add: the size of axis `Rows` in tensor a (3) must match its size in tensor b (2), or one of them be 1: a is (Rows: 3, Cols: 4), b is (Rows: 2, Cols: 4)"
    );
    let dyn_cols = Tensor::<f32, shape![Cols: Dyn]>::ones_dyn(5);
    assert!(grid.try_mul(&dyn_cols).is_err());
}

#[test]
fn scalars_on_either_side() {
    let x = Tensor::<f32, shape![Cols: 3]>::from_array([1.0, 2.0, 4.0]);
    assert_eq!((&x + 1.0).to_vec(), vec![2.0, 3.0, 5.0]);
    assert_eq!((1.0 - &x).to_vec(), vec![0.0, -1.0, -3.0]);
    assert_eq!((4.0 / &x).to_vec(), vec![4.0, 2.0, 1.0]);
    assert_eq!((&x * 2.0).to_vec(), vec![2.0, 4.0, 8.0]);
    assert_eq!(x.pow(2.0).to_vec(), vec![1.0, 4.0, 16.0]);
    assert_eq!((-&x).to_vec(), vec![-1.0, -2.0, -4.0]);
    let h = Tensor::<f16, shape![2]>::from_array([f16::from_f32(1.5), f16::from_f32(-2.0)]);
    assert_eq!(
        (&h * f16::from_f32(2.0)).to_vec(),
        vec![f16::from_f32(3.0), f16::from_f32(-4.0)]
    );
}

#[test]
fn division_of_integers_is_true_division() {
    let a = Tensor::<i32, shape![Cols: 3]>::from_array([7, -7, 1]);
    let b = Tensor::<i32, shape![Cols: 3]>::from_array([2, 2, 0]);
    let q: Tensor<f32, shape![Cols: 3]> = &a / &b;
    assert_eq!(q.to_vec(), vec![3.5, -3.5, f32::INFINITY]);
    let floor = a.floor_divide(2);
    assert_eq!(floor.to_vec(), vec![3, -4, 0]);
    assert_eq!(a.rem(2).to_vec(), vec![1, 1, 1]);
    assert_eq!(
        a.try_rem(&b).unwrap_err().to_string(),
        "remainder: ZeroDivisionError"
    );
}

#[test]
fn in_place_twins_write_self() {
    // (3,4).add_((4,)) and (1,4).add_((4,)) work.
    let mut grid = filled::<Grid>(|i| i as f32);
    let row = filled::<Row>(|i| 100.0 * i as f32);
    let expected = grid.add(&row).to_vec();
    grid.add_(&row);
    assert_eq!(grid.to_vec(), expected);
    let mut one_row = Tensor::<f32, shape![Rows: 1, Cols: 4]>::ones();
    one_row += &row;
    assert_eq!(one_row.to_vec(), vec![1.0, 101.0, 201.0, 301.0]);
    let mut ints = Tensor::<i64, shape![Cols: 3]>::from_array([5, 6, 7]);
    ints -= 1;
    ints *= 2;
    ints %= 5;
    assert_eq!(ints.to_vec(), vec![3, 0, 2]);
    let mut halves = Tensor::<bf16, shape![2]>::from_array([bf16::from_f32(1.0), bf16::ONE]);
    halves /= bf16::from_f32(4.0);
    assert_eq!(halves.to_vec(), vec![bf16::from_f32(0.25); 2]);
}

#[test]
fn in_place_with_dyn_sizes_refuses_a_larger_result() {
    type DynRows = shape![Rows: Dyn, Cols: 4];
    let mut one = Tensor::<f32, DynRows>::zeros_dyn(1);
    let grid = Tensor::<f32, Grid>::ones();
    assert_eq!(
        one.try_add_(&grid).unwrap_err().to_string(),
        "add: an in-place op keeps self's shape (Rows: 1, Cols: 4), but the operand (Rows: 3, Cols: 4) broadcasts to another"
    );
    assert_eq!(one.to_vec(), vec![0.0; 4]);
    let mut three = Tensor::<f32, DynRows>::zeros_dyn(3);
    three.try_add_(&grid).unwrap();
    assert_eq!(three.to_vec(), vec![1.0; 12]);
}

#[test]
fn in_place_through_a_view_shows_in_the_owner() {
    let mut grid = Tensor::<f32, Grid>::zeros();
    grid.as_view_mut().select::<Rows>(1).add_(5.0);
    grid.as_view_mut().select::<Cols>(0).mul_(0.0);
    let expected: Vec<f32> = (0..12)
        .map(|i| if i / 4 == 1 && i % 4 != 0 { 5.0 } else { 0.0 })
        .collect();
    assert_eq!(grid.to_vec(), expected);
}

#[test]
fn in_place_on_a_shared_tensor_copies_first() {
    let a = Tensor::<f32, Row>::ones().into_shared();
    let mut b = a.clone();
    b.add_(1.0);
    assert_eq!(a.to_vec(), vec![1.0; 4]);
    assert_eq!(b.to_vec(), vec![2.0; 4]);
    assert!(!a.shares_storage_with(&b));
}

/// Overlapping windows are read-only in the type (`add_` on them does not
/// compile, see `ui-tests/fail/write_through_unfold.rs`); making them
/// writable is the checked step, refused with PyTorch's words.
#[test]
fn in_place_into_overlapping_windows_is_refused() {
    let mut x = Tensor::<f32, shape![Cols: 5]>::arange();
    let windows = x.as_view_mut().unfold::<Cols, Win>(3, 1);
    assert_eq!(
        windows.try_into_writable().unwrap_err().to_string(),
        "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
    );
    assert_eq!(x.to_vec(), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn unary_ops_keep_shape_and_dtype() {
    let x = Tensor::<f32, Grid>::arange();
    let root: Tensor<f32, Grid> = x.sqrt();
    let expected: Vec<f32> = (0..12).map(|i| (i as f32).sqrt()).collect();
    assert_eq!(root.to_vec(), expected);
    let e = Tensor::<f64, shape![3]>::from_array([0.0, 1.0, -1.0]).exp();
    assert_eq!(e.to_vec(), vec![1.0, 1f64.exp(), (-1f64).exp()]);
    let h = Tensor::<f16, shape![2]>::from_array([f16::from_f32(4.0), f16::from_f32(0.25)]);
    assert_eq!(
        h.sqrt().to_vec(),
        vec![f16::from_f32(2.0), f16::from_f32(0.5)]
    );
    let ints = Tensor::<i8, shape![3]>::from_array([-3, 0, 5]);
    assert_eq!(ints.abs().to_vec(), vec![3, 0, 5]);
    assert_eq!(ints.neg().to_vec(), vec![3, 0, -5]);
    assert_eq!(ints.clamp(-1, 1).to_vec(), vec![-1, 0, 1]);
    assert_eq!(
        ints.logical_not().to_vec(),
        vec![Bool::FALSE, Bool::TRUE, Bool::FALSE]
    );
    let mut y = Tensor::<f32, shape![2]>::from_array([-1.0, 2.0]);
    y.relu_();
    y.exp_();
    assert_eq!(y.to_vec(), vec![1.0, 2f32.exp()]);
}

#[test]
fn comparisons_broadcast_and_give_bool() {
    let grid = Tensor::<i64, Grid>::arange();
    let row = Tensor::<i64, Row>::from_array([0, 5, 6, 11]);
    let eq = grid.eq(&row);
    let expected: Vec<bool> = (0..12).map(|i| [0, 5, 6, 11][i % 4] == i).collect();
    assert_eq!(
        eq.to_vec().iter().map(|b| b.get()).collect::<Vec<_>>(),
        expected
    );
    let big = grid.ge(6);
    assert_eq!(big.to_vec().iter().filter(|b| b.get()).count(), 6);
    let lt = grid.lt(&row).logical_and(&grid.gt(0));
    let expected: Vec<bool> = (0..12).map(|i| i < [0, 5, 6, 11][i % 4] && i > 0).collect();
    assert_eq!(
        lt.to_vec().iter().map(|b| b.get()).collect::<Vec<_>>(),
        expected
    );
}

#[test]
fn if_else_chooses_with_broadcasting() {
    let x = Tensor::<f32, Grid>::arange() - 6.0;
    let relu = x.gt(0.0).if_else(&x, 0.0);
    assert_eq!(relu.to_vec(), x.relu().to_vec());
    let mask = Tensor::<Bool, Row>::from_array([Bool::TRUE, Bool::FALSE, Bool::TRUE, Bool::FALSE]);
    let column = Tensor::<f32, Column>::from_array([[1.0], [2.0], [3.0]]);
    let chosen = mask.if_else(&column, -1.0);
    assert_eq!(chosen.names().as_slice(), &[Some("Rows"), Some("Cols")]);
    assert_eq!(
        chosen.to_vec(),
        vec![
            1.0, -1.0, 1.0, -1.0, 2.0, -1.0, 2.0, -1.0, 3.0, -1.0, 3.0, -1.0
        ]
    );
}

#[test]
fn bool_arithmetic_is_logic() {
    let a = Tensor::<Bool, shape![2]>::from_array([Bool::TRUE, Bool::FALSE]);
    let b = Tensor::<Bool, shape![2]>::from_array([Bool::TRUE, Bool::TRUE]);
    assert_eq!((&a + &b).to_vec(), vec![Bool::TRUE, Bool::TRUE]);
    assert_eq!((&a * &b).to_vec(), vec![Bool::TRUE, Bool::FALSE]);
    let q: Tensor<f32, shape![2]> = &a / &b;
    assert_eq!(q.to_vec(), vec![1.0, 0.0]);
}

#[test]
fn operators_take_owned_and_borrowed_operands() {
    let x = Tensor::<f32, Row>::ones();
    let y = (x.clone() + &x) * (&x + x.clone());
    assert_eq!(y.to_vec(), vec![4.0; 4]);
    let view = x.as_view();
    let z = &view - view.clone();
    assert_eq!(z.to_vec(), vec![0.0; 4]);
}

#[test]
fn copy_broadcasts_and_converts_into_self() {
    let mut grid = Tensor::<i64, Grid>::zeros();
    let column = Tensor::<f64, Column>::from_array([[1.9], [-2.9], [3.0]]);
    grid.as_view_mut().narrow::<Cols>(1, 2).copy_(&column);
    let expected: Vec<i64> = (0..12)
        .map(|i| {
            if (1..3).contains(&(i % 4)) {
                [1, -2, 3][i / 4]
            } else {
                0
            }
        })
        .collect();
    assert_eq!(grid.to_vec(), expected);
    let mut x = Tensor::<f32, shape![Cols: 5]>::zeros();
    let windows = x.as_view_mut().unfold::<Cols, Win>(3, 1);
    assert!(windows.try_into_writable().is_err());
}

/// A run-time size check between `Dyn` axes names the axis and prints both
/// shapes with names and sizes (PyTorch names only the position).
#[test]
fn dyn_size_mismatches_name_the_axis_and_both_shapes() {
    axes!(Seq, Model);
    let a = Tensor::<f32, shape![Batch: 2, Seq: Dyn]>::zeros_dyn(5);
    let b = Tensor::<f32, shape![Batch: 2, Seq: Dyn]>::zeros_dyn(6);
    assert_eq!(
        a.try_add(&b).unwrap_err().to_string(),
        "add: the size of axis `Seq` in tensor a (5) must match its size in tensor b (6), or one of them be 1: a is (Batch: 2, Seq: 5), b is (Batch: 2, Seq: 6)"
    );
    // The same words for comparisons, in place and through the operators.
    assert!(
        a.try_lt(&b)
            .unwrap_err()
            .to_string()
            .contains("axis `Seq` in tensor a (5)")
    );
    let mut c = a.clone();
    assert_eq!(
        c.try_mul_(&b).unwrap_err().to_string(),
        "mul: the size of axis `Seq` in tensor a (5) must match its size in tensor b (6), or one of them be 1: a is (Batch: 2, Seq: 5), b is (Batch: 2, Seq: 6)"
    );
    assert_eq!(
        c.try_copy_(&b).unwrap_err().to_string(),
        "copy_: the operand (Batch: 2, Seq: 6) does not broadcast to self's shape (Batch: 2, Seq: 5): each of its axes needs self's size there, or 1"
    );
    // An anonymous axis on one side takes the other side's name.
    let anon = Tensor::<f32, shape![Dyn]>::zeros_dyn(4);
    assert!(
        a.try_add(&anon)
            .unwrap_err()
            .to_string()
            .contains("axis `Seq` in tensor a (5) must match its size in tensor b (4)")
    );
    // matmul: the contracted axis, and batch axes.
    let x = Tensor::<f32, shape![Seq: 3, Model: Dyn]>::zeros_dyn(4);
    let w = Tensor::<f32, shape![Model: Dyn, Cols: 2]>::zeros_dyn(5);
    assert_eq!(
        x.try_matmul(&w).unwrap_err().to_string(),
        "matmul: the contracted axis `Model` must have one size, but it is 4 in the left operand (Seq: 3, Model: 4) and 5 in the right operand (Model: 5, Cols: 2)"
    );
    let p = Tensor::<f32, shape![Batch: Dyn, Seq: 2, Model: 2]>::zeros_dyn(3);
    let q = Tensor::<f32, shape![Batch: Dyn, Model: 2, Cols: 2]>::zeros_dyn(4);
    assert_eq!(
        p.try_matmul(&q).unwrap_err().to_string(),
        "matmul: the batch axis `Batch` has size 3 in the left operand (Batch: 3, Seq: 2, Model: 2) and 4 in the right operand (Batch: 4, Model: 2, Cols: 2), and neither is 1"
    );
}

/// `Tensor::randn(rng) * scale` takes its shape and dtype from where it goes
/// (a field, a return type): the scalar ops give `self`'s shape as it is.
#[test]
fn scalar_ops_keep_the_shape_inferable() {
    type Weights = shape![Rows: 3, Cols: 2];
    struct Layer {
        w: Tensor<f32, Weights>,
        b: Tensor<f32, shape![Cols: 2]>,
    }
    let mut rng = Generator::seed(3);
    let layer = Layer {
        w: Tensor::randn(&mut rng) * 0.125,
        b: Tensor::ones() + 1.0,
    };
    assert_eq!(layer.w.sizes().as_slice(), &[3, 2]);
    assert_eq!(layer.b.to_vec(), vec![2.0, 2.0]);
    fn scaled() -> Tensor<f64, shape![Rows: 2]> {
        Tensor::full(3.0) - 1.0
    }
    assert_eq!(scaled().to_vec(), vec![2.0, 2.0]);
    let halves: Tensor<f32, shape![Cols: 2]> = &Tensor::ones() / 2.0f32;
    assert_eq!(halves.to_vec(), vec![0.5, 0.5]);
}
