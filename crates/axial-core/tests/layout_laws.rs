//! Laws of the strided model, checked on random layouts: the naive reader and
//! the kernels agree, transpose twice is the identity, a permutation and its
//! inverse cancel, and every layout reads exactly `numel` in-bounds elements.

mod support;

use axial_core::Layout;
use proptest::prelude::*;
use support::{case, naive_elements};

proptest! {
    #[test]
    fn contiguous_copy_matches_naive_reader(c in case(true, false)) {
        let t = c.tensor::<f32>();
        prop_assert_eq!(t.view().to_vec::<f32>().unwrap(), c.naive::<f32>());
    }

    #[test]
    fn transpose_twice_is_identity(c in case(true, false), d0 in 0isize..4, d1 in 0isize..4) {
        let l = &c.layout;
        prop_assume!((d0 as usize) < l.rank() && (d1 as usize) < l.rank());
        prop_assert_eq!(&l.transpose(d0, d1).unwrap().transpose(d0, d1).unwrap(), l);
    }

    #[test]
    fn permute_then_inverse_is_identity(c in case(true, false), seed in any::<u64>()) {
        let l = &c.layout;
        let mut perm: Vec<isize> = (0..l.rank() as isize).collect();
        // A deterministic shuffle from the seed.
        let mut s = seed;
        for i in (1..perm.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            perm.swap(i, (s >> 33) as usize % (i + 1));
        }
        let mut inverse = vec![0isize; perm.len()];
        for (i, &p) in perm.iter().enumerate() {
            inverse[p as usize] = i as isize;
        }
        prop_assert_eq!(&l.permute(&perm).unwrap().permute(&inverse).unwrap(), l);
    }

    #[test]
    fn every_element_is_in_bounds(c in case(true, false)) {
        let required = c.layout.required_len();
        prop_assert!(required <= c.storage.len());
        let idx: Vec<usize> = (0..c.storage.len()).collect();
        let read = naive_elements(&idx, &c.layout);
        prop_assert_eq!(read.len(), c.layout.numel());
        prop_assert!(read.iter().all(|&i| i < c.storage.len()));
    }

    #[test]
    fn view_agrees_with_reshape_copy(c in case(false, false)) {
        let t = c.tensor::<f32>();
        let flat = vec![-1isize];
        match t.view().view(&flat) {
            Ok(v) => prop_assert_eq!(v.to_vec::<f32>().unwrap(), c.naive::<f32>()),
            Err(_) => prop_assert!(!t.view().reshape(&flat).unwrap().is_view()),
        }
    }
}

#[test]
fn broadcast_views_have_stride_zero() {
    let l = Layout::contiguous(&[3, 1]).expand(&[2, 3, 4]).unwrap();
    assert_eq!(l.strides(), &[0, 1, 0]);
}
