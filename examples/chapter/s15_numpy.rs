//! NumPy interop, the Rust way: an axial tensor and an ndarray array share
//! one buffer, a write through one shows in the other, and a conversion
//! costs nothing (`torch.from_numpy` / `.numpy()`). ndarray counts strides
//! in elements, NumPy in bytes; DLPack carries the same memory to NumPy and
//! PyTorch (the Python side: `python/tests/test_interop.py`). Where PyTorch
//! has no answer (negative strides) axial says so, and copies on request.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::{labelled, tuple};
use ndarray::Ix2;

axes!(Rows, Cols);

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let mut t = Tensor::<f32, shape![Rows: 3, Cols: 4]>::arange();
    writeln!(out, "{}", labelled("t", &t))?;

    // axial -> ndarray: a view of the same memory, strides as they are.
    let a = axial_io::ndarray::view(&t)?.into_dimensionality::<Ix2>()?;
    writeln!(
        out,
        "ndarray view of t: shape {:?}, strides {} (elements), same memory: {}",
        a.shape(),
        tuple(a.strides()),
        a.as_ptr() as usize == t.data_ptr()
    )?;
    let transposed = t.as_view().t();
    let at = axial_io::ndarray::view(&transposed)?;
    writeln!(
        out,
        "ndarray view of t.t(): strides {} (NumPy's bytes: {}), same memory: {}",
        tuple(at.strides()),
        tuple(at.strides().iter().map(|s| s * 4)),
        at.as_ptr() as usize == t.data_ptr()
    )?;

    // A write through ndarray shows in axial, and one through axial in the
    // next ndarray view; the borrow checker keeps the two from overlapping.
    axial_io::ndarray::view_mut(&mut t)?[[0, 0]] = 100.0;
    writeln!(
        out,
        "after a[0, 0] = 100 through ndarray: t[0, 0] = {}",
        t.get([0, 0])
    )?;
    t.add_(10.0);
    let a = axial_io::ndarray::view(&t)?.into_dimensionality::<Ix2>()?;
    writeln!(out, "after t.add_(10) through axial: a[0] = {}", a.row(0))?;

    // ndarray -> axial: an owned array moves its buffer in and back out.
    let array = ndarray::Array::from_shape_vec((2, 3), vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0])?;
    let address = array.as_ptr() as usize;
    let mut x =
        axial_io::ndarray::from_array(array)?.into_typed::<f64, shape![Rows: 2, Cols: 3]>()?;
    x.add_(10.0);
    let back = axial_io::ndarray::into_array::<f64>(x.into_raw())?;
    writeln!(
        out,
        "Array -> axial (add 10) -> Array: {:?}, never copied: {}",
        back.iter().collect::<Vec<_>>(),
        back.as_ptr() as usize == address
    )?;

    // What PyTorch's memory model cannot hold: a negative stride.
    let flipped = back.slice(ndarray::s![..;-1, ..]);
    match axial_io::ndarray::from_array_view(flipped) {
        Ok(_) => writeln!(out, "a negative stride was accepted")?,
        Err(e) => writeln!(out, "a[::-1] refused: {e}")?,
    }
    let copy = axial_io::ndarray::copy_from_array(flipped)?;
    writeln!(
        out,
        "copied on request: strides {}, rows {:?}",
        tuple(copy.strides()),
        copy.to_vec::<f64>()?
    )?;

    // DLPack: the managed tensor NumPy and PyTorch take, the same memory;
    // a view read-only in the type travels with the READ_ONLY flag.
    let capsule = axial_io::dlpack::export_tensor(&mut t)?;
    let imported = axial_io::dlpack::from_dlpack(capsule)?;
    writeln!(
        out,
        "DLPack round trip: strides {}, same memory: {}",
        tuple(imported.view().strides()),
        imported.view().data_ptr() == t.data_ptr()
    )?;
    let read_only = axial_io::dlpack::export_view(&t.as_view().t())?;
    writeln!(
        out,
        "a TensorView exports with flags {:?}",
        read_only.flags()
    )?;
    Ok(())
}
