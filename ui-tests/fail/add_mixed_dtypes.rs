// No implicit type promotion: the message says what to cast to.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let a = Tensor::<f32, shape![Rows: 3]>::zeros();
    let b = Tensor::<f64, shape![Rows: 3]>::zeros();
    let _ = &a + &b;
}
