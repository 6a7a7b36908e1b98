// Writing through a broadcast: several elements share one memory location.
use axial::prelude::*;
axes!(Rows, Cols);

fn main() {
    let x = Tensor::<f32, shape![Cols: 3]>::zeros();
    let mut wide = x.expand::<shape![Rows: 4, Cols: 3]>();
    wide.fill_(1.0);
}
