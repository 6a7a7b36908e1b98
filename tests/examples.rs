//! The chapter's examples print what the chapter shows. Each section runs
//! here through the code its example and the tour run (`examples/chapter/`),
//! its output captured; the checks are the chapter's numbers.

#[path = "../examples/chapter/mod.rs"]
mod chapter;

#[path = "../examples/decoder.rs"]
mod decoder;

use std::path::Path;

/// What the section run by `example` prints.
fn output(example: &str) -> String {
    let section = chapter::SECTIONS
        .iter()
        .find(|section| section.example == example)
        .unwrap_or_else(|| panic!("no section runs as example {example}"));
    let mut out = Vec::new();
    (section.run)(&mut out).unwrap_or_else(|e| panic!("{example} failed: {e}"));
    String::from_utf8(out).expect("examples print UTF-8")
}

/// Asserts that each of `expected` is a whole line of `text`, in this order.
#[track_caller]
fn assert_lines(text: &str, expected: &[&str]) {
    let mut lines = text.lines();
    for want in expected {
        assert!(
            lines.any(|line| line == *want),
            "missing line (or out of order): {want:?}\nin:\n{text}"
        );
    }
}

/// The repository root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_section_has_its_example() {
    let mut examples: Vec<String> = std::fs::read_dir(root().join("examples"))
        .expect("examples/ is readable")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".rs").map(str::to_string)
        })
        .filter(|name| {
            name.starts_with('s') && name.get(1..3).is_some_and(|n| n.parse::<u8>().is_ok())
        })
        .collect();
    examples.sort();
    let sections: Vec<&str> = chapter::SECTIONS.iter().map(|s| s.example).collect();
    assert_eq!(examples, sections);
    for name in sections {
        let source = std::fs::read_to_string(root().join(format!("examples/{name}.rs")))
            .expect("the example is readable");
        assert!(
            source.contains(&format!("#[path = \"chapter/{name}.rs\"]")),
            "examples/{name}.rs does not run chapter/{name}.rs"
        );
    }
}

#[test]
fn the_tour_runs_every_section_in_order() {
    let mut out = Vec::new();
    chapter::tour(&mut out).expect("the tour runs");
    let tour = String::from_utf8(out).expect("the tour prints UTF-8");
    let mut rest = tour.as_str();
    for (number, section) in chapter::SECTIONS.iter().enumerate() {
        let heading = format!("== {}. {} ", number + 1, section.title);
        let at = rest
            .find(&heading)
            .unwrap_or_else(|| panic!("no heading {heading:?} after the previous section"));
        let line_end = rest[at..].find('\n').map_or(rest.len(), |end| at + end);
        assert!(rest[at..line_end].ends_with(&format!(" {} ==", section.example)));
        assert_eq!(rest[at..line_end].chars().count(), 78);
        rest = &rest[line_end..];
        let body = output(section.example);
        assert!(
            rest.starts_with(&format!("\n\n{body}")),
            "the tour does not print section {} after its heading",
            number + 1
        );
    }
}

#[test]
fn floats_central_differences_and_rounding() {
    let out = output("s01_floats");
    assert_lines(
        &out,
        &[
            "f(x) = x³ = tensor([-1.0000, -0.1250,  0.0000,  0.1250,  1.0000], names=('X',))",
            "exact f'(x) = 3x² = tensor([3.0000, 0.7500, 0.0000, 0.7500, 3.0000], names=('X',))",
        ],
    );
    // The table: h, then the largest error in f32 and in f64.
    let errors: Vec<[f64; 3]> = out
        .lines()
        .skip_while(|line| !line.starts_with("largest error"))
        .skip(2)
        .map(|line| {
            let fields: Vec<f64> = line
                .split_whitespace()
                .map(|field| field.parse().expect("a number"))
                .collect();
            [fields[0], fields[1], fields[2]]
        })
        .collect();
    assert_eq!(errors.len(), 7);
    let [h, f32_error, f64_error] = errors[1];
    assert_eq!(h, 1e-2);
    // The formula's error for x³ is h² in both types while rounding is small...
    assert!((f32_error - 1e-4).abs() < 1e-5, "{f32_error}");
    assert!((f64_error - 1e-4).abs() < 1e-9, "{f64_error}");
    // ...then rounding takes over in f32, far sooner than in f64.
    let worst_f32_small_h = errors[5][1];
    assert!(worst_f32_small_h > 100.0 * errors[2][1], "{errors:?}");
    assert!(errors[4][2] < 1e-9, "{errors:?}");
}

