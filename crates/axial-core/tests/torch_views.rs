//! The differential test against PyTorch: replays the op sequences that
//! `oracle/torch_views.py` ran in PyTorch (`tests/data/torch_views.json`)
//! and compares every step with PyTorch's answer: sizes, strides, offset,
//! contiguity, storage size, storage sharing, values, dtype, the printout,
//! and for a failing step the error message's text.
//!
//! Where axial deliberately differs, the step carries the rule's name and
//! axial's outcome (`"rule"`, `"axial"`); the rules are listed in the file's
//! `divergences` and in `oracle/README.md`. Error texts are compared on
//! PyTorch's words ([`says`]).

use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};

use axial_core::{
    ArgReduceOp, BinaryOp, DType, Element, Error, Layout, MaybeOwned, RawTensor, ReduceOp, Result,
    Scalar, Storage, TensorMut, TensorRef, UnaryOp, with_dtype,
};
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/torch_views.json");

fn dtype_named(name: &str) -> DType {
    let all = [
        DType::F64,
        DType::F32,
        DType::F16,
        DType::BF16,
        DType::I64,
        DType::I32,
        DType::I16,
        DType::I8,
        DType::U8,
        DType::Bool,
    ];
    *all.iter()
        .find(|d| d.name() == name)
        .unwrap_or_else(|| panic!("unknown dtype {name}"))
}

/// An element from the JSON file: a number, or "nan", "inf", "-inf".
fn number(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().expect("a number"),
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            other => panic!("not a number: {other}"),
        },
        other => panic!("not a number: {other}"),
    }
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().expect("a list").iter().map(number).collect()
}

fn ints(v: &Value) -> Vec<isize> {
    (v.as_array().expect("a list").iter())
        .map(|x| x.as_i64().expect("an integer") as isize)
        .collect()
}

fn int(v: &Value) -> isize {
    v.as_i64().expect("an integer") as isize
}

fn usizes(v: &Value) -> Vec<usize> {
    ints(v).into_iter().map(|x| x as usize).collect()
}

/// An int or a list of ints (movedim's two forms).
fn int_or_list(v: &Value) -> Vec<isize> {
    match v {
        Value::Array(_) => ints(v),
        _ => vec![int(v)],
    }
}

fn storage_of(dtype: DType, values: &[f64]) -> Storage {
    with_dtype!(dtype, T => {
        let data: Vec<T> = values
            .iter()
            .map(|&v| if dtype.is_float() { T::from_f64(v) } else { T::from_i64(v as i64) })
            .collect();
        Storage::from_slice(&data)
    })
}

fn read(t: &TensorRef<'_>) -> Result<Vec<f64>> {
    with_dtype!(t.dtype(), T => Ok(t.to_vec::<T>()?.into_iter().map(|x| x.to_f64()).collect()))
}

/// True when axial's error says what PyTorch's message says. axial's
/// `Error::Invalid` prints `{op}: {message}`, and `Error::Expand`
/// `expand: {message}`; PyTorch names the op in front of some messages
/// only, as `op: ` or `op(): `. Either form matches.
fn says(e: &Error, pytorch: &str) -> bool {
    let full = e.to_string();
    if full == pytorch {
        return true;
    }
    let (op, message) = match e {
        Error::Invalid { op, message } => (*op, message.as_str()),
        Error::Expand { .. } => ("expand", full.strip_prefix("expand: ").unwrap_or(&full)),
        _ => return false,
    };
    let pytorch = pytorch
        .strip_prefix(&format!("{op}(): "))
        .unwrap_or(pytorch);
    message == pytorch
}

fn same_values(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(a, b)| a == b || (a.is_nan() && b.is_nan()))
}

/// A view op's result: a layout over the same storage, or a new tensor.
enum Made {
    View(Layout),
    New(RawTensor),
}

fn made(m: MaybeOwned<'_>) -> Made {
    match m {
        MaybeOwned::View(v) => Made::View(v.layout().clone()),
        MaybeOwned::Owned(t) => Made::New(t),
    }
}

