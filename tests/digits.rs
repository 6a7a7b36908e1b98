//! A real training run: `examples/digits` trains on scikit-learn's digits
//! from the weights, split, batches and optimizer of
//! `oracle/torch_digits.py`; the loss of each of its 200 steps equals
//! PyTorch's within 1e-4 relative, and the held-out accuracy is at least
//! 97%. Skips when the data is absent (`bash bench/fetch_digits.sh`
//! fetches it; `.ci/run` does).

#[path = "../examples/digits/mlp.rs"]
mod mlp;

#[test]
fn digits_train_as_in_pytorch() {
    let path = mlp::data_path();
    if !path.exists() {
        eprintln!(
            "digits: skipped, no data at {} (run bench/fetch_digits.sh)",
            path.display()
        );
        return;
    }
    let reference = mlp::reference().unwrap();
    let run = mlp::train(&path, &reference).unwrap();
    let torch = reference["losses"].as_array().unwrap();
    assert_eq!(run.losses.len(), mlp::STEPS);
    assert_eq!(torch.len(), mlp::STEPS);
    for (s, (ours, theirs)) in run.losses.iter().zip(torch).enumerate() {
        let theirs = theirs.as_f64().unwrap();
        let rel = (f64::from(*ours) - theirs).abs() / theirs.abs();
        assert!(
            rel <= 1e-4,
            "step {s}: loss {ours}, PyTorch's {theirs} (relative {rel:e})"
        );
    }
    assert!(run.accuracy >= 0.97, "held-out accuracy {}", run.accuracy);
    let theirs = reference["accuracy"].as_f64().unwrap();
    assert!(
        (run.accuracy - theirs).abs() <= 1.0 / 360.0,
        "accuracy {} against PyTorch's {theirs}",
        run.accuracy
    );
}
