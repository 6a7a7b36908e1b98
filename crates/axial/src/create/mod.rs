//! Constructors. A static shape needs no sizes (`zeros()`); a shape with
//! `Dyn` axes takes their sizes in the `_dyn` twin (`zeros_dyn(batch)`: a
//! `usize` for one `Dyn` axis, `[usize; N]` for several). The device is `D`'s
//! default (`Cpu`, `cuda:0`); the `_on` twins take a device value (`cuda:1`).
//! A shape with symbolic sizes takes their [`Extent`](crate::Extent)s
//! instead (`zeros_dyn(x.extent::<Seq>())`, `Extents((a, b))` for several),
//! which only a tensor of that size or the scope's binding gives.

mod data;
mod fill;
mod on;
mod random;
mod raw;

pub use fill::Eye;
