//! Training, end to end: a two-layer network learns scikit-learn's digits
//! (1797 8×8 images) with typed gradients and AdamW, from the initial
//! weights `oracle/torch_digits.py` drew in PyTorch, on the same batches;
//! it prints the loss beside PyTorch's every 20 steps and the held-out
//! accuracy.
//!
//! ```sh
//! bash bench/fetch_digits.sh              # the data (scikit-learn's wheel, once)
//! cargo run --release --example digits
//! ```

mod mlp;

fn main() -> mlp::Result<()> {
    let path = mlp::data_path();
    if !path.exists() {
        println!(
            "digits: skipped, no data at {} (run bench/fetch_digits.sh)",
            path.display()
        );
        return Ok(());
    }
    let reference = mlp::reference()?;
    let run = mlp::train(&path, &reference)?;
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
    println!(
        "held-out accuracy: {:.2}% (PyTorch: {:.2}%)",
        100.0 * run.accuracy,
        100.0 * reference["accuracy"].as_f64().unwrap_or(f64::NAN)
    );
    Ok(())
}
