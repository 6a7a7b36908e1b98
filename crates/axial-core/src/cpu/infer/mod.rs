//! Linear layers for deployed models, f32 in and out, their weights packed
//! once in the layout their kernel reads: [`F32Linear`] (f32 weights, the
//! bias and an optional GELU applied as the outputs leave the registers),
//! and with cheaper weights [`Int8Linear`] (int8 weights per output channel, activations quantized
//! per token at each call, `u8 × i8` sums exact in `i32` with AVX-512 VNNI
//! where the CPU has it) and [`Bf16Linear`] (bf16 weights and activations,
//! sums in f32 with AVX-512 BF16 where the CPU has it). Each is built once
//! from an f32 weight and bias.
//!
//! All three give the same bits on any number of threads: every output element
//! is computed by one thread, over the contracted axis in a fixed order.

mod attention;
mod bf16;
mod f32;
mod int8;
mod rows;

pub use attention::attention;
pub use bf16::Bf16Linear;
pub use f32::F32Linear;
pub use int8::Int8Linear;

/// The sizes of an inference layer's weight, `[out_features, in_features]`:
/// what [`F32Linear`], [`Int8Linear`] and [`Bf16Linear`] share.
pub trait Features {
    /// `(out_features, in_features)`.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::cpu::infer::{Bf16Linear, Features};
    /// let w = RawTensor::zeros(&[4, 3], DType::F32)?;
    /// assert_eq!(Bf16Linear::new(&w.view(), None)?.features(), (4, 3));
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn features(&self) -> (usize, usize);

    /// Outputs of the layer.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::cpu::infer::{F32Linear, Features};
    /// let w = RawTensor::zeros(&[4, 3], DType::F32)?;
    /// assert_eq!(F32Linear::new(&w.view(), None)?.out_features(), 4);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn out_features(&self) -> usize {
        self.features().0
    }

    /// Inputs of the layer.
    ///
    /// ```
    /// use axial_core::{DType, RawTensor};
    /// use axial_core::cpu::infer::{Features, Int8Linear};
    /// let w = RawTensor::zeros(&[4, 3], DType::F32)?;
    /// assert_eq!(Int8Linear::new(&w.view(), None)?.in_features(), 3);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    fn in_features(&self) -> usize {
        self.features().1
    }
}

/// `((i · mul) mod modulus − shift) / scale` for `i < len`: test operands
/// whose values repeat with no short period.
#[cfg(test)]
fn sequence(len: usize, mul: usize, modulus: usize, shift: f32, scale: f32) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * mul % modulus) as f32 - shift) / scale)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cpu, RawTensor, Result, TensorRef};

    type Forward<'a> = Box<dyn Fn(&TensorRef<'_, Cpu>) -> Result<RawTensor> + 'a>;

    #[test]
    fn gelu_in_the_epilogue_gives_the_bits_of_gelu_after() {
        // Outputs from −12 to 12: vectors with lanes below −6 (the GELU's
        // wide path) and without.
        let (m, n, k) = (13, 96, 40);
        let x = sequence(m * k, 37, 101, 50.0, 50.0);
        let w: Vec<f32> = (0..n * k)
            .map(|i| ((i * 91 % 103) as f32 - 51.0) / 40.0 * (1 + i / k % 3) as f32)
            .collect();
        let b: Vec<f32> = (0..n).map(|i| (i as f32 - 48.0) / 4.0).collect();
        let (wt, bt) = (
            RawTensor::from_vec(w, &[n, k]).unwrap(),
            RawTensor::from_vec(b, &[n]).unwrap(),
        );
        let (w, b) = (wt.view(), bt.view());
        let f32_layer = F32Linear::new(&w, Some(&b)).unwrap();
        let int8 = Int8Linear::new(&w, Some(&b)).unwrap();
        let bf16 = Bf16Linear::new(&w, Some(&b)).unwrap();
        let layers: [(&str, Forward<'_>, Forward<'_>); 3] = [
            (
                "f32",
                Box::new(|x| f32_layer.forward(x)),
                Box::new(|x| f32_layer.forward_gelu(x)),
            ),
            (
                "int8",
                Box::new(|x| int8.forward(x)),
                Box::new(|x| int8.forward_gelu(x)),
            ),
            (
                "bf16",
                Box::new(|x| bf16.forward(x)),
                Box::new(|x| bf16.forward_gelu(x)),
            ),
        ];
        let xt = RawTensor::from_vec(x, &[m, k]).unwrap();
        for (name, forward, forward_gelu) in &layers {
            let fused = forward_gelu(&xt.view()).unwrap().to_vec::<f32>().unwrap();
            let mut after = forward(&xt.view()).unwrap();
            after.view_mut().unary_(crate::UnaryOp::Gelu).unwrap();
            let after = after.to_vec::<f32>().unwrap();
            assert!(
                after.iter().any(|&v| v < 0.0 && v > -1e-8),
                "{name}: no output below −6"
            );
            for (i, (f, a)) in fused.iter().zip(&after).enumerate() {
                assert_eq!(f.to_bits(), a.to_bits(), "{name} element {i}: {f} vs {a}");
            }
        }
    }
}