#[test]
fn construction_shapes() {
    assert_lines(
        &output("s02_construction"),
        &[
            "points = tensor([[4., 1.],",
            "                 [5., 3.],",
            "                 [2., 1.]], names=('Point', 'Coord'))",
            "points: shape (3, 2), numel 6, dim 2",
            "ones(3, 2) = tensor([[1., 1.],",
            "zeros(2, 4, 4): shape (2, 4, 4), numel 32, dim 3",
        ],
    );
}

#[test]
fn indexing_and_slicing_views() {
    assert_lines(
        &output("s03_indexing"),
        &[
            "grid[1, 2] = 7",
            "grid[:, 1] = tensor([ 2,  6, 10], names=('Rows',))",
            "grid[:, 1]: shape (3,), strides (4,), offset 1",
            "grid[1:, 1:3] = tensor([[ 6,  7],",
            "                        [10, 11]], names=('Rows', 'Cols'))",
            "grid[1:, 1:3]: shape (2, 2), strides (4, 1), offset 5",
            "a view of grid's storage: true",
            "grid.slice_s(s![1.., 1..3]): shape (2, 2), strides (4, 1), offset 5",
            "grid = tensor([[ 1,  2,  3,  4],",
            "               [ 5,  0,  0,  8],",
            "               [ 9,  0,  0, 12]], names=('Rows', 'Cols'))",
        ],
    );
}

#[test]
fn broadcasting_by_stride_zero() {
    assert_lines(
        &output("s04_broadcasting"),
        &[
            "column + row = tensor([[ 0.,  1.,  2.,  3.],",
            "                       [10., 11., 12., 13.],",
            "                       [20., 21., 22., 23.]], names=('Rows', 'Cols'))",
            "column.expand(3, 4): shape (3, 4), strides (1, 0), offset 0",
            "row.expand(3, 4):    shape (3, 4), strides (0, 1), offset 0",
            "column.expand(3, 4) shows 48 bytes of elements over a storage of 12, a view: true",
            "(column + row) + bias = tensor([[100., 201., 302., 403.],",
        ],
    );
}

#[test]
fn named_and_positional_permutations_agree() {
    assert_lines(
        &output("s05_named_axes"),
        &[
            "    names ('N', 'C', 'H', 'W'), shape (2, 3, 4, 5), strides (60, 20, 5, 1), offset 0",
            "images.align_to(N, H, W, C), by name:",
            "    names ('N', 'H', 'W', 'C'), shape (2, 4, 5, 3), strides (60, 5, 1, 20), offset 0",
            "rearrange(images, \"N C H W -> N H W C\"), by pattern:",
            "    names ('N', 'H', 'W', 'C'), shape (2, 4, 5, 3), strides (60, 5, 1, 20), offset 0",
            "    names ('N', 'H', 'W', 'C'), shape (2, 4, 5, 3), strides (60, 5, 1, 20), offset 0",
            "    names (None, None, None, None), shape (2, 4, 5, 3), strides (60, 5, 1, 20), offset 0",
            "same strides: true; views, no copy: true",
            "the NHWC view convolved over (H, W) by name, 8 filters 3x3, padding 1:",
            "    names ('N', 'H', 'W', 'C'), shape (2, 4, 5, 8), strides (160, 5, 1, 20), offset 0",
            "the same values as the NCHW tensor's: true",
        ],
    );
}

#[test]
fn dtypes_sizes_and_casts() {
    assert_lines(
        &output("s06_dtypes"),
        &[
            "  f64  torch.float64       8",
            "  f32  torch.float32       4",
            " bf16  torch.bfloat16      2",
            "  f16  torch.float16       2",
            "  i64  torch.int64         8",
            "  i32  torch.int32         4",
            "  i16  torch.int16         2",
            "   i8  torch.int8          1",
            "   u8  torch.uint8         1",
            " Bool  torch.bool          1",
            "    exactly [0.100097656, 3.140625, 1000.0, 999424.0]",
            "    exactly [0.099975586, 3.140625, 1000.0, inf]",
            "labels = tensor([2, 0, 1, 2, 1], names=('Sample',))",
            "labels: dtype torch.int64, 8 bytes each",
            "scores.argmax(Class) = tensor([2, 0, 1, 1, 1], names=('Sample',))",
            "4 of 5 predicted right",
        ],
    );
}

