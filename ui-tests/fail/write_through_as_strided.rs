// `+=` through an `as_strided` view of a mutable view: its elements may
// share memory, so it is read-only until `try_into_writable` checks it.
use axial::prelude::*;

fn main() -> Result<(), axial::Error> {
    let mut x = Tensor::<f32, shape![10]>::zeros();
    let mut w = x.as_view_mut().as_strided::<shape![8, 3], 2>([8, 3], [1, 1], None)?;
    w += 1.0;
    Ok(())
}
