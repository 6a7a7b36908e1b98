//! Printing helpers of the chapter's examples: sizes and strides as the
//! Python tuples PyTorch prints, a tensor's layout and names on one line,
//! and a tensor printed after its name with its columns lined up.

use std::fmt::Display;

use axial::{Data, Device, Element, Shape, TensorBase};

/// A Python tuple: `()`, `(1,)`, `(1, 2)` (how PyTorch's `stride()` prints).
///
/// ```
/// use axial_suite::show::tuple;
/// assert_eq!(tuple([1]), "(1,)");
/// assert_eq!(tuple([4, 2, 3]), "(4, 2, 3)");
/// assert_eq!(tuple::<[usize; 0]>([]), "()");
/// ```
pub fn tuple<I>(items: I) -> String
where
    I: IntoIterator,
    I::Item: Display,
{
    let items: Vec<String> = items.into_iter().map(|item| item.to_string()).collect();
    match items.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// `name = value`, the lines after the first indented under the value so a
/// printed tensor keeps its columns (empty lines stay empty).
///
/// ```
/// use axial::prelude::*;
/// use axial_suite::show::labelled;
/// let m = Tensor::<i64, shape![2, 2]>::arange();
/// assert_eq!(labelled("m", &m), "m = tensor([[0, 1],\n            [2, 3]])");
/// ```
pub fn labelled(name: &str, value: impl Display) -> String {
    let indent = " ".repeat(name.chars().count() + 3);
    let text = value.to_string();
    let mut lines = text.split('\n');
    let mut labelled = format!("{name} = {}", lines.next().unwrap_or_default());
    for line in lines {
        labelled.push('\n');
        if !line.is_empty() {
            labelled.push_str(&indent);
            labelled.push_str(line);
        }
    }
    labelled
}

/// The layout of `t` as the chapter writes it:
/// `shape (2, 2), strides (4, 1), offset 5`.
///
/// ```
/// use axial::prelude::*;
/// use axial_suite::show::layout;
/// let m = Tensor::<f32, shape![3, 4]>::zeros();
/// assert_eq!(layout(&m.t()), "shape (4, 3), strides (1, 4), offset 0");
/// ```
pub fn layout<T: Element, S: Shape, D: Device, R: Data<D>>(t: &TensorBase<T, S, D, R>) -> String {
    format!(
        "shape {}, strides {}, offset {}",
        tuple(t.shape()),
        tuple(t.strides()),
        t.storage_offset()
    )
}

/// The axis names of `t` as PyTorch printed them: `('N', None)`.
///
/// ```
/// use axial::prelude::*;
/// use axial_suite::show::names;
/// axes!(N);
/// assert_eq!(names(&Tensor::<f32, shape![N: 2, 3]>::zeros()), "('N', None)");
/// ```
pub fn names<T: Element, S: Shape, D: Device, R: Data<D>>(t: &TensorBase<T, S, D, R>) -> String {
    tuple(
        t.names()
            .iter()
            .map(|name| name.map_or_else(|| "None".to_string(), |n| format!("'{n}'"))),
    )
}