#[test]
fn means_by_axis_and_in_place_ops() {
    assert_lines(
        &output("s07_tensor_api"),
        &[
            "x.mean(Rows) = tensor([1.5000, 2.5000, 3.5000], names=('Cols',))",
            "x.mean(Rows, keepdim=True) = tensor([[1.5000, 2.5000, 3.5000]], names=('Rows', 'Cols'))",
            "x.mean(Cols) = tensor([1., 4.], names=('Rows',))",
            "x.mean(Cols, keepdim=True) = tensor([[1.],",
            "                                     [4.]], names=('Rows', 'Cols'))",
            "after x.add_(ones) = tensor([[1., 2., 3.],",
            "                             [4., 5., 6.]], names=('Rows', 'Cols'))",
            "                              [14., 15., 16.]], names=('Rows', 'Cols'))",
            "after x.zero_() = tensor([[0., 0., 0.],",
        ],
    );
}

#[test]
fn storage_bytes_and_sharing() {
    assert_lines(
        &output("s08_storage"),
        &[
            "storage: 24 bytes (6 elements of 4 bytes)",
            "storage as f32: [4.0, 1.0, 5.0, 3.0, 2.0, 1.0]",
            "points = tensor([[16.,  1.],",
            "points[1], points.t(), points.view(6) share points' storage: [true, true, true]",
            "each sees 24 bytes of storage; its own shape, strides and offset select from them",
        ],
    );
}

#[test]
fn strides_offsets_and_permutations() {
    assert_lines(
        &output("s09_strides"),
        &[
            "points: shape (3, 2), strides (2, 1), offset 0",
            "storage[4] = 2, points[2, 0] = 2",
            "points[1]: shape (2,), strides (1,), offset 2",
            "points.t(): shape (2, 3), strides (1, 2), offset 0",
            "some = ones(2, 3, 4): shape (2, 3, 4), strides (12, 4, 1), offset 0",
            "some.permute(2, 0, 1): shape (4, 2, 3), strides (1, 12, 4), offset 0",
            "all views of one storage: true",
        ],
    );
}

#[test]
fn view_refused_until_contiguous() {
    assert_lines(
        &output("s10_contiguity"),
        &[
            "points.t(): shape (2, 3), strides (1, 2), offset 0, contiguous: false",
            "points.t().view(6) is refused:",
            "    view size is not compatible with input tensor's size and stride (at least one \
             dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
            "points.t().reshape(6) copies instead: true",
            "points.t().contiguous(): shape (2, 3), strides (3, 1), offset 0, contiguous: true, a copy: true",
            "points.t().contiguous().view(6) = tensor([4., 5., 2., 1., 3., 1.], names=('Flat',))",
        ],
    );
}

#[test]
fn sliding_windows_and_bounds() {
    assert_lines(
        &output("s11_as_strided"),
        &[
            "windows = tensor([[0., 1., 2., 3.],",
            "                  [6., 7., 8., 9.]], names=('Start', 'Window'))",
            "windows: shape (7, 4), strides (1, 1), offset 0",
            "windows: 28 elements over 40 bytes of storage, a view: true",
            "signal.unfold(0, 4, 1): shape (7, 4), strides (1, 1), offset 0",
            "signal.as_strided((8, 4), (1, 1)) is refused:",
            "    setStorage: sizes [8, 4], strides [1, 1], storage offset 0, and itemsize 4 \
             requiring a storage size of 44 are out of bounds for storage of size 40",
        ],
    );
}

#[test]
fn exercises() {
    assert_lines(
        &output("s12_exercises"),
        &[
            "a: shape (9,), strides (1,), offset 0",
            "b: shape (3, 3), strides (3, 1), offset 0",
            "b shares a's storage: true, same first element: true",
            "c = b[1:, 1:] = tensor([[4, 5],",
            "                        [7, 8]], names=('Rows', 'Cols'))",
            "c: shape (2, 2), strides (3, 1), offset 4",
            "a.to(float32).sqrt_():",
            "tensor([0.0000, 1.0000, 1.4142, 1.7321, 2.0000, 2.2361, 2.4495, 2.6458, 2.8284])",
        ],
    );
}

