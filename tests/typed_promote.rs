//! The type-level promotion table agrees with the core's `promote_types`
//! for every pair of the ten element types.

use axial::{Element, Promoted, bf16, f16};
use axial_core::{Bool, DType};

/// Checks `Promoted<A, B>` against `DType::promote` for each `B` in the list.
macro_rules! row {
    ($a:ty: $($b:ty),*) => {$(
        assert_eq!(
            <Promoted<$a, $b> as Element>::DTYPE,
            <$a as Element>::DTYPE.promote(<$b as Element>::DTYPE).unwrap(),
            "{} with {}",
            stringify!($a),
            stringify!($b),
        );
    )*};
}

/// Every pair of the listed types.
macro_rules! table {
    ($($a:ty),*) => {
        let mut pairs = 0;
        $(
            row!($a: Bool, u8, i8, i16, i32, i64, f16, bf16, f32, f64);
            pairs += 10;
        )*
        assert_eq!(pairs, DType::ALL.len() * DType::ALL.len());
    };
}

#[test]
fn promoted_agrees_with_promote_types_for_all_pairs() {
    table!(Bool, u8, i8, i16, i32, i64, f16, bf16, f32, f64);
}

#[test]
fn semantics_promotion_examples() {
    let _: Option<Promoted<u8, i8>> = None::<i16>;
    let _: Option<Promoted<u8, Bool>> = None::<u8>;
    let _: Option<Promoted<bf16, f16>> = None::<f32>;
    let _: Option<Promoted<i64, f16>> = None::<f16>;
}
