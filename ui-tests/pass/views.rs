// Every view by name builds (trybuild runs `cargo build` because of this file).
use axial::prelude::*;
axes!(Batch, Channels, Rows, Cols, Pixels, Diag, Win, One);

fn main() {
    type Images = shape![Batch: Dyn, Channels: 3, Rows: 4, Cols: 4];
    let imgs = Tensor::<f32, Images>::zeros_dyn(2);
    let nhwc = imgs.as_view().align_to::<names![Batch, Rows, Cols, Channels]>();
    let back = nhwc.permute::<names![Batch, Channels, Rows, Cols]>();
    let flat = back.merge::<names![Rows, Cols], Pixels>();
    let _ = flat.split::<Pixels, shape![Rows: 2, Cols: 8]>();
    let fixed = imgs.realize::<shape![Batch: 2, Channels: 3, Rows: 4, Cols: 4]>().unwrap();
    let first = fixed.as_view().at::<Batch, 1>();
    let _ = first.transpose::<Rows, Cols>().t_free();
    let _ = fixed.as_view().diagonal::<Rows, Cols, Diag>(0);
    let _ = fixed.as_view().unfold::<Cols, Win>(2, 1);
    let _ = fixed.as_view().unsqueeze::<One, 0>().squeeze::<One>();
    let _ = fixed.reshape::<shape![Batch: 2, Pixels: 48]>();
}

trait TFree {
    fn t_free(self) -> Self;
}
impl<T> TFree for T {
    fn t_free(self) -> Self {
        self
    }
}