fn view_op(x: &TensorRef<'_>, op: &str, a: &[Value]) -> Option<Result<Made>> {
    let view = |r: Result<TensorRef<'_>>| r.map(|v| Made::View(v.layout().clone()));
    let opt = |v: &Value| (!v.is_null()).then(|| int(v));
    Some(match op {
        "slice" => view(x.slice(int(&a[0]), opt(&a[1]), opt(&a[2]), int(&a[3]))),
        "select" => view(x.select(int(&a[0]), int(&a[1]))),
        "narrow" => view(x.narrow(int(&a[0]), int(&a[1]), int(&a[2]) as usize)),
        "unsqueeze" => view(x.unsqueeze(int(&a[0]))),
        "squeeze" => Ok(Made::View(x.squeeze().layout().clone())),
        "squeeze_dims" => view(x.squeeze_dims(&ints(&Value::Array(a.to_vec())))),
        "transpose" => view(x.transpose(int(&a[0]), int(&a[1]))),
        "t" => view(x.t()),
        "permute" => view(x.permute(&ints(&a[0]))),
        "movedim" => view(x.movedim(&int_or_list(&a[0]), &int_or_list(&a[1]))),
        "diagonal" if a.len() == 1 => view(x.diagonal(int(&a[0]), 0, 1)),
        "diagonal" => view(x.diagonal(int(&a[0]), int(&a[1]), int(&a[2]))),
        "unfold" => view(x.unfold(int(&a[0]), int(&a[1]) as usize, int(&a[2]) as usize)),
        "expand" => view(x.expand(&ints(&a[0]))),
        "view" => view(x.view(&ints(&a[0]))),
        "reshape" => x.reshape(&ints(&a[0])).map(made),
        "contiguous" => x.contiguous().map(made),
        "flatten" if a.is_empty() => x.flatten(0, -1).map(made),
        "flatten" => x.flatten(int(&a[0]), int(&a[1])).map(made),
        "unflatten" => view(x.unflatten(int(&a[0]), &ints(&a[1]))),
        "as_strided" => {
            let offset = (!a[2].is_null()).then(|| int(&a[2]) as usize);
            view(x.as_strided(&usizes(&a[0]), &ints(&a[1]), offset))
        }
        _ => return None,
    })
}

fn reduce_op(name: &str) -> Option<ReduceOp> {
    Some(match name {
        "sum" => ReduceOp::Sum,
        "mean" => ReduceOp::Mean,
        "amax" => ReduceOp::Max,
        "amin" => ReduceOp::Min,
        "any" => ReduceOp::Any,
        "all" => ReduceOp::All,
        "prod" => ReduceOp::Prod,
        _ => return None,
    })
}

fn arg_op(name: &str) -> ArgReduceOp {
    match name {
        "argmax" | "max" => ArgReduceOp::ArgMax,
        _ => ArgReduceOp::ArgMin,
    }
}

/// An elementwise or reduction op on `x`: one result, or values and indices.
fn probe_op(x: &TensorRef<'_>, op: &str, a: &[Value]) -> Option<Result<Vec<RawTensor>>> {
    let one = |r: Result<RawTensor>| r.map(|t| vec![t]);
    Some(match op {
        "neg" => one(x.unary(UnaryOp::Neg)),
        "add" => one(x.binary(BinaryOp::Add, x)),
        "mul_scalar" => one(x.binary_scalar(BinaryOp::Mul, Scalar::Int(int(&a[0]) as i64))),
        "add_row" => {
            let row = if x.dim() > 0 {
                x.select(0, 0)
            } else {
                Ok(x.clone())
            };
            one(row.and_then(|row| x.binary(BinaryOp::Add, &row)))
        }
        "clone" => one(x.to_owned()),
        "to" => one(x.to_dtype(dtype_named(a[0].as_str().expect("a dtype")))),
        "argmax" | "argmin" => {
            let dim = (!a[0].is_null()).then(|| int(&a[0]));
            one(x.arg_reduce(arg_op(op), dim, a[1].as_bool().expect("keepdim")))
        }
        "max_dim" => {
            let which = arg_op(a[2].as_str().expect("max or min"));
            x.max_min_dim(which, int(&a[0]), a[1].as_bool().expect("keepdim"))
                .map(|(v, i)| vec![v, i])
        }
        name => {
            let op = reduce_op(name)?;
            one(x.reduce(op, &ints(&a[0]), a[1].as_bool().expect("keepdim")))
        }
    })
}

