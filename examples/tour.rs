//! The tour: every section of the chapter on tensor storage, strides and
//! memory layouts, in order, each under a heading that names the example
//! running it alone; then a real CNN classifying a photograph
//! (EfficientNet-Lite0, the `efficientnet` example's model, when
//! `bench/fetch_efficientnet.sh` has fetched it). `cargo run --release
//! --example tour`.

mod chapter;
#[path = "efficientnet/lite0.rs"]
mod lite0;

use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut out = std::io::stdout().lock();
    chapter::tour(&mut out)?;
    writeln!(
        out,
        "\n== A real CNN: EfficientNet-Lite0 on a photograph ========== efficientnet ==\n"
    )?;
    let dir = lite0::data_dir();
    let weights = dir.join("efficientnet-lite0.pth");
    if !weights.exists() {
        writeln!(
            out,
            "skipped: no weights in {} (run bench/fetch_efficientnet.sh)",
            dir.display()
        )?;
        return Ok(());
    }
    let model = lite0::EfficientNetLite0::load(&weights).map_err(|e| e.to_string())?;
    let names = lite0::class_names(&dir.join("imagenet_meta.py")).map_err(|e| e.to_string())?;
    let photo = dir.join("images/chelsea.png");
    let x = lite0::images(std::slice::from_ref(&photo)).map_err(|e| e.to_string())?;
    let p = model.forward(&x).softmax::<lite0::Classes>().to_vec();
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[b].total_cmp(&p[a]));
    writeln!(
        out,
        "chelsea.png (scikit-image's cat), NHWC {:?}, top 3:",
        x.sizes().as_slice()
    )?;
    for &c in &order[..3] {
        writeln!(out, "  {:5.1}%  {}", 100.0 * p[c], names[c])?;
    }
    Ok(())
}
