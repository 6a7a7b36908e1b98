//! EfficientNet-Lite0 against PyTorch: the logits of the photographs
//! scikit-image ships, preprocessed as `examples/efficientnet/lite0.rs`
//! writes it out, compared with the reference
//! `tests/data/efficientnet_reference.json` (made by
//! `bench/efficientnet_reference.py` with PyPI's efficientnet-lite-pytorch
//! model): max abs difference ≤ 1e-4, the same top-5 classes, and the
//! preprocessed input's sums equal. Skips, saying so, when the weights are
//! absent (`bash bench/fetch_efficientnet.sh` fetches them; `.ci/run` does).

#[path = "../examples/efficientnet/lite0.rs"]
mod lite0;

use serde_json::Value;

#[test]
fn logits_match_pytorch() {
    let dir = lite0::data_dir();
    let weights = dir.join("efficientnet-lite0.pth");
    if !weights.exists() {
        eprintln!(
            "efficientnet: skipped, no weights in {} (run bench/fetch_efficientnet.sh)",
            dir.display()
        );
        return;
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/efficientnet_reference.json"
    );
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("committed")).expect("JSON");
    let photos: Vec<String> = reference["photos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    let paths: Vec<_> = photos
        .iter()
        .map(|p| dir.join("images").join(format!("{p}.png")))
        .collect();
    let model = lite0::EfficientNetLite0::load(&weights).expect("the checkpoint loads");
    let x = lite0::images(&paths).expect("the photographs decode");
    let input = x.to_vec();
    for (i, want) in reference["input_sum"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let sum: f64 = input[i * 224 * 224 * 3..(i + 1) * 224 * 224 * 3]
            .iter()
            .map(|&v| f64::from(v))
            .sum();
        let want = want.as_f64().unwrap();
        assert!(
            (sum - want).abs() < 1e-2,
            "{}: preprocessed input sums to {sum}, PyTorch's to {want}",
            photos[i]
        );
    }
    let logits = model.forward(&x).to_vec();
    let mut worst = 0.0f64;
    for (i, row) in reference["logits"].as_array().unwrap().iter().enumerate() {
        let want: Vec<f64> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let got = &logits[i * 1000..(i + 1) * 1000];
        for (g, w) in got.iter().zip(&want) {
            worst = worst.max((f64::from(*g) - w).abs());
        }
        let mut order: Vec<usize> = (0..1000).collect();
        order.sort_by(|&a, &b| got[b].total_cmp(&got[a]));
        let top5: Vec<u64> = reference["top5"][i]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(
            order[..5].iter().map(|&c| c as u64).collect::<Vec<_>>(),
            top5,
            "{}'s top-5 classes",
            photos[i]
        );
    }
    assert!(worst <= 1e-4, "logits differ from PyTorch's by {worst}");
}
