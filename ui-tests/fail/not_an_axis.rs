// A type that is not an axis name where one is expected.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let x = Tensor::<f32, shape![Rows: 2]>::zeros();
    let _ = x.select::<u32>(0);
}
