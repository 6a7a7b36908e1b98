//! Elementwise drivers: `out[i] = f(a[i], ...)` over any layouts, with the
//! inner loop specialised for unit strides (so it vectorises) and for a
//! broadcast (stride-0) operand.

use super::access::SendPtr;
use super::strided::Plan;
use crate::Layout;

/// `out[i] = f(a[i])` for every element.
///
/// # Safety
/// `out`/`a` point to storages in which the layouts are in bounds (checked by
/// `access::{out_ptr, in_ptr}`); the output layout has no internal overlap;
/// `a` either does not alias `out` or aliases it element for element.
pub(crate) unsafe fn map1<A: Copy, O: Copy>(
    out: (SendPtr<O>, &Layout),
    a: (SendPtr<A>, &Layout),
    f: impl Fn(A) -> O + Sync,
) {
    let mut plan = Plan::new([out.1, a.1]);
    plan.restrict_aliasing((out.0.0 as usize, out.1), &[(a.0.0 as usize, a.1)]);
    let [so, sa] = plan.inner_strides();
    let (po, pa) = (out.0, a.0);
    plan.par_for_runs(|[oo, oa], len| {
        // SAFETY: offsets come from in-bounds layouts; runs of distinct calls
        // write disjoint output elements.
        unsafe {
            let o = po.get().add(oo);
            let a = pa.get().add(oa).cast_const();
            if so == 1 && sa == 1 {
                for i in 0..len {
                    *o.add(i) = f(*a.add(i));
                }
            } else if so == 1 && sa == 0 {
                let v = f(*a);
                for i in 0..len {
                    *o.add(i) = v;
                }
            } else {
                for i in 0..len as isize {
                    *o.offset(i * so) = f(*a.offset(i * sa));
                }
            }
        }
    });
}

/// `out[i] = f(a[i], b[i])` for every element.
///
/// # Safety
/// As [`map1`], for both inputs.
pub(crate) unsafe fn map2<A: Copy, B: Copy, O: Copy>(
    out: (SendPtr<O>, &Layout),
    a: (SendPtr<A>, &Layout),
    b: (SendPtr<B>, &Layout),
    f: impl Fn(A, B) -> O + Sync,
) {
    let mut plan = Plan::new([out.1, a.1, b.1]);
    plan.restrict_aliasing(
        (out.0.0 as usize, out.1),
        &[(a.0.0 as usize, a.1), (b.0.0 as usize, b.1)],
    );
    let [so, sa, sb] = plan.inner_strides();
    let (po, pa, pb) = (out.0, a.0, b.0);
    plan.par_for_runs(|[oo, oa, ob], len| {
        // SAFETY: as in `map1`.
        unsafe {
            let o = po.get().add(oo);
            let a = pa.get().add(oa).cast_const();
            let b = pb.get().add(ob).cast_const();
            match (so, sa, sb) {
                (1, 1, 1) => {
                    for i in 0..len {
                        *o.add(i) = f(*a.add(i), *b.add(i));
                    }
                }
                (1, 1, 0) => {
                    let bv = *b;
                    for i in 0..len {
                        *o.add(i) = f(*a.add(i), bv);
                    }
                }
                (1, 0, 1) => {
                    let av = *a;
                    for i in 0..len {
                        *o.add(i) = f(av, *b.add(i));
                    }
                }
                _ => {
                    for i in 0..len as isize {
                        *o.offset(i * so) = f(*a.offset(i * sa), *b.offset(i * sb));
                    }
                }
            }
        }
    });
}

/// `out[i] = f(a[i], b[i], c[i])` for every element.
///
/// # Safety
/// As [`map1`], for all three inputs.
pub(crate) unsafe fn map3<A: Copy, B: Copy, C: Copy, O: Copy>(
    out: (SendPtr<O>, &Layout),
    a: (SendPtr<A>, &Layout),
    b: (SendPtr<B>, &Layout),
    c: (SendPtr<C>, &Layout),
    f: impl Fn(A, B, C) -> O + Sync,
) {
    let mut plan = Plan::new([out.1, a.1, b.1, c.1]);
    plan.restrict_aliasing(
        (out.0.0 as usize, out.1),
        &[
            (a.0.0 as usize, a.1),
            (b.0.0 as usize, b.1),
            (c.0.0 as usize, c.1),
        ],
    );
    let [so, sa, sb, sc] = plan.inner_strides();
    let (po, pa, pb, pc) = (out.0, a.0, b.0, c.0);
    plan.par_for_runs(|[oo, oa, ob, oc], len| {
        // SAFETY: as in `map1`.
        unsafe {
            let o = po.get().add(oo);
            let a = pa.get().add(oa).cast_const();
            let b = pb.get().add(ob).cast_const();
            let c = pc.get().add(oc).cast_const();
            if (so, sa, sb, sc) == (1, 1, 1, 1) {
                for i in 0..len {
                    *o.add(i) = f(*a.add(i), *b.add(i), *c.add(i));
                }
            } else {
                for i in 0..len as isize {
                    *o.offset(i * so) = f(*a.offset(i * sa), *b.offset(i * sb), *c.offset(i * sc));
                }
            }
        }
    });
}

/// `out[i] = v` for every element (overlapping outputs allowed: they are
/// written on one thread).
///
/// # Safety
/// `out` points to a storage in which the layout is in bounds.
pub(crate) unsafe fn fill<O: Copy + Send + Sync>(out: (SendPtr<O>, &Layout), v: O) {
    let plan = Plan::new([out.1]);
    let [so] = plan.inner_strides();
    let po = out.0;
    plan.par_for_runs(|[oo], len| {
        // SAFETY: in-bounds offsets; the walk runs on several threads only when
        // the layout provably has no overlap, so threads write disjoint elements.
        unsafe {
            let o = po.get().add(oo);
            if so == 1 {
                std::slice::from_raw_parts_mut(o, len).fill(v);
            } else {
                for i in 0..len as isize {
                    *o.offset(i * so) = v;
                }
            }
        }
    });
}
