//! The CPU's choice of walk for a [`ReducePlan`] (the plan itself, its
//! dims and odometer, are device-independent: [`crate::plan`]).

pub(crate) use crate::plan::{Dims, Odometer, ReducePlan};

/// Runs shorter than this are walked as rows when the outputs allow it.
const SHORT_RUN: usize = 16;

/// How the CPU walks the reduction `plan`: true when each output should
/// reduce contiguous runs (the innermost source dim is reduced, and its runs
/// are not too short to pay for a walk per output). Otherwise the walk
/// accumulates whole rows of the kept dims into a vector of partials (the
/// innermost kept dim are its lanes).
pub(crate) fn reduces_inner(plan: &ReducePlan) -> bool {
    let ((run, [run_stride]), _) = plan.reduced.split_inner();
    let ((lanes, [lane_stride, _]), _) = plan.kept.split_inner();
    if plan.reduced.sizes.is_empty() {
        return false;
    }
    if plan.kept.sizes.is_empty() {
        return true;
    }
    // Short runs (a sum over a last dim of 3, say) next to many outputs
    // walk faster as rows of strided lanes.
    run_stride.unsigned_abs() <= lane_stride.unsigned_abs()
        && (run >= SHORT_RUN || lanes < SHORT_RUN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Layout;

    #[test]
    fn inner_reductions_reduce_runs() {
        let src = Layout::contiguous(&[2, 3, 4]);
        let p = ReducePlan::new(&src, &[0, 2], &Layout::contiguous(&[1, 3, 1]));
        assert!(reduces_inner(&p));
    }

    #[test]
    fn column_sums_reduce_outer() {
        let src = Layout::contiguous(&[5, 7]);
        let p = ReducePlan::new(&src, &[0], &Layout::contiguous(&[1, 7]));
        assert!(!reduces_inner(&p));
        let t = src.t().unwrap();
        let p = ReducePlan::new(&t, &[1], &Layout::contiguous(&[7, 1]));
        assert!(!reduces_inner(&p));
    }
}
