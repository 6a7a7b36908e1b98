// Windows of 12 elements along an axis of 10.
use axial::prelude::*;
axes!(Time, Window);

fn main() {
    let x = Tensor::<f32, shape![Time: 10]>::zeros();
    let _ = x.unfold_windows::<Time, Window, 12, 1>();
}
