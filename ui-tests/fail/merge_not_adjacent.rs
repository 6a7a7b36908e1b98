// `merge` of axes that are not adjacent in this order.
use axial::prelude::*;
axes!(N, C, H, W, HW);

fn main() {
    let x = Tensor::<f32, shape![N: 2, C: 3, H: 4, W: 5]>::zeros();
    let _ = x.merge::<names![W, H], HW>();
}
