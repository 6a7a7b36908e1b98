//! Every layout op on the edges of its domain: 0-dim layouts, sizes of 0,
//! negative and out-of-range dims, and the strides `unflatten` and `expand`
//! give. Expected values are PyTorch 2.15's (run with the same arguments).

use axial_core::Layout;

fn parts(l: &Layout) -> (Vec<usize>, Vec<isize>, usize) {
    (l.shape().to_vec(), l.strides().to_vec(), l.offset())
}

fn err<T: std::fmt::Debug>(r: axial_core::Result<T>) -> String {
    r.unwrap_err().to_string()
}

const OUT_OF_RANGE_0D: &str =
    "Dimension out of range (expected to be in range of [-1, 0], but got 1)";

// ---- 0-dim layouts ----

#[test]
fn movedim_of_a_0_dim_layout_is_the_layout() {
    let s = Layout::from_parts(&[], &[], 3);
    for (src, dst) in [(0, 0), (-1, 0), (0, -1), (-1, -1)] {
        assert_eq!(s.movedim(&[src], &[dst]).unwrap(), s, "{src} -> {dst}");
    }
    assert_eq!(s.movedim(&[], &[]).unwrap(), s);
    assert_eq!(err(s.movedim(&[1], &[0])), OUT_OF_RANGE_0D);
    assert_eq!(
        err(s.movedim(&[0, -1], &[0, 0])),
        "movedim: repeated dim in `source` ([0, -1])"
    );
}

#[test]
fn every_view_op_of_a_0_dim_layout_answers_as_pytorch() {
    let s = Layout::contiguous(&[]);
    assert_eq!(
        err(s.slice(3, None, None, 1)),
        "slice: slice() cannot be applied to a 0-dim tensor."
    );
    assert_eq!(
        err(s.select(0, 0)),
        "select: select() cannot be applied to a 0-dim tensor."
    );
    assert_eq!(
        err(s.narrow(0, 0, 1)),
        "narrow: narrow() cannot be applied to a 0-dim tensor."
    );
    assert_eq!(parts(&s.unsqueeze(-1).unwrap()), (vec![1], vec![1], 0));
    assert_eq!(err(s.unsqueeze(1)), OUT_OF_RANGE_0D);
    assert_eq!(s.squeeze_dims(&[-1]).unwrap(), s);
    assert_eq!(
        err(s.squeeze_dims(&[0, -1])),
        "squeeze: dim 0 appears multiple times in the list of dims"
    );
    assert_eq!(s.transpose(0, -1).unwrap(), s);
    assert_eq!(s.t().unwrap(), s);
    assert_eq!(s.permute(&[]).unwrap(), s);
    assert!(s.permute(&[0]).is_err());
    assert_eq!(err(s.diagonal(0, 0, 1)), OUT_OF_RANGE_0D);
    assert_eq!(parts(&s.unfold(0, 1, 1).unwrap()), (vec![1], vec![1], 0));
    assert_eq!(parts(&s.unfold(-1, 0, 1).unwrap()), (vec![0], vec![1], 0));
    assert_eq!(s.flatten_shape(0, -1).unwrap().as_slice(), &[1]);
    assert_eq!(err(s.flatten_shape(0, 1)), OUT_OF_RANGE_0D);
    assert_eq!(
        err(s.unflatten(0, &[1])),
        "unflatten: Dimension specified as 0 but tensor has no dimensions"
    );
    assert_eq!(
        err(s.unflatten(-1, &[-1])),
        "unflatten: Dimension specified as 0 but tensor has no dimensions"
    );
    assert_eq!(
        err(s.unflatten(0, &[])),
        "unflatten: sizes must be non-empty"
    );
    assert_eq!(
        parts(&s.view(&[1, 1]).unwrap()),
        (vec![1, 1], vec![1, 1], 0)
    );
    assert_eq!(parts(&s.view(&[-1]).unwrap()), (vec![1], vec![1], 0));
}

// ---- sizes of 0 ----

