//! Tensors holding the caller's data: nested arrays and `Vec`s.

use axial_core::{Backend, Element, RawTensor, Result};
use axial_shape::{Distinct, DynSizes, GenericArray, Shape, StaticShape};

use crate::access::owned;
use crate::nested_array::NestedArray;
use crate::or_panic::or_panic;
use crate::repr::Owned;
use crate::tensor::TensorBase;

impl<T: Element, S: Shape, D: Backend + Default> TensorBase<T, S, D, Owned<D>> {
    /// A tensor holding a nested array, whose nesting and extents are proven
    /// to match the shape (a `Dyn` axis takes the array's extent). Extents go
    /// up to 1024 (typenum's mapping of const generics); larger data comes
    /// through [`from_vec`](Self::from_vec).
    ///
    /// # Panics
    /// The device cannot allocate it.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Batch, Cols);
    /// let x = Tensor::<i32, shape![Batch: Dyn, Cols: 2]>::from_array([[1, 2], [3, 4], [5, 6]]);
    /// assert_eq!(x.sizes().as_slice(), &[3, 2]);
    /// ```
    #[track_caller]
    pub fn from_array<A: NestedArray<T, S, S::Display>>(data: A) -> Self
    where
        S: Distinct,
    {
        let mut sizes = GenericArray::<usize, S::Rank>::default();
        A::extents(&mut sizes);
        let mut values = Vec::with_capacity(sizes.iter().product());
        data.push_to(&mut values);
        owned(or_panic(RawTensor::from_slice_on(
            &D::default(),
            &values,
            &sizes,
        )))
    }

    /// A tensor holding `data` in row-major order.
    ///
    /// # Errors
    /// `data` does not hold exactly the shape's number of elements.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// # axes!(Rows, Cols);
    /// assert!(Tensor::<f32, shape![Rows: 2, Cols: 3]>::try_from_vec(vec![0.0; 6]).is_ok());
    /// assert!(Tensor::<f32, shape![Rows: 2, Cols: 3]>::try_from_vec(vec![0.0; 5]).is_err());
    /// ```
    pub fn try_from_vec(data: Vec<T>) -> Result<Self>
    where
        S: StaticShape + Distinct,
    {
        Self::try_from_vec_dyn(data, ())
    }

    /// A tensor holding `data` in row-major order.
    ///
    /// # Panics
    /// As [`try_from_vec`](Self::try_from_vec), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<u8, shape![2, 2]>::from_vec(vec![1, 2, 3, 4]);
    /// assert_eq!(x.get([1, 1]), 4);
    /// ```
    #[track_caller]
    pub fn from_vec(data: Vec<T>) -> Self
    where
        S: StaticShape + Distinct,
    {
        or_panic(Self::try_from_vec(data))
    }

    /// A tensor holding `data` in row-major order, with the sizes of the
    /// `Dyn` axes.
    ///
    /// # Errors
    /// `data` does not hold exactly the shape's number of elements.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2]>::try_from_vec_dyn(vec![0.0; 6], 3)?;
    /// assert_eq!(x.sizes().as_slice(), &[3, 2]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_from_vec_dyn(data: Vec<T>, sizes: impl DynSizes<S>) -> Result<Self>
    where
        S: Distinct,
    {
        Self::try_from_vec_on(&D::default(), data, sizes)
    }

    /// A tensor holding `data` in row-major order, with the sizes of the
    /// `Dyn` axes.
    ///
    /// # Panics
    /// As [`try_from_vec_dyn`](Self::try_from_vec_dyn), with its message.
    ///
    /// ```
    /// # use axial::prelude::*;
    /// let x = Tensor::<i64, shape![Dyn]>::from_vec_dyn(vec![4, 5], 2);
    /// assert_eq!(x.to_vec(), vec![4, 5]);
    /// ```
    #[track_caller]
    pub fn from_vec_dyn(data: Vec<T>, sizes: impl DynSizes<S>) -> Self
    where
        S: Distinct,
    {
        or_panic(Self::try_from_vec_dyn(data, sizes))
    }
}
