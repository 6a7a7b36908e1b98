//! Element types: the dtype is the tensor's element type parameter, and
//! fixes how many bytes each element takes. Casting to `bf16` keeps `f32`'s
//! range with 8 significant bits (two to three decimal digits); `f16` keeps
//! 11 bits over a far smaller range (up to 65504). Labels (class indices)
//! are `i64`, PyTorch's default integer type, which prints without a dtype,
//! and the type `argmax` gives.

use std::error::Error;
use std::io::Write;

use axial::prelude::*;
use axial_suite::show::labelled;

axes!(Value, Sample, Class);

/// Writes one line per element type: its Rust name, dtype and size.
macro_rules! element_sizes {
    ($out:expr, $($t:ty),*) => {
        writeln!($out, "{:>5}  {:<15} {}", "type", "dtype", "bytes")?;
        $(
            let x = Tensor::<$t, shape![Value: 1]>::zeros();
            let dtype = x.dtype().to_string();
            writeln!($out, "{:>5}  {dtype:<15} {:>5}", stringify!($t), x.element_size())?;
        )*
    };
}

/// Prints the section.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    element_sizes!(out, f64, f32, bf16, f16, i64, i32, i16, i8, u8, Bool);
    writeln!(out)?;

    // bf16 rounds to 8 significant bits; f16 keeps 11 but overflows past 65504.
    let x = Tensor::<f32, shape![Value: 4]>::from_array([0.1, std::f32::consts::PI, 1000.1, 1.0e6]);
    writeln!(out, "{}", labelled("x", &x))?;
    let as_bf16 = x.cast::<bf16>();
    writeln!(out, "{}", labelled("x.to(bfloat16)", &as_bf16))?;
    writeln!(out, "    exactly {:?}", as_bf16.to_vec())?;
    let as_f16 = x.cast::<f16>();
    writeln!(out, "{}", labelled("x.to(float16)", &as_f16))?;
    writeln!(out, "    exactly {:?}", as_f16.to_vec())?;
    writeln!(out)?;

    let labels = Tensor::<i64, shape![Sample: 5]>::from_array([2, 0, 1, 2, 1]);
    writeln!(out, "{}", labelled("labels", &labels))?;
    writeln!(
        out,
        "labels: dtype {}, {} bytes each",
        labels.dtype(),
        labels.element_size()
    )?;
    // Predicted labels come out of `argmax` as i64 too, comparable with them.
    let scores = Tensor::<f32, shape![Sample: 5, Class: 3]>::from_array([
        [0.1, 0.2, 0.7],
        [0.8, 0.1, 0.1],
        [0.3, 0.4, 0.3],
        [0.2, 0.5, 0.3],
        [0.1, 0.6, 0.3],
    ]);
    let predicted = scores.argmax::<Class>();
    writeln!(out, "{}", labelled("scores.argmax(Class)", &predicted))?;
    let correct = predicted.eq(&labels).cast::<i64>().sum_all().item();
    writeln!(out, "{correct} of {} predicted right", labels.numel())?;
    Ok(())
}
