//! How each element is written, chosen once from all the shown elements
//! (PyTorch's `_Formatter`): every element is padded to one common width.

use super::PRECISION;
use super::gather::Values;

/// How floats are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum FloatMode {
    /// Every finite value is integral: `1.`, `-3.`.
    Integral,
    /// Fixed point with [`PRECISION`] decimals: `0.5000`.
    Fixed,
    /// Scientific with [`PRECISION`] decimals: `1.0000e-05`.
    Scientific,
}

/// The common format of a tensor's elements.
#[derive(Copy, Clone, Debug)]
pub(super) struct Formatter {
    float_mode: Option<FloatMode>,
    width: usize,
    /// The formats of the real and the imaginary parts of complex elements.
    parts: Option<[FloatFormat; 2]>,
}

/// The format of one part of complex elements.
#[derive(Copy, Clone, Debug)]
struct FloatFormat {
    mode: FloatMode,
    width: usize,
}

impl Formatter {
    /// The format for `values`, as PyTorch chooses it.
    pub(super) fn new(values: &Values) -> Formatter {
        match values {
            Values::Float(v) => float_formatter(v),
            Values::Int(v) => Formatter {
                float_mode: None,
                width: max_len(v.iter().map(|x| x.to_string())),
                parts: None,
            },
            Values::Bool(v) => Formatter {
                float_mode: None,
                width: max_len(v.iter().map(|&x| bool_str(x).to_string())),
                parts: None,
            },
            Values::Complex(v) => {
                let part = |i: usize| {
                    let f = float_formatter(&v.iter().map(|p| [p.0, p.1][i]).collect::<Vec<_>>());
                    FloatFormat {
                        mode: f.float_mode.unwrap_or(FloatMode::Fixed),
                        width: f.width,
                    }
                };
                let parts = [part(0), part(1)];
                // PyTorch wraps rows by both parts' widths and the `j`.
                Formatter {
                    float_mode: None,
                    width: parts[0].width + parts[1].width + 1,
                    parts: Some(parts),
                }
            }
        }
    }

    /// The width every element is padded to.
    pub(super) fn width(&self) -> usize {
        self.width
    }

    /// Every value written and padded to the common width.
    pub(super) fn format_all(&self, values: &Values) -> Vec<String> {
        match values {
            Values::Float(v) => v.iter().map(|&x| self.pad(self.float(x))).collect(),
            Values::Int(v) => v.iter().map(|x| self.pad(x.to_string())).collect(),
            Values::Bool(v) => v.iter().map(|&x| self.pad(bool_str(x).into())).collect(),
            Values::Complex(v) => v.iter().map(|&(re, im)| self.complex(re, im)).collect(),
        }
    }

    /// PyTorch's complex element: the real part padded to its width, the
    /// imaginary part with `j` and a `+` where it has no sign (`1.0000+2.j`).
    fn complex(&self, re: f64, im: f64) -> String {
        let Some([r, i]) = self.parts else {
            return String::new();
        };
        let part = |f: FloatFormat, x: f64| {
            let s = Formatter {
                float_mode: Some(f.mode),
                width: f.width,
                parts: None,
            };
            s.pad(s.float(x))
        };
        let imag = format!("{}j", part(i, im).trim_start());
        let sign = if imag.starts_with(['+', '-']) {
            ""
        } else {
            "+"
        };
        format!("{}{sign}{imag}", part(r, re))
    }

    fn float(&self, x: f64) -> String {
        match self.float_mode {
            Some(FloatMode::Scientific) => scientific(x),
            Some(FloatMode::Integral) if x.is_finite() => format!("{x:.0}."),
            Some(FloatMode::Integral) => non_finite(x).into(),
            _ => fixed(x),
        }
    }

    fn pad(&self, s: String) -> String {
        format!("{s:>width$}", width = self.width)
    }
}

/// PyTorch's choice for floats: from the non-zero finite values only, integral
/// when all are, scientific when the largest magnitude over the smallest
/// exceeds 1000, the largest exceeds 1e8 or the smallest is below 1e-4.
fn float_formatter(values: &[f64]) -> Formatter {
    let shown: Vec<f64> = values
        .iter()
        .copied()
        .filter(|x| x.is_finite() && *x != 0.0)
        .collect();
    let Some(max) = shown.iter().map(|x| x.abs()).reduce(f64::max) else {
        return Formatter {
            float_mode: Some(FloatMode::Integral),
            width: 1,
            parts: None,
        };
    };
    let min = shown.iter().map(|x| x.abs()).fold(max, f64::min);
    let integral = shown.iter().all(|x| *x == x.ceil());
    let mode = if max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4 {
        FloatMode::Scientific
    } else if integral {
        FloatMode::Integral
    } else {
        FloatMode::Fixed
    };
    let width = match mode {
        FloatMode::Scientific => max_len(shown.iter().map(|&x| scientific(x))),
        FloatMode::Integral => 1 + max_len(shown.iter().map(|&x| format!("{x:.0}"))),
        FloatMode::Fixed => max_len(shown.iter().map(|&x| fixed(x))),
    };
    Formatter {
        float_mode: Some(mode),
        width,
        parts: None,
    }
}

/// The longest of `strs`, and at least 1.
fn max_len(strs: impl Iterator<Item = String>) -> usize {
    strs.map(|s| s.len()).fold(1, usize::max)
}

fn bool_str(x: bool) -> &'static str {
    if x { "True" } else { "False" }
}

/// Python's spelling of NaN and the infinities.
fn non_finite(x: f64) -> &'static str {
    if x.is_nan() {
        "nan"
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
    }
}

/// Python's `f"{x:.4f}"` (Rust's fixed formatting rounds the same way: the
/// exact binary value, ties to even).
fn fixed(x: f64) -> String {
    if !x.is_finite() {
        return non_finite(x).into();
    }
    format!("{x:.prec$}", prec = PRECISION)
}

/// Python's `f"{x:.4e}"`: a signed exponent of at least two digits.
fn scientific(x: f64) -> String {
    if !x.is_finite() {
        return non_finite(x).into();
    }
    let rust = format!("{x:.prec$e}", prec = PRECISION);
    let Some((mantissa, exponent)) = rust.split_once('e') else {
        return rust;
    };
    let Ok(exponent) = exponent.parse::<i32>() else {
        return rust;
    };
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scientific_matches_python() {
        assert_eq!(scientific(1.0e5), "1.0000e+05");
        assert_eq!(scientific(-1.5e-5), "-1.5000e-05");
        assert_eq!(scientific(1.0e100), "1.0000e+100");
        assert_eq!(scientific(0.0), "0.0000e+00");
        assert_eq!(scientific(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn fixed_rounds_ties_to_even_like_python() {
        // 1.03125 and 1.09375 are exact binary ties at the fourth decimal.
        assert_eq!(fixed(1.03125), "1.0312");
        assert_eq!(fixed(1.09375), "1.0938");
        assert_eq!(fixed(f64::NAN), "nan");
    }
}
