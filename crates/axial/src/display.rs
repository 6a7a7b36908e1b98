//! Printing like PyTorch: the core's `tensor([...])`, and the axis names
//! as PyTorch printed those of a named tensor (`names=('Rows', 'Cols')`).

use std::fmt;

use axial_core::{Backend, Element, TensorRef, print};
use axial_shape::Shape;

use crate::repr::Data;
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Backend, R: Data<D>> fmt::Display for TensorBase<T, S, D, R> {
    /// The elements as PyTorch prints them (precision 4, summarised past
    /// 1000 elements, the dtype named unless it is `f32`, `i64` or `Bool`),
    /// then `names=(...)` when an axis has a name (`None` for an anonymous one).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Rows, Cols);
    /// let m = Tensor::<f32, shape![Rows: 2, Cols: 3]>::arange();
    /// assert_eq!(
    ///     m.to_string(),
    ///     "tensor([[0., 1., 2.],\n        [3., 4., 5.]], names=('Rows', 'Cols'))"
    /// );
    /// let x = Tensor::<i32, shape![3]>::arange();
    /// assert_eq!(x.to_string(), "tensor([0, 1, 2], dtype=torch.int32)");
    /// let y = Tensor::<f32, shape![Rows: 2, 2]>::ones();
    /// assert!(y.to_string().ends_with("names=('Rows', None))"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names = vec![None; S::RANK];
        S::write_names(&mut names);
        let suffixes: Vec<String> = names_suffix(&names).into_iter().collect();
        let text = match TensorRef::new(self.data.storage(), self.layout.clone(), T::DTYPE) {
            Ok(view) => print::with_suffixes(&view, &suffixes),
            Err(err) => format!("tensor(<unprintable: {err}>)"),
        };
        f.write_str(&text)
    }
}

/// PyTorch's `names=('N', None)` suffix, or nothing when no axis is named.
fn names_suffix(names: &[Option<&str>]) -> Option<String> {
    if names.iter().all(Option::is_none) {
        return None;
    }
    let items: Vec<String> = names
        .iter()
        .map(|name| name.map_or_else(|| "None".to_string(), |n| format!("'{n}'")))
        .collect();
    Some(match items.as_slice() {
        [one] => format!("names=({one},)"),
        _ => format!("names=({})", items.join(", ")),
    })
}
