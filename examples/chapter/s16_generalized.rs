//! Generalized tensors: layouts other than one strided block. The chapter's
//! 1000 × 1000 matrix with 3 non-zeros in COO and CSR form, a weight
//! quantized to int8 per channel with its rounding error, and a ragged batch
//! of sequences kept without padding. Each keeps its names and sizes in the
//! type; what PyTorch leaves unchecked (an index past its dim, a zero scale,
//! a padded size too short) is an error here.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::labelled;

axes!(Rows, Cols, Features, Out, In, Batch, Seq);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    sparse(out)?;
    writeln!(out)?;
    quantized(out)?;
    writeln!(out)?;
    ragged(out)
}

/// The chapter's sparse matrix.
fn sparse(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    type Matrix = SparseCoo<f32, shape![Rows: 1000, Cols: 1000]>;
    let s = Matrix::try_from_entries(&[[0, 2], [1, 0], [2, 1]], &[3.0, 4.0, 5.0])?;
    writeln!(out, "{}", labelled("s", &s))?;
    let csr = s.try_to_csr()?;
    let dense = s.try_to_dense()?;
    writeln!(
        out,
        "bytes: COO {}, CSR {}, dense {}",
        s.as_core().nbytes(),
        csr.as_core().nbytes(),
        dense.untyped_storage().nbytes()
    )?;
    writeln!(
        out,
        "s.to_dense()[0, 2], [1, 0], [2, 1] = {}, {}, {}; sum {}",
        dense.get([0, 2]),
        dense.get([1, 0]),
        dense.get([2, 1]),
        dense.sum::<Rows>().sum::<Cols>().item()
    )?;
    let crow = csr.as_core().crow_indices().to_vec::<i64>()?;
    writeln!(
        out,
        "CSR crow_indices[:5] = {:?} ({} entries)",
        &crow[..5],
        crow.len()
    )?;
    let x = Tensor::<f32, shape![Cols: 1000, Features: 2]>::ones();
    let y = s.try_matmul(&x)?; // (Rows, Features): Cols contracted by name
    writeln!(out, "(s @ ones)[:3] = {:?}", &y.to_vec()[..6])?;
    // PyTorch accepts index 1000 here, and to_dense() writes past its buffer.
    match Matrix::try_from_entries(&[[1000, 0]], &[1.0]) {
        Ok(_) => writeln!(out, "index 1000 accepted")?,
        Err(err) => writeln!(out, "index 1000 of 1000 rows is refused:\n    {err}")?,
    }
    Ok(())
}

/// A weight quantized to int8, per output channel, and its rounding error.
fn quantized(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let x = Tensor::<f32, shape![5]>::from_array([-1.0, 0.0, 0.5, 1.0, 2.0]);
    let q = x.try_quantize_per_tensor::<QUInt8>(0.1, 10)?;
    writeln!(out, "{}", labelled("q", &q))?;
    writeln!(out, "q.int_repr() = {:?}", q.int_repr().to_vec())?;
    let halfway = Tensor::<f32, shape![4]>::from_array([0.5, 1.5, 2.5, 3.5]);
    let h = halfway.try_quantize_per_tensor::<QUInt8>(1.0, 127)?;
    writeln!(
        out,
        "0.5, 1.5, 2.5, 3.5 at zero point 127 -> {:?} (half to even, then + 127)",
        h.int_repr().to_vec()
    )?;

    let w = Tensor::<f32, shape![Out: 2, In: 4]>::from_array([
        [0.31, -0.12, 0.07, 0.5],
        [-1.2, 0.8, 0.33, -0.05],
    ]);
    // One scale per output channel: its largest magnitude over 127.
    let scales: Vec<f64> = (0..2)
        .map(|o| {
            w.to_vec()[o * 4..o * 4 + 4]
                .iter()
                .fold(0.0f32, |m, v| m.max(v.abs())) as f64
                / 127.0
        })
        .collect();
    let qw = w.try_quantize_per_channel::<QInt8, Out>(&scales, &[0, 0])?;
    writeln!(
        out,
        "w quantized per channel (Out), int_repr = {:?}",
        qw.int_repr().to_vec()
    )?;
    let error: Vec<f32> = qw
        .dequantize()
        .to_vec()
        .iter()
        .zip(w.to_vec())
        .map(|(a, b)| (a - b).abs())
        .collect();
    for (o, s) in scales.iter().enumerate() {
        let worst = error[o * 4..o * 4 + 4]
            .iter()
            .fold(0.0f32, |m, &e| m.max(e));
        writeln!(
            out,
            "channel {o}: scale {s:.6}, largest rounding error {worst:.6} <= scale / 2: {}",
            worst as f64 <= s / 2.0 + 1e-9
        )?;
    }
    // PyTorch quantizes with a zero scale (garbage); here it is an error.
    if let Err(err) = x.try_quantize_per_tensor::<QUInt8>(0.0, 10) {
        writeln!(out, "scale 0 is refused:\n    {err}")?;
    }
    Ok(())
}

/// A ragged batch of three sequences of 3 features.
fn ragged(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    type Batched = Nested<f32, shape![Batch: Dyn, Seq: Dyn, Features: 3]>;
    let a = Tensor::<f32, shape![Seq: 2, Features: 3]>::arange();
    let b =
        Tensor::<f32, shape![Seq: 4, Features: 3]>::from_vec((6..18).map(|v| v as f32).collect());
    let c = Tensor::<f32, shape![Seq: 1, Features: 3]>::from_array([[18.0, 19.0, 20.0]]);
    let n = Batched::builder().push(&a).push(&b).push(&c).try_build()?;
    writeln!(out, "n = {n}")?;
    let padded = n.try_to_padded(0.0)?;
    writeln!(
        out,
        "values {} floats; padded {:?} = {} floats",
        n.values().numel(),
        padded.sizes().as_slice(),
        padded.numel()
    )?;
    writeln!(out, "{}", labelled("n.sum::<Seq>()", n.sum::<Seq>()))?;
    let p = n.try_softmax::<Seq>()?;
    let col0: Vec<String> = p
        .values()
        .to_vec()
        .chunks(3)
        .map(|r| format!("{:.6}", r[0]))
        .collect();
    writeln!(
        out,
        "n.softmax::<Seq>()[:, :, 0] per item: {}",
        col0.join(", ")
    )?;
    match n.try_to_padded_len(0.0, 2) {
        Ok(t) => writeln!(out, "padded to 2: {:?}", t.sizes().as_slice())?,
        Err(err) => writeln!(
            out,
            "padding to 2 rows is refused (PyTorch truncates):\n    {err}"
        )?,
    }
    Ok(())
}