#[test]
fn view_ops_of_empty_layouts_follow_pytorch() {
    let z = Layout::contiguous(&[0, 3]);
    assert_eq!(
        parts(&z.unfold(0, 0, 1).unwrap()),
        (vec![1, 3, 0], vec![3, 1, 3], 0)
    );
    assert_eq!(
        parts(&z.unfold(1, 2, 1).unwrap()),
        (vec![0, 2, 2], vec![3, 1, 1], 0)
    );
    assert_eq!(parts(&z.diagonal(1, 0, 1).unwrap()), (vec![0], vec![4], 0));
    assert_eq!(parts(&z.select(1, 0).unwrap()), (vec![0], vec![3], 0));
    assert_eq!(
        err(z.select(0, 0)),
        "select(): index 0 out of range for tensor of size [0, 3] at dimension 0"
    );
    assert_eq!(
        parts(&z.narrow(0, 0, 0).unwrap()),
        (vec![0, 3], vec![3, 1], 0)
    );
    // An empty slice still moves the offset (`x[5:10]` of 3 rows).
    let x = Layout::contiguous(&[3, 4, 5]);
    assert_eq!(x.slice(0, Some(5), Some(10), 1).unwrap().offset(), 60);
    let e = Layout::contiguous(&[0, 2, 1])
        .slice(2, Some(1), Some(-1), 2)
        .unwrap();
    assert_eq!(parts(&e), (vec![0, 2, 0], vec![2, 1, 2], 1));
    assert_eq!(
        err(Layout::contiguous(&[0, 4]).view(&[-1, 0])),
        "view: cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous"
    );
}

// ---- negative and out-of-range arguments ----

#[test]
fn negative_and_out_of_range_arguments_give_pytorchs_errors() {
    let x = Layout::contiguous(&[2, 3, 4]);
    assert_eq!(
        err(x.transpose(3, 0)),
        "Dimension out of range (expected to be in range of [-3, 2], but got 3)"
    );
    assert_eq!(
        err(x.narrow(1, 4, 1)),
        "narrow: start out of range (expected to be in range of [-3, 3], but got 4)"
    );
    assert_eq!(
        err(x.narrow(1, 2, usize::MAX)),
        format!(
            "narrow: start (2) + length ({}) exceeds dimension size (3).",
            usize::MAX
        )
    );
    assert_eq!(
        err(x.select(1, -4)),
        "select(): index -4 out of range for tensor of size [2, 3, 4] at dimension 1"
    );
    assert_eq!(
        err(x.view(&[-2, -6])),
        "view: invalid shape dimension -2 at index 0 of shape [-2, -6]"
    );
    assert_eq!(
        err(x.view(&[-1, -1])),
        "view: only one dimension can be inferred"
    );
    assert_eq!(
        err(x.squeeze_dims(&[2, -1])),
        "squeeze: dim 2 appears multiple times in the list of dims"
    );
    // movedim wraps every dim of both lists before it looks for repeats.
    assert_eq!(
        err(x.movedim(&[0, 0], &[1, 5])),
        "Dimension out of range (expected to be in range of [-3, 2], but got 5)"
    );
    assert_eq!(
        err(x.movedim(&[0, 1], &[2, -1])),
        "movedim: repeated dim in `destination` ([2, -1])"
    );
    assert_eq!(
        err(x.permute(&[0, 0, 1])),
        "permute: duplicate dims are not allowed."
    );
    assert_eq!(
        err(x.unflatten(1, &[-1, -1])),
        "view: only one dimension can be inferred"
    );
    assert_eq!(
        err(x.unflatten(1, &[-2, -2])),
        "view: invalid shape dimension -2 at index 0 of shape [-2, -2]"
    );
    assert_eq!(
        err(Layout::contiguous(&[3, 0]).unflatten(1, &[0, -1])),
        "view: cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified dimension size -1 can be any value and is ambiguous"
    );
    assert_eq!(
        err(x.unflatten(1, &[2, -1])),
        "unflatten: Provided sizes [2, -1] don't multiply up to the size of dim 1 (3) in the input tensor"
    );
    // A shape whose product overflows is invalid, not a wrapped product.
    assert!(x.view(&[isize::MAX, isize::MAX, 2]).is_err());
    assert!(x.diagonal(isize::MIN, 0, 1).is_ok());
    assert!(x.diagonal(isize::MAX, 0, 1).is_ok());
}

// ---- unflatten is a view ----

