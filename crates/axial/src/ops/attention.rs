//! `scaled_dot_product_attention` by axis name: queries `[..., Seq, Head]`,
//! keys `[..., Key, Head]` and values `[..., Key, Value]`, the two products
//! proven as `matmul`'s (`Head` contracted by name and size, then `Key`),
//! with a causal or a given mask.

use axial_core::{Backend, Bool, Element, Result};
use axial_shape::{Attend, InPlace, Shape};
use half::{bf16, f16};

use crate::access::owned;
use crate::float::Float;
use crate::or_panic::or_panic;
use crate::repr::Data;
use crate::tensor::{Tensor, TensorBase};

/// The options of [`scaled_dot_product_attention`](TensorBase::scaled_dot_product_attention):
/// PyTorch's `is_causal` and `scale` (`None`: `1/√Head`).
///
/// ```
/// use axial::Attention;
/// let causal = Attention { is_causal: true, ..Attention::default() };
/// assert_eq!((causal.is_causal, causal.scale), (true, None));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Attention {
    /// Query `i` attends to keys `j ≤ i` only (the top-left triangle, as
    /// PyTorch's: with a cache, pass a mask instead).
    pub is_causal: bool,
    /// The factor of the scores (`None`: `1/√Head`).
    pub scale: Option<f64>,
}

/// The element type of an attention mask for `T` scores: `Bool` keeps the
/// scores where it is true, a mask of `T` is added to them.
///
/// ```
/// use axial::{AttentionMask, Bool};
/// fn mask<M: AttentionMask<f32>>() {}
/// mask::<Bool>();
/// mask::<f32>();
/// ```
#[diagnostic::on_unimplemented(
    message = "an attention mask for `{T}` scores is `Bool` or `{T}`, not `{Self}`",
    label = "not a mask of these scores",
    note = "a bool mask keeps the scores where it is true; a float mask of the scores' dtype is added to them"
)]
pub trait AttentionMask<T>: Element {}
macro_rules! masks {
    ($($t:ty),*) => {$(
        impl AttentionMask<$t> for Bool {}
        impl AttentionMask<$t> for $t {}
    )*};
}
masks!(f16, bf16, f32, f64);

/// The shape attention of queries `S` over keys `SK` and values `SV` gives:
/// `[..., Seq, Value]`.
///
/// ```
/// use axial::prelude::*;
/// use axial::Attended;
/// axes!(Heads, Seq, Key, Head);
/// type Q = shape![Heads: 2, Seq: 3, Head: 8];
/// type K = shape![Heads: 2, Key: 5, Head: 8];
/// let _: Option<Attended<Q, K, K>> = None::<shape![Heads: 2, Seq: 3, Head: 8]>;
/// ```
pub type Attended<S, SK, SV> = <S as Attend<SK, SV>>::Output;

impl<T: Float, S: Shape, D: Backend, R: Data<D>> TensorBase<T, S, D, R> {
    /// PyTorch's `scaled_dot_product_attention(q, k, v, is_causal=...,
    /// scale=...)` with these queries `[..., Seq, Head]`, the keys
    /// `[..., Key, Head]` and the values `[..., Key, Value]`:
    /// `softmax(q·kᵀ · scale) · v` over `Key`, of shape `[..., Seq, Value]`.
    /// The queries' last axis is the keys' last (name and size), the keys'
    /// second-to-last the values' (the two products `matmul` proves); the
    /// leading axes broadcast. No dropout (the inference op).
    ///
    /// # Errors
    /// A `Dyn` size that does not fit at run time, or a failure of the
    /// device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Attention;
    /// axes!(Seq, Key, Head);
    /// let q = Tensor::<f32, shape![Seq: 2, Head: 2]>::from_array([[1.0, 0.0], [0.0, 1.0]]);
    /// let k = Tensor::<f32, shape![Key: 2, Head: 2]>::from_array([[1.0, 0.0], [0.0, 1.0]]);
    /// let v = Tensor::<f32, shape![Key: 2, Head: 1]>::from_array([[10.0], [20.0]]);
    /// let causal = Attention { is_causal: true, ..Attention::default() };
    /// let out = q.try_scaled_dot_product_attention(&k, &v, causal)?; // shape![Seq: 2, Head: 1]
    /// assert_eq!(out.get([0, 0]), 10.0); // the first query sees the first key only
    /// assert!(out.get([1, 0]) > 15.0);
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_scaled_dot_product_attention<SK, SV>(
        &self,
        key: &TensorBase<T, SK, D, impl Data<D>>,
        value: &TensorBase<T, SV, D, impl Data<D>>,
        options: Attention,
    ) -> Result<Tensor<T, Attended<S, SK, SV>, D>>
    where
        S: Attend<SK, SV>,
    {
        self.raw()
            .scaled_dot_product_attention(
                &key.raw(),
                &value.raw(),
                None,
                options.is_causal,
                options.scale,
            )
            .map(owned)
    }

