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