/// Shapes and their factorizations up to a few elements, sizes 0 and 1 included.
fn splits(n: usize) -> Vec<Vec<isize>> {
    let mut out = vec![];
    for a in 0..=n.max(1) {
        for b in 0..=n.max(1) {
            if a * b == n {
                out.push(vec![a as isize, b as isize]);
                out.push(vec![a as isize, 1, b as isize]);
                if a > 0 {
                    out.push(vec![a as isize, -1]);
                }
                if b > 0 {
                    out.push(vec![-1, 1, b as isize]);
                }
            }
        }
    }
    out
}

#[test]
fn unflatten_gives_the_strides_of_view() {
    let x = Layout::contiguous(&[3, 5, 4, 0]);
    let y = x.unflatten(3, &[1, -1]).unwrap();
    assert_eq!(parts(&y), (vec![3, 5, 4, 1, 0], vec![20, 4, 1, 1, 1], 0));
    let bases = [
        Layout::contiguous(&[3, 4, 2]),
        Layout::contiguous(&[2, 0, 3]),
        Layout::contiguous(&[4, 6]).t().unwrap(),
        Layout::contiguous(&[6, 4]).slice(0, None, None, 2).unwrap(),
        Layout::contiguous(&[1, 4, 1]).expand(&[3, 4, 2]).unwrap(),
        Layout::from_parts(&[2, 1, 3], &[3, 100, 1], 0),
    ];
    let mut checked = 0;
    for base in &bases {
        for d in 0..base.rank() {
            for sizes in splits(base.shape()[d]) {
                let Ok(u) = base.unflatten(d as isize, &sizes) else {
                    continue;
                };
                let shape: Vec<isize> = u.shape().iter().map(|&n| n as isize).collect();
                let v = base.view(&shape).unwrap();
                assert_eq!(u, v, "{base:?} unflatten({d}, {sizes:?})");
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "{checked}");
}

// ---- expand ----

#[test]
fn expand_of_a_0_dim_layout_has_stride_0() {
    let s = Layout::from_parts(&[], &[], 2);
    for (sizes, strides) in [
        (vec![1], vec![0]),
        (vec![3], vec![0]),
        (vec![2, 1], vec![0, 0]),
        (vec![1, 3], vec![0, 0]),
        (vec![], vec![]),
    ] {
        let e = s.expand(&sizes).unwrap();
        assert_eq!(
            e.shape(),
            sizes.iter().map(|&n| n as usize).collect::<Vec<_>>()
        );
        assert_eq!(e.strides(), strides, "{sizes:?}");
        assert_eq!(e.offset(), 2);
    }
    // PyTorch fails later with "numel: integer multiplication overflow".
    assert_eq!(
        err(s.expand(&[-1])),
        "expand: The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"
    );
}

#[test]
fn expand_new_dims_follow_infer_expand_geometry() {
    let x = Layout::contiguous(&[3]);
    assert_eq!(x.expand(&[1, 3]).unwrap().strides(), &[3, 1]);
    assert_eq!(x.expand(&[2, 1, 3]).unwrap().strides(), &[0, 3, 1]);
    assert_eq!(x.expand(&[1, 1, 3]).unwrap().strides(), &[3, 3, 1]);
    let z = Layout::contiguous(&[0, 3]);
    assert_eq!(z.expand(&[1, 0, 3]).unwrap().strides(), &[0, 3, 1]);
    assert_eq!(z.expand(&[2, 1, 0, 3]).unwrap().strides(), &[0, 0, 3, 1]);
    assert_eq!(
        err(Layout::contiguous(&[2, 3]).expand(&[3])),
        "expand: the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"
    );
    // A negative size where a size must match is PyTorch's mismatch error...
    assert_eq!(
        err(x.expand(&[-2])),
        "expand: The expanded size of the tensor (-2) must match the existing size (3) at non-singleton dimension 0.  Target sizes: [-2].  Tensor sizes: [3]"
    );
    // ...and where PyTorch would make a tensor of negative size, an error.
    assert_eq!(
        err(x.expand(&[-3, 3])),
        "expand: Trying to create tensor with negative dimension -3: [-3, 3]"
    );
    assert!(Layout::contiguous(&[1]).expand(&[-5]).is_err());
}