    /// PyTorch's `scaled_dot_product_attention(q, k, v, ...)` (see
    /// [`try_scaled_dot_product_attention`](Self::try_scaled_dot_product_attention)).
    ///
    /// # Panics
    /// As [`try_scaled_dot_product_attention`](Self::try_scaled_dot_product_attention),
    /// with its message (only with `Dyn` sizes, or when the device fails).
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Attention;
    /// axes!(Heads, Seq, Key, Head);
    /// let q = Tensor::<f32, shape![Heads: 2, Seq: 3, Head: 4]>::ones();
    /// let kv = Tensor::<f32, shape![Heads: 2, Key: 5, Head: 4]>::arange();
    /// let out = q.scaled_dot_product_attention(&kv, &kv, Attention::default());
    /// assert_eq!(out.names().as_slice(), &[Some("Heads"), Some("Seq"), Some("Head")]);
    /// ```
    #[track_caller]
    pub fn scaled_dot_product_attention<SK, SV>(
        &self,
        key: &TensorBase<T, SK, D, impl Data<D>>,
        value: &TensorBase<T, SV, D, impl Data<D>>,
        options: Attention,
    ) -> Tensor<T, Attended<S, SK, SV>, D>
    where
        S: Attend<SK, SV>,
    {
        or_panic(self.try_scaled_dot_product_attention(key, value, options))
    }

    /// PyTorch's `scaled_dot_product_attention(q, k, v, attn_mask=mask,
    /// scale=...)`: as
    /// [`try_scaled_dot_product_attention`](Self::try_scaled_dot_product_attention),
    /// with a mask broadcast by name into the scores `[..., Seq, Key]`: a
    /// bool mask keeps the scores where it is true (the rest are `-inf`;
    /// a query with every key masked gives NaN, as PyTorch's formula), a
    /// mask of `T` is added to them. With a KV cache, query `i` of `Seq`
    /// new ones after `Past` cached ones sees keys `j ≤ Past + i`:
    /// `ones.tril::<Seq, Key>(past)`.
    ///
    /// # Errors
    /// `is_causal` set as well (PyTorch refuses both), a `Dyn` size that
    /// does not fit, or a failure of the device.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Attention;
    /// axes!(Seq, Key, Head);
    /// let q = Tensor::<f32, shape![Seq: 1, Head: 2]>::ones();
    /// let k = Tensor::<f32, shape![Key: 3, Head: 2]>::ones();
    /// let v = Tensor::<f32, shape![Key: 3, Head: 1]>::from_array([[1.0], [2.0], [6.0]]);
    /// let padded = Tensor::<Bool, shape![Key: 3]>::from_array([Bool::TRUE, Bool::TRUE, Bool::FALSE]);
    /// let out = q.try_scaled_dot_product_attention_masked(&k, &v, &padded, Attention::default())?;
    /// assert_eq!(out.to_vec(), vec![1.5]); // the third key is left out
    /// # Ok::<(), axial::Error>(())
    /// ```
    pub fn try_scaled_dot_product_attention_masked<SK, SV, M, SM>(
        &self,
        key: &TensorBase<T, SK, D, impl Data<D>>,
        value: &TensorBase<T, SV, D, impl Data<D>>,
        mask: &TensorBase<M, SM, D, impl Data<D>>,
        options: Attention,
    ) -> Result<Tensor<T, Attended<S, SK, SV>, D>>
    where
        S: Attend<SK, SV>,
        M: AttentionMask<T>,
        SM: Shape,
        <S as Attend<SK, SV>>::Scores: InPlace<SM>,
    {
        self.raw()
            .scaled_dot_product_attention(
                &key.raw(),
                &value.raw(),
                Some(&mask.raw()),
                options.is_causal,
                options.scale,
            )
            .map(owned)
    }

    /// PyTorch's `scaled_dot_product_attention(q, k, v, attn_mask=mask,
    /// ...)` (see
    /// [`try_scaled_dot_product_attention_masked`](Self::try_scaled_dot_product_attention_masked)).
    ///
    /// # Panics
    /// As [`try_scaled_dot_product_attention_masked`](Self::try_scaled_dot_product_attention_masked),
    /// with its message.
    ///
    /// ```
    /// use axial::prelude::*;
    /// use axial::Attention;
    /// axes!(Seq, Key, Head);
    /// let q = Tensor::<f64, shape![Seq: 1, Head: 1]>::zeros();
    /// let kv = Tensor::<f64, shape![Key: 2, Head: 1]>::from_array([[0.0], [1.0]]);
    /// let bias = Tensor::<f64, shape![Key: 2]>::from_array([0.0, f64::NEG_INFINITY]);
    /// let out = q.scaled_dot_product_attention_masked(&kv, &kv, &bias, Attention::default());
    /// assert_eq!(out.to_vec(), vec![0.0]);
    /// ```
    #[track_caller]
    pub fn scaled_dot_product_attention_masked<SK, SV, M, SM>(
        &self,
        key: &TensorBase<T, SK, D, impl Data<D>>,
        value: &TensorBase<T, SV, D, impl Data<D>>,
        mask: &TensorBase<M, SM, D, impl Data<D>>,
        options: Attention,
    ) -> Tensor<T, Attended<S, SK, SV>, D>
    where
        S: Attend<SK, SV>,
        M: AttentionMask<T>,
        SM: Shape,
        <S as Attend<SK, SV>>::Scores: InPlace<SM>,
    {
        or_panic(self.try_scaled_dot_product_attention_masked(key, value, mask, options))
    }
}
