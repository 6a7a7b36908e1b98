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
