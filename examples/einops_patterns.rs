//! einops patterns on named axes, beyond the chapter's sections: the NCHW
//! → NHWC permutation by `align_to` and by `rearrange!` (as in section 5,
//! `s05_named_axes`), then what only a pattern says in one line: patches,
//! flattening, pooling, repetition, and NumPy-style slicing with `s!`.
//! Every pattern and every shape here is checked while the program compiles.

use axial::prelude::*;

axes!(Batch, Channels, Rows, Cols, P, Q, Copies);

fn main() {
    let images = Tensor::<f32, shape![Batch: 2, Channels: 3, Rows: 4, Cols: 4]>::arange();
    println!("images:      {images:?}");

    let by_names = images
        .as_view()
        .align_to::<names![Batch, Rows, Cols, Channels]>();
    let by_pattern = rearrange!(
        images.as_view(),
        "Batch Channels Rows Cols -> Batch Rows Cols Channels"
    );
    println!("align_to:    {by_names:?}");
    println!("rearrange!:  {by_pattern:?}");
    assert_eq!(by_names.strides(), by_pattern.strides());
    assert!(by_pattern.shares_storage_with(&images));

    // 2x2 patches moved into the channels: a copy, as einops makes one.
    let patches = rearrange!(
        images.as_view(),
        "Batch Channels (Rows P) (Cols Q) -> Batch (Channels P Q) Rows Cols",
        P = 2,
        Q = 2
    );
    println!(
        "patches:     {patches:?} (a view: {})",
        patches.shares_storage_with(&images)
    );

    // Everything but the batch in one axis: a view, named by what it holds.
    let flat = rearrange!(images.as_view(), "Batch ... -> Batch (...)");
    println!("flattened:   {flat:?} names {:?}", flat.names().as_slice());

    // 2x2 max pooling, and three copies of each image as stride-0 views.
    let pooled = reduce!(
        images.as_view(),
        "Batch Channels (Rows 2) (Cols 2) -> Batch Channels Rows Cols",
        max
    );
    println!("pooled:      {pooled:?} first {:?}", &pooled.to_vec()[..2]);
    let copies = repeat!(
        images.as_view(),
        "Batch Channels Rows Cols -> Batch Copies Channels Rows Cols",
        Copies = 3
    );
    println!("repeated:    {copies:?}");

    // The top-left 2x2 corner of channel 0 of every image.
    let corner = images.as_view().slice_s(s![.., 0, ..2, ..2]);
    println!("corner:      {corner:?} values {:?}", corner.to_vec());
}
