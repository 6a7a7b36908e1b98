//! What a nested tensor of one ragged axis `R` has: its values, reductions
//! by name (over `R` one result per item, dense; over another axis nested
//! again), `transpose` and `rename`.

use axial_core::{Element, ReduceOp, Result, Scalar};
use axial_shape::{Cons, Nil, Rename, Transpose};

use super::{Batched, ItemAxis, Nested, ReduceNested, Renamed};
use crate::float::Float;
use crate::ops::ResultTypes;
use crate::or_panic::or_panic;
use crate::repr::View;
use crate::tensor::{TensorBase, TensorView};

/// The ragged axis `R` after renaming `Old` to `New`, as a names list.
type RenamedRagged<R, Old, New> = Cons<<R as Renamed<Old, New>>::Out, Nil>;

impl<T: Element, S: Batched, R> Nested<T, S, Cons<R, Nil>> {
    /// The items concatenated along the ragged axis (a view).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<i64, shape![Batch: Dyn, Seq: Dyn]>::builder()
    ///     .push(&Tensor::<i64, shape![Seq: 1]>::full(7))
    ///     .push(&Tensor::<i64, shape![Seq: 2]>::full(8))
    ///     .build();
    /// assert_eq!(n.values().to_vec(), vec![7, 8, 8]);
    /// ```
    pub fn values(&self) -> TensorView<'_, T, S::Items> {
        let v = self.inner.values();
        TensorBase::from_parts(View(v.storage()), v.layout().clone())
    }

    /// `sum` over the axis `A`: over the ragged axis, one sum per item (a
    /// dense tensor, no padding involved; an empty item sums to 0); over a
    /// fixed axis, a nested tensor without it. The batch axis does not
    /// compile. Integers sum to `i64`, as in PyTorch.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Features);
    /// let n = Nested::<i32, shape![Batch: Dyn, Seq: Dyn, Features: 2]>::builder()
    ///     .push(&Tensor::<i32, shape![Seq: 2, Features: 2]>::arange())
    ///     .push(&Tensor::<i32, shape![Seq: 0, Features: 2]>::zeros())
    ///     .build();
    /// assert_eq!(n.try_sum::<Seq>()?.to_vec(), vec![2, 4, 0, 0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_sum<A>(&self) -> Result<<S as ReduceNested<A, R>>::Out<T::Sum>>
    where
        S: ReduceNested<A, R>,
        T: ResultTypes,
    {
        S::reduce::<T::Sum>(&self.inner, ReduceOp::Sum)
    }

    /// `sum` over the axis `A`.
    ///
    /// # Panics
    /// As [`try_sum`](Self::try_sum), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Features);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 2]>::from_items(&[Tensor::<f32, shape![Seq: 2, Features: 2]>::arange()]);
    /// assert_eq!(n.sum::<Seq>().to_vec(), vec![2.0, 4.0]);
    /// assert_eq!(n.sum::<Features>().values().to_vec(), vec![1.0, 5.0]);
    /// ```
    #[track_caller]
    pub fn sum<A>(&self) -> <S as ReduceNested<A, R>>::Out<T::Sum>
    where
        S: ReduceNested<A, R>,
        T: ResultTypes,
    {
        or_panic(self.try_sum::<A>())
    }

    /// `amax` over the axis `A` (see [`sum`](Self::sum)).
    ///
    /// # Errors
    /// An empty item when `A` is the ragged axis: PyTorch returns `-FLT_MAX`
    /// (the dtype's lowest value), a value no item holds; ask for it with
    /// [`try_amax_or`](Self::try_amax_or).
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::builder()
    ///     .push(&Tensor::<f32, shape![Seq: 2]>::from_array([1.0, 3.0]))
    ///     .push(&Tensor::<f32, shape![Seq: 0]>::zeros())
    ///     .build();
    /// assert!(n.try_amax::<Seq>().is_err());
    /// ```
    pub fn try_amax<A>(&self) -> Result<<S as ReduceNested<A, R>>::Out<T>>
    where
        S: ReduceNested<A, R>,
    {
        S::reduce::<T>(&self.inner, ReduceOp::Max)
    }

    /// `amax` over the axis `A`.
    ///
    /// # Panics
    /// As [`try_amax`](Self::try_amax), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::from_array([1.0, 3.0])]);
    /// assert_eq!(n.amax::<Seq>().to_vec(), vec![3.0]);
    /// ```
    #[track_caller]
    pub fn amax<A>(&self) -> <S as ReduceNested<A, R>>::Out<T>
    where
        S: ReduceNested<A, R>,
    {
        or_panic(self.try_amax::<A>())
    }

    /// `amax` over the axis `A`, where an empty item gives `empty` over the
    /// ragged axis: `try_amax_or::<Seq>(f32::MIN)` is PyTorch's `amax(dim=1)`,
    /// which gives `-FLT_MAX` there.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::builder()
    ///     .push(&Tensor::<f32, shape![Seq: 2]>::from_array([1.0, 3.0]))
    ///     .push(&Tensor::<f32, shape![Seq: 0]>::zeros())
    ///     .build();
    /// assert_eq!(n.try_amax_or::<Seq>(f32::MIN)?.to_vec(), vec![3.0, f32::MIN]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_amax_or<A>(&self, empty: T) -> Result<<S as ReduceNested<A, R>>::Out<T>>
    where
        S: ReduceNested<A, R>,
    {
        S::reduce_or::<T>(&self.inner, ReduceOp::Max, Scalar::of(empty))
    }

    /// `amax` over the axis `A`, an empty item giving `empty`.
    ///
    /// # Panics
    /// As [`try_amax_or`](Self::try_amax_or), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<i32, shape![Batch: Dyn, Seq: Dyn]>::builder()
    ///     .push(&Tensor::<i32, shape![Seq: 0]>::zeros())
    ///     .build();
    /// assert_eq!(n.amax_or::<Seq>(i32::MIN).to_vec(), vec![i32::MIN]);
    /// ```
    #[track_caller]
    pub fn amax_or<A>(&self, empty: T) -> <S as ReduceNested<A, R>>::Out<T>
    where
        S: ReduceNested<A, R>,
    {
        or_panic(self.try_amax_or::<A>(empty))
    }

    /// The axes `A` and `B` swapped, by name (a view, PyTorch's jagged
    /// `transpose`): the ragged axis goes where its name goes. The batch
    /// axis does not compile.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Features);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 2]>::builder()
    ///     .push(&Tensor::<f32, shape![Seq: 1, Features: 2]>::from_array([[1.0, 2.0]]))
    ///     .push(&Tensor::<f32, shape![Seq: 2, Features: 2]>::arange())
    ///     .build();
    /// let t = n.transpose::<Seq, Features>(); // Nested<f32, shape![Batch: Dyn, Features: 2, Seq: Dyn], names![Seq]>
    /// assert_eq!(t.try_item(1)?.to_vec(), vec![0.0, 2.0, 1.0, 3.0]);
    /// assert_eq!(t.sum::<Seq>().to_vec(), vec![1.0, 2.0, 2.0, 4.0]);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn transpose<A, B>(self) -> Nested<T, <S as Transpose<A, B>>::Output, Cons<R, Nil>>
    where
        S: Transpose<A, B> + ItemAxis<A> + ItemAxis<B>,
        <S as Transpose<A, B>>::Output: Batched,
    {
        let (a, b) = <S as Transpose<A, B>>::POSITIONS;
        Nested::wrap(or_panic(self.inner.transpose(a as isize, b as isize)))
    }

    /// The axis `Old` renamed `New` (the ragged axis too, when it is `Old`):
    /// the keys of an attention renamed from the queries' `Seq` to `Key`.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq, Key, Features);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn, Features: 2]>::from_items(&[Tensor::<f32, shape![Seq: 3, Features: 2]>::ones()]);
    /// let k: Nested<f32, shape![Batch: Dyn, Key: Dyn, Features: 2]> = n.rename::<Seq, Key>();
    /// assert_eq!(k.sum::<Key>().to_vec(), vec![3.0, 3.0]);
    /// ```
    pub fn rename<Old, New>(
        self,
    ) -> Nested<T, <S as Rename<Old, New>>::Output, RenamedRagged<R, Old, New>>
    where
        S: Rename<Old, New>,
        <S as Rename<Old, New>>::Output: Batched,
        R: Renamed<Old, New>,
    {
        Nested::wrap(self.inner)
    }
}