/// One sequence's storages (the first is the base's; copies add more) and
/// the current tensor.
struct State {
    dtype: DType,
    storages: Vec<Storage>,
    at: usize,
    layout: Layout,
}

impl State {
    fn current(&self) -> TensorRef<'_> {
        TensorRef::new(&self.storages[self.at], self.layout.clone(), self.dtype)
            .expect("every current layout fits its storage")
    }
}

/// Differences found, and what was compared.
#[derive(Default)]
struct Report {
    steps: usize,
    errors: usize,
    diffs: Vec<String>,
}

struct Step<'a> {
    report: &'a mut Report,
    at: String,
    before: usize,
}

impl Step<'_> {
    fn diff(&mut self, what: impl std::fmt::Display) {
        self.report.diffs.push(format!("{}: {what}", self.at));
    }

    fn check<T: PartialEq + std::fmt::Debug>(&mut self, field: &str, got: T, want: T) {
        if got != want {
            self.diff(format_args!("{field}: axial {got:?}, PyTorch {want:?}"));
        }
    }

    fn values(&mut self, field: &str, got: Result<Vec<f64>>, want: &Value) {
        if want.is_null() {
            return;
        }
        match got {
            Ok(got) if same_values(&got, &numbers(want)) => {}
            Ok(got) => self.diff(format_args!("{field}: axial {got:?}, PyTorch {want}")),
            Err(e) => self.diff(format_args!("{field}: axial fails to read: {e}")),
        }
    }

    /// Compares an outcome with the expected `ok`/`err`; the `Ok` value when
    /// both succeeded.
    fn outcome<T>(&mut self, got: Result<T>, want: &Value) -> Option<T> {
        match (got, want.get("err")) {
            (Ok(v), None) => Some(v),
            (Err(e), Some(msg)) => {
                self.report.errors += 1;
                let msg = msg.as_str().expect("a message");
                if !says(&e, msg) {
                    self.diff(format_args!(
                        "error: axial {:?}, PyTorch {msg:?}",
                        e.to_string()
                    ));
                }
                None
            }
            (Ok(_), Some(msg)) => {
                self.diff(format_args!("axial succeeds, PyTorch fails: {msg}"));
                None
            }
            (Err(e), None) => {
                self.diff(format_args!("axial fails ({e}), PyTorch succeeds"));
                None
            }
        }
    }

    fn result(&mut self, t: &TensorRef<'_>, want: &Value) {
        self.check("shape", t.shape(), &usizes(&want["shape"])[..]);
        self.check("stride", t.strides(), &ints(&want["stride"])[..]);
        if let Some(dtype) = want.get("dtype") {
            let name = dtype.as_str().expect("a dtype");
            self.check("dtype", t.dtype().name(), name);
        }
        if let Some(values) = want.get("values") {
            self.values("values", read(t), values);
        }
    }
}

fn replay(index: usize, seq: &Value, report: &mut Report) {
    let dtype = dtype_named(seq["dtype"].as_str().expect("a dtype"));
    let storage = storage_of(dtype, &numbers(&seq["values"]));
    let shape = usizes(&seq["shape"]);
    let strides = axial_core::layout::contiguous_strides(&shape);
    let offset = seq["offset"].as_u64().expect("an offset") as usize;
    let mut state = State {
        dtype,
        storages: vec![storage],
        at: 0,
        layout: Layout::from_parts(&shape, &strides, offset),
    };
    let steps = seq["steps"].as_array().expect("steps");
    for (j, step) in steps.iter().enumerate() {
        let op = step["op"].as_str().expect("an op");
        let args = step["args"].as_array().expect("args");
        report.steps += 1;
        let mut s = Step {
            at: format!("sequence {index} step {j} {op}{}", step["args"]),
            before: report.diffs.len(),
            report,
        };
        let want = step.get("axial").unwrap_or(step);
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            run_step(&mut state, op, args, want, &mut s);
        }));
        if let Err(payload) = ran {
            let what = (payload.downcast_ref::<&str>().map(|m| m.to_string()))
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            s.diff(format_args!("axial panics: {what}"));
        }
        if s.report.diffs.len() > s.before {
            let layout = &state.layout;
            let context = format!(
                "    on {:?}/{:?}@{} {dtype:?} ({})",
                layout.shape(),
                layout.strides(),
                layout.offset(),
                if state.at == 0 {
                    "base storage"
                } else {
                    "a copy"
                }
            );
            s.report.diffs.push(context);
        }
    }
}

