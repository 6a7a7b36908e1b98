//! The panicking twins of the `try_` methods report the caller's line, not a
//! line of the library: each is `#[track_caller]` down to the panic, with no
//! closure in between (a closure would report its own line). Every twin that
//! a run-time value can make panic is called here with one, and the
//! location of the panic is checked to be the line of the call; a scan of
//! the sources checks that every method documented under `# Panics` is
//! `#[track_caller]`.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use axial::prelude::*;

axes!(Batch, Seq, Rows, Cols, Inner, Time, Window, One, Flat, P);

thread_local! {
    /// The location of the last panic on this thread.
    static WHERE: RefCell<Option<(String, u32)>> = const { RefCell::new(None) };
}

/// Runs `f`, which must panic, and returns where it panicked.
fn panic_location(f: impl FnOnce()) -> Option<(String, u32)> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let at = info.location().map(|l| (l.file().to_owned(), l.line()));
            WHERE.with(|w| *w.borrow_mut() = at);
        }));
    });
    WHERE.with(|w| *w.borrow_mut() = None);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    assert!(result.is_err(), "expected a panic");
    WHERE.with(|w| w.borrow_mut().take())
}

/// `$e` panics at this line of this file.
macro_rules! panics_here {
    ($e:expr) => {{
        let line = line!();
        let at = panic_location(|| {
            let _ = $e;
        });
        assert_eq!(at, Some((file!().to_owned(), line)), "{}", stringify!($e));
    }};
}

/// A tensor with a `Dyn` axis.
type Sequences = Tensor<f32, shape![Batch: 2, Seq: Dyn]>;

/// Tensors whose `Dyn` sizes disagree: 5 and 6 elements along `Seq`.
fn five_and_six() -> (Sequences, Sequences) {
    (Tensor::zeros_dyn(5), Tensor::zeros_dyn(6))
}

#[test]
fn elementwise_twins_panic_at_the_caller() {
    let (a, b) = five_and_six();
    panics_here!(a.add(&b));
    panics_here!(a.sub(&b));
    panics_here!(a.maximum(&b));
    panics_here!(&a + &b);
    panics_here!(a.clone() * b.clone());
    panics_here!(&a / &b);
    panics_here!(a.lt(&b));
    panics_here!(a.eq(&b).if_else(&a, &b));
    let mut c = a.clone();
    panics_here!(c.add_(&b));
    panics_here!(c += &b);
    panics_here!(c.copy_(&b));
    panics_here!(c.as_view_mut().mul_(&b));
}

#[test]
fn matmul_and_reduction_twins_panic_at_the_caller() {
    let a = Tensor::<f32, shape![Rows: 2, Inner: Dyn]>::zeros_dyn(3);
    let b = Tensor::<f32, shape![Inner: Dyn, Cols: 2]>::zeros_dyn(4);
    panics_here!(a.matmul(&b));
    let empty = Tensor::<f32, shape![Seq: Dyn]>::zeros_dyn(0);
    panics_here!(empty.argmax::<Seq>());
    panics_here!(empty.amax_all());
}

#[test]
fn view_twins_panic_at_the_caller() {
    let x = Tensor::<f32, shape![Batch: Dyn, Seq: 4]>::zeros_dyn(2);
    panics_here!(x.as_view().select::<Batch>(7));
    panics_here!(x.as_view().at::<Batch, 9>());
    panics_here!(x.as_view().narrow::<Seq>(3, 2));
    panics_here!(x.as_view().slice::<Seq>(.., 0));
    panics_here!(x.as_view().squeeze::<Batch>());
    panics_here!(x.as_view().unfold::<Seq, Window>(5, 1));
    panics_here!(x.as_view().view::<shape![Flat: 9]>());
    panics_here!(x.as_view().reshape::<shape![Flat: 9]>());
    panics_here!(x.as_view().split::<Batch, shape![One: 3, P: Dyn]>());
    panics_here!(x.as_view().expand::<shape![Batch: 3, Seq: 4]>());
    panics_here!(x.as_view().slice_s(s![5, ..]));
    let mut y = Tensor::<f32, shape![Time: 6]>::zeros();
    panics_here!(y.as_view_mut().unfold::<Time, Window>(2, 1).into_writable());
}

#[test]
fn element_twins_panic_at_the_caller() {
    let mut x = Tensor::<f32, shape![Rows: 2, Cols: Dyn]>::zeros_dyn(3);
    panics_here!(x.get([2, 0]));
    panics_here!(x.set([0, 3], 1.0));
    panics_here!(x[[5, 5]]);
    panics_here!(x[[5, 5]] = 1.0);
    panics_here!(x.item());
}

#[test]
fn constructor_twins_panic_at_the_caller() {
    panics_here!(Tensor::<f32, shape![Rows: 2, Cols: 3]>::from_vec(vec![
        1.0;
        5
    ]));
    panics_here!(Tensor::<f32, shape![Rows: Dyn, Cols: 3]>::from_vec_dyn(
        vec![1.0; 5],
        2
    ));
    panics_here!(Tensor::<f32, shape![Rows: Dyn, Cols: Dyn]>::zeros_dyn([
        usize::MAX,
        2
    ]));
    panics_here!(Tensor::<f32, shape![Rows: Dyn, Cols: Dyn]>::ones_dyn([
        usize::MAX,
        2
    ]));
    panics_here!(Tensor::<f32, shape![Rows: Dyn, Cols: Dyn]>::full_dyn(
        [usize::MAX, 2],
        1.0
    ));
    let mut rng = Generator::seed(1);
    panics_here!(Tensor::<f32, shape![Rows: Dyn, Cols: Dyn]>::randn_dyn(
        [usize::MAX, 2],
        &mut rng
    ));
}

#[test]
fn macro_twins_panic_at_the_caller() {
    let x = Tensor::<f32, shape![Batch: 2, Seq: Dyn]>::zeros_dyn(6);
    panics_here!(rearrange!(
        x.as_view(),
        "Batch (Seq P) -> Batch Seq P",
        P = 4
    ));
    panics_here!(reduce!(
        x.as_view(),
        "Batch (Seq P) -> Batch Seq",
        sum,
        P = 4
    ));
    let y = Tensor::<f32, shape![Batch: 2, Seq: Dyn]>::zeros_dyn(5);
    panics_here!(einsum!(
        "Batch Seq, Batch Seq -> Batch",
        x.as_view(),
        y.as_view()
    ));
}

/// The functions documented under `# Panics` in `crates/axial/src`: each has
/// `#[track_caller]` among the attributes after its doc comment.
#[test]
fn every_documented_panic_is_track_caller() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/axial/src");
    let mut missing = Vec::new();
    let mut files = vec![root];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut panics, mut tracked) = (false, false);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with("///") || line.starts_with("#[doc") {
                panics |= line.contains("# Panics");
            } else if line.starts_with("#[track_caller]") {
                tracked = true;
            } else if line.starts_with("#[") {
            } else if line.contains("fn ") {
                if panics && !tracked {
                    missing.push(format!("{}:{}: {line}", path.display(), i + 1));
                }
                (panics, tracked) = (false, false);
            } else {
                (panics, tracked) = (false, false);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "documented to panic without #[track_caller]:\n{}",
        missing.join("\n")
    );
}