impl<T: Float, S: Batched, R> Nested<T, S, Cons<R, Nil>> {
    /// `mean` over the axis `A` (see [`sum`](Self::sum)); an empty item's
    /// mean is NaN, as in PyTorch.
    ///
    /// # Errors
    /// Out of memory.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f64, shape![Batch: Dyn, Seq: Dyn]>::builder()
    ///     .push(&Tensor::<f64, shape![Seq: 2]>::from_array([1.0, 2.0]))
    ///     .push(&Tensor::<f64, shape![Seq: 0]>::zeros())
    ///     .build();
    /// let m = n.try_mean::<Seq>()?.to_vec();
    /// assert!(m[0] == 1.5 && m[1].is_nan());
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_mean<A>(&self) -> Result<<S as ReduceNested<A, R>>::Out<T>>
    where
        S: ReduceNested<A, R>,
    {
        S::reduce::<T>(&self.inner, ReduceOp::Mean)
    }

    /// `mean` over the axis `A`.
    ///
    /// # Panics
    /// As [`try_mean`](Self::try_mean), with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// axes!(Batch, Seq);
    /// let n = Nested::<f32, shape![Batch: Dyn, Seq: Dyn]>::from_items(&[Tensor::<f32, shape![Seq: 2]>::from_array([1.0, 2.0])]);
    /// assert_eq!(n.mean::<Seq>().to_vec(), vec![1.5]);
    /// ```
    #[track_caller]
    pub fn mean<A>(&self) -> <S as ReduceNested<A, R>>::Out<T>
    where
        S: ReduceNested<A, R>,
    {
        or_panic(self.try_mean::<A>())
    }
}
