// In place through overlapping windows of a mutable view: two windows share
// elements, so the view is read-only (PyTorch fails at run time).
use axial::prelude::*;
axes!(Time, Window);

fn main() {
    let mut x = Tensor::<f32, shape![Time: 10]>::zeros();
    let mut windows = x.as_view_mut().unfold::<Time, Window>(3, 1);
    windows.add_(1.0);
}
