//! Random fills from a seeded [`Generator`].

use axial_core::{Backend, Element, Generator, Result};
use axial_shape::{Distinct, DynSizes, Shape, StaticShape};

use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Owned;
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Backend + Default> TensorBase<T, S, D, Owned<D>> {
    /// Uniform random values in `[0, 1)` from `rng`.
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let a = Tensor::<f32, shape![4]>::rand(&mut Generator::seed(1));
    /// let b = Tensor::<f32, shape![4]>::rand(&mut Generator::seed(1));
    /// assert_eq!(a.to_vec(), b.to_vec());
    /// assert!(a.to_vec().iter().all(|v| (0.0..1.0).contains(v)));
    /// ```
    #[track_caller]
    pub fn rand(rng: &mut Generator) -> Self
    where
        S: StaticShape + Distinct,
        T: Float,
    {
        Self::rand_dyn((), rng)
    }

    /// Uniform random values, with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let a = Tensor::<f32, shape![Dyn]>::try_rand_dyn(4, &mut Generator::seed(3))?;
    /// assert!(a.to_vec().iter().all(|v| (0.0..1.0).contains(v)));
    /// assert!(Tensor::<f32, shape![Dyn, Dyn]>::try_rand_dyn([usize::MAX, 2], &mut Generator::seed(3)).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_rand_dyn(sizes: impl DynSizes<S>, rng: &mut Generator) -> Result<Self>
    where
        S: Distinct,
        T: Float,
    {
        Self::try_rand_on(&D::default(), sizes, rng)
    }

    /// Uniform random values, with the sizes of the `Dyn` axes.
    ///
    /// # Panics
    /// As [`try_rand_dyn`](Self::try_rand_dyn), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let a = Tensor::<f64, shape![Dyn]>::rand_dyn(5, &mut Generator::seed(3));
    /// assert_eq!(a.numel(), 5);
    /// ```
    #[track_caller]
    pub fn rand_dyn(sizes: impl DynSizes<S>, rng: &mut Generator) -> Self
    where
        S: Distinct,
        T: Float,
    {
        or_panic(Self::try_rand_dyn(sizes, rng))
    }

    /// Standard normal random values from `rng`.
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let a = Tensor::<f32, shape![1000]>::randn(&mut Generator::seed(0));
    /// let mean = a.to_vec().iter().sum::<f32>() / 1000.0;
    /// assert!(mean.abs() < 0.2);
    /// ```
    #[track_caller]
    pub fn randn(rng: &mut Generator) -> Self
    where
        S: StaticShape + Distinct,
        T: Float,
    {
        Self::randn_dyn((), rng)
    }

    /// Standard normal random values, with the sizes of the `Dyn` axes.
    ///
    /// # Errors
    /// The sizes' product overflows or the device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let a = Tensor::<f64, shape![Dyn, 2]>::try_randn_dyn(3, &mut Generator::seed(0))?;
    /// assert_eq!(a.sizes().as_slice(), &[3, 2]);
    /// assert!(Tensor::<f64, shape![Dyn]>::try_randn_dyn(usize::MAX, &mut Generator::seed(0)).is_err());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_randn_dyn(sizes: impl DynSizes<S>, rng: &mut Generator) -> Result<Self>
    where
        S: Distinct,
        T: Float,
    {
        Self::try_randn_on(&D::default(), sizes, rng)
    }

    /// Standard normal random values, with the sizes of the `Dyn` axes.
    ///
    /// # Panics
    /// As [`try_randn_dyn`](Self::try_randn_dyn), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let a = Tensor::<f32, shape![Dyn, 2]>::randn_dyn(3, &mut Generator::seed(0));
    /// assert_eq!(a.sizes().as_slice(), &[3, 2]);
    /// ```
    #[track_caller]
    pub fn randn_dyn(sizes: impl DynSizes<S>, rng: &mut Generator) -> Self
    where
        S: Distinct,
        T: Float,
    {
        or_panic(Self::try_randn_dyn(sizes, rng))
    }
}