fn run_step(state: &mut State, op: &str, args: &[Value], want: &Value, s: &mut Step<'_>) {
    let x = state.current();
    if let Some(got) = view_op(&x, op, args) {
        let Some(made) = s.outcome(got, want) else {
            return;
        };
        let ok = &want["ok"];
        let (at, layout) = match made {
            Made::View(layout) => (state.at, layout),
            Made::New(t) => {
                let (storage, layout, _) = t.into_parts();
                state.storages.push(storage);
                (state.storages.len() - 1, layout)
            }
        };
        s.check(
            "alias",
            at == state.at,
            ok["alias"].as_bool().expect("alias"),
        );
        state.at = at;
        state.layout = layout;
        let y = state.current();
        s.result(&y, ok);
        s.check(
            "offset",
            y.offset(),
            ok["offset"].as_u64().expect("offset") as usize,
        );
        s.check(
            "contiguous",
            y.is_contiguous(),
            ok["contiguous"].as_bool().expect("flag"),
        );
        let nbytes = ok["nbytes"].as_u64().expect("nbytes") as usize;
        s.check("storage nbytes", y.storage().nbytes(), nbytes);
        return;
    }
    if op == "print" {
        if let Some(repr) = want["ok"]["repr"].as_str() {
            s.check("printout", x.to_string(), repr.to_string());
        }
        return;
    }
    if let Some(got) = probe_op(&x, op, args) {
        let Some(results) = s.outcome(got, want) else {
            return;
        };
        let ok = &want["ok"];
        match results.as_slice() {
            [one] => s.result(&one.view(), ok),
            [values, indices] => {
                s.result(&values.view(), &ok["values"]);
                s.result(&indices.view(), &ok["indices"]);
            }
            _ => unreachable!("one or two results"),
        }
        return;
    }
    let (dtype, layout) = (state.dtype, state.layout.clone());
    let got = {
        let storage = &mut state.storages[state.at];
        let mut m = TensorMut::new(storage, layout, dtype).expect("the current layout fits");
        match op {
            "add_" => m.binary_scalar_(BinaryOp::Add, Scalar::Int(int(&args[0]) as i64)),
            "fill_" => m.fill_(Scalar::Int(int(&args[0]) as i64)),
            "zero_" => m.zero_(),
            other => panic!("unknown op {other}"),
        }
    };
    if s.outcome(got, want).is_none() {
        return;
    }
    let x = state.current();
    s.values("values after the write", read(&x), &want["ok"]["values"]);
    let whole = Layout::contiguous(&[state.storages[state.at].len_of(dtype)]);
    let all = TensorRef::new(&state.storages[state.at], whole, dtype).expect("the storage");
    s.values(
        "storage after the write",
        read(&all),
        &want["ok"]["storage"],
    );
}

#[test]
fn every_sequence_gives_pytorchs_answer() {
    let text = std::fs::read_to_string(DATA).expect("tests/data/torch_views.json");
    let doc: Value = serde_json::from_str(&text).expect("valid JSON");
    let sequences = doc["sequences"].as_array().expect("sequences");
    let mut report = Report::default();
    // A panic is a difference like any other: reported with the rest, quietly.
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    for (i, seq) in sequences.iter().enumerate() {
        replay(i, seq, &mut report);
    }
    panic::set_hook(hook);
    let mut summary = format!(
        "{} sequences, {} steps ({} errors) replayed against PyTorch {}: ",
        sequences.len(),
        report.steps,
        report.errors,
        doc["torch"].as_str().unwrap_or("?"),
    );
    let failed = report.diffs.iter().filter(|d| !d.starts_with(' ')).count();
    let _ = write!(summary, "{failed} differences");
    println!("{summary}");
    assert!(sequences.len() >= 2000, "{summary}: too few sequences");
    assert!(
        report.diffs.is_empty(),
        "{summary}\n{}",
        report
            .diffs
            .iter()
            .take(usize::MAX)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
