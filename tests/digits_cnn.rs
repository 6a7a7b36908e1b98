//! A real training run of a convolutional network: `examples/digits_cnn`
//! trains on scikit-learn's digits from the weights, split, batches and
//! optimizer of `oracle/torch_digits_cnn.py` (convolution, batch norm in
//! training mode, ReLU, max pooling, flatten, linear; AdamW); the loss of
//! each of its 200 steps equals PyTorch's within 1e-4 relative, batch
//! norm's running statistics end where PyTorch's do, and the held-out
//! accuracy (eval mode) is at least 97%. Skips when the data is absent
//! (`bash bench/fetch_digits.sh` fetches it; `.ci/run` does).

#[path = "../examples/digits_cnn/cnn.rs"]
mod cnn;

#[test]
fn digits_cnn_trains_as_in_pytorch() {
    let path = cnn::data_path();
    if !path.exists() {
        eprintln!(
            "digits_cnn: skipped, no data at {} (run bench/fetch_digits.sh)",
            path.display()
        );
        return;
    }
    let reference = cnn::reference().unwrap();
    let run = cnn::train(&path, &reference).unwrap();
    let torch = reference["losses"].as_array().unwrap();
    assert_eq!(run.losses.len(), cnn::STEPS);
    assert_eq!(torch.len(), cnn::STEPS);
    for (s, (ours, theirs)) in run.losses.iter().zip(torch).enumerate() {
        let theirs = theirs.as_f64().unwrap();
        let rel = (f64::from(*ours) - theirs).abs() / theirs.abs();
        assert!(
            rel <= 1e-4,
            "step {s}: loss {ours}, PyTorch's {theirs} (relative {rel:e})"
        );
    }
    for (what, ours) in [
        ("running_mean", &run.running.mean),
        ("running_var", &run.running.var),
    ] {
        let theirs = reference[what].as_array().unwrap();
        for (c, (a, b)) in ours.to_vec().iter().zip(theirs).enumerate() {
            let b = b.as_f64().unwrap();
            assert!(
                (f64::from(*a) - b).abs() <= 1e-4 * b.abs().max(1e-2),
                "{what}[{c}]: {a}, PyTorch's {b}"
            );
        }
    }
    assert!(run.accuracy >= 0.97, "held-out accuracy {}", run.accuracy);
    let theirs = reference["accuracy"].as_f64().unwrap();
    assert!(
        (run.accuracy - theirs).abs() <= 1.0 / 360.0,
        "accuracy {} against PyTorch's {theirs}",
        run.accuracy
    );
}