#[test]
fn devices() {
    let text = output("s13_devices");
    assert_lines(
        &text,
        &[
            "The device is in the type: Tensor<f32, S> is on the CPU, Tensor<f32, S, Cuda> on a GPU.",
        ],
    );
    if text.contains("cuda if available else cpu: cpu") {
        // With a CUDA device required (CI's stand-in, a GPU machine's check),
        // the GPU part must run.
        let required = std::env::var("AXIAL_REQUIRE_GPU").is_ok_and(|v| !v.is_empty() && v != "0");
        assert!(
            !(cfg!(feature = "cuda") && required),
            "AXIAL_REQUIRE_GPU is set but the devices section ran on the CPU:\n{text}"
        );
        assert_lines(
            &text,
            &[
                "x lives on cpu; so does 2.0 * x + 1.0:",
                "tensor([[ 1.,  3.,  5.],",
                "        [ 7.,  9., 11.]], names=('Rows', 'Cols'))",
            ],
        );
    } else {
        assert_lines(
            &text,
            &[
                "x lives on cuda:0; so does 2.0 * x + 1.0:",
                "        [ 7.,  9., 11.]], names=('Rows', 'Cols'))",
                "pinned ones copied on a stream without waiting; their sum on the GPU: tensor(6.)",
            ],
        );
    }
}

#[test]
fn the_devices_section_quotes_its_compile_error() {
    let text = output("s13_devices");
    let quoted = "cannot combine a tensor on `axial::Cuda` with a tensor on `Cpu`";
    let stderr = std::fs::read_to_string(root().join("ui-tests/cuda/cpu_plus_cuda.stderr"))
        .expect("the ui-test has its expected message");
    assert!(stderr.starts_with(&format!("error[E0277]: {quoted}")));
    assert!(text.contains(quoted) && text.contains("ui-tests/cuda/cpu_plus_cuda.rs"));
}

#[test]
fn serialization_checkpoint_refusal_and_a_partial_hdf5_read() {
    assert_lines(
        &output("s14_serialization"),
        &[
            "loaded keys: [\"model_weights\", \"epoch\", \"learning_rate\"]",
            "epoch = 10, learning_rate = 0.001",
            "as (Rows: 4, Cols: 3): tensor `model_weights`: from_raw: expected a float32 tensor of shape (Rows: 4, Cols: 3), found a float32 tensor of shape [4, 4]",
            "custom_class.pt: torch: Weights only load failed: Unsupported global: GLOBAL __main__.TrainingConfig was not an allowed global by default",
            "features: shape [10, 10], chunks [2, 10]",
            "hdf5_data[2:5, :] = tensor([[20, 21, 22, 23, 24, 25, 26, 27, 28, 29],",
            "                            [40, 41, 42, 43, 44, 45, 46, 47, 48, 49]], names=('Rows', 'Cols'))",
            "chunks decoded: 2 of 5",
        ],
    );
}

#[test]
fn generalized_sparse_quantized_and_ragged() {
    assert_lines(
        &output("s16_generalized"),
        &[
            "s = tensor(indices=tensor([[0, 1, 2],",
            "                           [2, 0, 1]]),",
            "           values=tensor([3., 4., 5.]),",
            "           size=(1000, 1000), nnz=3, layout=torch.sparse_coo)",
            "bytes: COO 60, CSR 8044, dense 4000000",
            "s.to_dense()[0, 2], [1, 0], [2, 1] = 3, 4, 5; sum 12",
            "CSR crow_indices[:5] = [0, 1, 2, 3, 3] (1001 entries)",
            "    sparse_coo_tensor: size is inconsistent with indices: for dim 0, size is 1000 but found index 1000",
            "q = tensor([-1.0000,  0.0000,  0.5000,  1.0000,  2.0000], size=(5,),",
            "           scale=0.1, zero_point=10)",
            "q.int_repr() = [0, 10, 15, 20, 30]",
            "0.5, 1.5, 2.5, 3.5 at zero point 127 -> [127, 129, 129, 131] (half to even, then + 127)",
            "channel 0: scale 0.003937, largest rounding error 0.001890 <= scale / 2: true",
            "channel 1: scale 0.009449, largest rounding error 0.003150 <= scale / 2: true",
            "n = NestedTensor(size=(3, j1, 3), offsets=tensor([0, 2, 6, 7]), contiguous=True)",
            "values 21 floats; padded [3, 4, 3] = 36 floats",
            "n.softmax::<Seq>()[:, :, 0] per item: 0.047426, 0.952574, 0.000117, 0.002355, 0.047309, 0.950219, 1.000000",
            "padding to 2 rows is refused (PyTorch truncates):",
        ],
    );
}

