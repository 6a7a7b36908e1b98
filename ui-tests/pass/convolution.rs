// A small CNN over NHWC images, every shape in the type: the output sizes of
// each convolution and pooling are computed while compiling, so the linear
// layer after the flatten is checked against the real feature count
// (16 channels · 7 · 7 = 784). The same weights run on an NCHW batch by
// name; a symbolic batch size and a `Same` convolution keep their symbols.
use axial::prelude::*;

axes!(Batch, Rows, Cols, Channels, Features, Classes);

type Images = shape![Batch: 4, Rows: 28, Cols: 28, Channels: 1];

fn classify(x: &Tensor<f32, Images>) -> Tensor<f32, shape![Batch: 4, Classes: 10]> {
    let w1 = Tensor::<f32, shape![8, 1, 3, 3]>::full(0.1);
    let w2 = Tensor::<f32, shape![16, 8, 3, 3]>::full(0.01);
    let fc = Tensor::<f32, shape![Classes: 10, Features: 784]>::full(0.001);
    // [Batch: 4, Rows: 28, Cols: 28, Channels: 8]
    let h = x.conv(Channels, (Rows, Cols), &w1, None, Same).relu();
    // [Batch: 4, Rows: 14, Cols: 14, Channels: 8]
    let h = h.max_pool((Rows, Cols), Pool::<2>);
    // [Batch: 4, Rows: 7, Cols: 7, Channels: 16]
    let h = h.conv(Channels, (Rows, Cols), &w2, None, Conv::<2, 1>).relu6();
    let flat = h.merge::<names![Rows, Cols, Channels], Features>();
    flat.linear(&fc, None)
}

fn nchw(x: &Tensor<f32, shape![Batch: 2, Channels: 3, Rows: 9, Cols: 9]>) -> Tensor<f32, shape![Batch: 2, Channels: 6, Rows: 3, Cols: 3]> {
    let depthwise = Tensor::<f32, shape![6, 1, 3, 3]>::ones();
    x.conv(Channels, (Rows, Cols), &depthwise, None, Conv::<3, 0, 1, 3>)
}

fn symbolic<'id>(x: &Tensor<f32, shape![Batch: Sym<'id, Batch>, Channels: 4, Rows: Sym<'id, Rows>]>) -> Tensor<f32, shape![Batch: Sym<'id, Batch>, Channels: 2, Rows: Sym<'id, Rows>]> {
    let w = Tensor::<f32, shape![2, 4, 5]>::ones();
    x.conv(Channels, (Rows,), &w, None, Same)
}

// A window as large as its axis fits; `ceil_mode` keeps a last window that
// starts inside the input (PyTorch's rule): 5 columns give 3, not 2.
fn pool_edges(x: &Tensor<f32, shape![Channels: 1, Rows: 2, Cols: 5]>) -> Tensor<f32, shape![Channels: 1, Rows: 1, Cols: 3]> {
    x.max_pool((Rows, Cols), Pool::<2, 2, 0, 1, true>)
}

fn main() {
    assert_eq!(pool_edges(&Tensor::zeros()).sizes().as_slice(), &[1, 1, 3]);
    let y = classify(&Tensor::zeros());
    assert_eq!(y.sizes().as_slice(), &[4, 10]);
    assert_eq!(nchw(&Tensor::ones()).sizes().as_slice(), &[2, 6, 3, 3]);
    let rows = Tensor::<f32, shape![Batch: Dyn, Channels: 4, Rows: Dyn]>::zeros_dyn([2, 7]);
    let out = scope(|s| {
        let x = rows.realize_in::<shape![Batch: Sym<'_, Batch>, Channels: 4, Rows: Sym<'_, Rows>]>(s)?;
        Ok::<_, axial::Error>(symbolic(&x).sizes().to_vec())
    })
    .unwrap();
    assert_eq!(out, vec![2, 2, 7]);
}
