//! Training a convolutional network, end to end: convolution, batch norm
//! in training mode, ReLU, max pooling, a flatten by name and a linear
//! layer learn scikit-learn's digits (1797 8×8 images) with typed gradients
//! and AdamW, from the initial weights `oracle/torch_digits_cnn.py` drew in
//! PyTorch, on the same batches; it prints the loss beside PyTorch's every
//! 20 steps and the held-out accuracy (eval mode: batch norm's running
//! statistics).
//!
//! ```sh
//! bash bench/fetch_digits.sh              # the data (scikit-learn's wheel, once)
//! cargo run --release --example digits_cnn
//! ```

mod cnn;

fn main() -> cnn::Result<()> {
    let path = cnn::data_path();
    if !path.exists() {
        println!(
            "digits_cnn: skipped, no data at {} (run bench/fetch_digits.sh)",
            path.display()
        );
        return Ok(());
    }
    let reference = cnn::reference()?;
    let run = cnn::train(&path, &reference)?;
    let torch = &reference["losses"];
    println!("step  loss (axial)  loss (PyTorch)");
    for (s, loss) in run.losses.iter().enumerate() {
        if s % 20 == 0 || s + 1 == run.losses.len() {
            println!(
                "{s:>4}  {loss:>12.6}  {:>14.6}",
                torch[s].as_f64().unwrap_or(f64::NAN)
            );
        }
    }
    let ours = run
        .running
        .mean
        .to_vec()
        .into_iter()
        .chain(run.running.var.to_vec());
    let theirs = reference["running_mean"]
        .as_array()
        .into_iter()
        .chain(reference["running_var"].as_array())
        .flatten();
    let apart = ours
        .zip(theirs)
        .map(|(a, b)| (f64::from(a) - b.as_f64().unwrap_or(f64::NAN)).abs())
        .fold(0.0, f64::max);
    println!("batch norm's running statistics: at most {apart:.2e} from PyTorch's");
    println!(
        "held-out accuracy: {:.2}% (PyTorch: {:.2}%)",
        100.0 * run.accuracy,
        100.0 * reference["accuracy"].as_f64().unwrap_or(f64::NAN)
    );
    Ok(())
}