#[test]
fn training_fits_a_line() {
    let text = output("s17_training");
    assert_lines(
        &text,
        &[
            // The first gradients, by hand: mean(-2·y·x) and mean(-2·y) at w = b = 0.
            "step 0: dL/dw = -17, dL/db = -8 (mean of 2(wx + b - y)·x and of 2(wx + b - y))",
            "after `y = h.log()` it does not (log keeps its input): ui-tests/fail/autograd_write_kept_input.rs",
        ],
    );
    let losses: Vec<f64> = text
        .lines()
        .filter_map(|l| l.split_once(": loss ").map(|(_, v)| v.parse().unwrap()))
        .collect();
    assert_eq!(losses.len(), 3);
    assert!(
        losses.windows(2).all(|w| w[1] < w[0]) && losses[2] < 0.05,
        "{losses:?}"
    );
    assert!(
        root()
            .join("ui-tests/fail/autograd_write_kept_input.rs")
            .exists()
    );
}

#[test]
fn the_sqrt_exercise_points_at_its_compile_error() {
    let path = chapter::s12_exercises::SQRT_OF_INTEGERS;
    assert!(output("s12_exercises").contains(path));
    let source = std::fs::read_to_string(root().join(path)).expect("the ui-test exists");
    assert!(source.contains(".sqrt_()"));
    let stderr = std::fs::read_to_string(root().join(path).with_extension("stderr"))
        .expect("the ui-test has its expected message");
    assert!(
        stderr.contains("`i64` tensors have no `exp`, `log`, `sqrt` or trigonometric functions")
    );
}

#[test]
fn numpy_interop_shares_one_buffer() {
    assert_lines(
        &output("s15_numpy"),
        &[
            "ndarray view of t: shape [3, 4], strides (4, 1) (elements), same memory: true",
            "ndarray view of t.t(): strides (1, 4) (NumPy's bytes: (4, 16)), same memory: true",
            "after a[0, 0] = 100 through ndarray: t[0, 0] = 100",
            "after t.add_(10) through axial: a[0] = [110, 11, 12, 13]",
            "Array -> axial (add 10) -> Array: [11.0, 12.0, 13.0, 14.0, 15.0, 16.0], never copied: true",
            "a[::-1] refused: from_array_view: the array's strides [-3, 1] are negative, and negative strides are not supported (PyTorch's memory model has none); copy it with copy_from_array",
            "copied on request: strides (3, 1), rows [14.0, 15.0, 16.0, 11.0, 12.0, 13.0]",
            "DLPack round trip: strides (4, 1), same memory: true",
            "a TensorView exports with flags DlpackFlags(READ_ONLY)",
        ],
    );
}

#[test]
fn the_readme_lists_every_example() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md is readable");
    for (number, section) in chapter::SECTIONS.iter().enumerate() {
        let row = readme
            .lines()
            .find(|line| line.starts_with(&format!("| {} | ", number + 1)))
            .unwrap_or_else(|| panic!("the README's table has no row {}", number + 1));
        assert!(
            row.ends_with(&format!("| `{}` |", section.example)),
            "row {} of the README's table does not name {}",
            number + 1,
            section.example
        );
    }
}

#[test]
fn the_decoder_prefills_and_decodes_through_one_function() {
    let mut out = Vec::new();
    decoder::run(&mut out).expect("the decoder runs");
    let text = String::from_utf8(out).expect("the decoder prints UTF-8");
    assert_lines(
        &text,
        &[
            "prefill: 5 tokens, cache [2, 2, 4, 5, 8]",
            "cache after decoding: [2, 2, 4, 11, 8]",
            "cached and uncached logits agree within 1e-4: true",
        ],
    );
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md is readable");
    assert!(readme.contains("`decoder`"), "the README lists the decoder");
}
