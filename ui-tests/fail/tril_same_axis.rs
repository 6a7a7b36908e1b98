// `tril` takes the rows and the columns as two different axes.
use axial::prelude::*;
axes!(Query, Key);

fn main() {
    let ones = Tensor::<f32, shape![Query: 3, Key: 3]>::ones();
    let _ = ones.tril::<Key, Key>(0);
}
