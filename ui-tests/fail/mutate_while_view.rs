// Writing to a tensor while a view of it is alive.
use axial::prelude::*;
axes!(Rows);

fn main() {
    let mut x = Tensor::<f32, shape![Rows: 3]>::zeros();
    let v = x.as_view().narrow::<Rows>(0, 2);
    x.fill_(1.0);
    println!("{:?}", v.to_vec());
}
