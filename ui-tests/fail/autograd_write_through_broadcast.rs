// A broadcast of a tracked tensor shares elements: it cannot be written.
use axial::prelude::*;
axes!(Rows, Copies);

fn main() {
    let x = Tensor::<f32, shape![Rows: 3]>::ones();
    let mut wide = (x.track() * 1.0).expand::<shape![Copies: 2, Rows: 3]>();
    wide.add_(1.0);
}
