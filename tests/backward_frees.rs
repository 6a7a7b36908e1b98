//! A backward pass frees each op's saved tensors as soon as the op's
//! derivative has run, as PyTorch does, instead of holding the whole graph
//! until the pass ends: the bytes live at the pass's peak, counted by a
//! global allocator, on a graph where the two differ by a tensor.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use axial::autograd::Param;
use axial::prelude::*;

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters only observe the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

axes!(Rows, Cols);

const MIB: usize = 1 << 20;

#[test]
fn each_saved_tensor_is_freed_once_its_derivative_has_run() {
    // Two branches, each keeping its own 4 MiB exp for the backward pass.
    // The pass runs one branch's derivative (a new 4 MiB gradient), then
    // the other's (another): with the first branch's exp freed after its
    // derivative ran, the second gradient takes its place; held to the end,
    // the pass needs 4 MiB more.
    let mut rng = Generator::seed(5);
    let x = Param::new(Tensor::<f32, shape![Rows: 1024, Cols: 1024]>::randn(
        &mut rng,
    ));
    let grads = {
        let v = x.var();
        let loss = v.exp().sum_all() + &v.exp().sum_all();
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let grads = loss.backward();
        let above = PEAK.load(Ordering::Relaxed) - before;
        assert!(
            above <= 4 * MIB + MIB / 2,
            "the pass's peak is {:.2} MiB above the forward's end; the saved exps are not freed as the pass goes",
            above as f64 / MIB as f64
        );
        grads
    };
    let want: Vec<f32> = x.value().exp().to_vec().iter().map(|e| 2.0 * e).collect();
    assert_eq!(grads.of_param(&x).expect("x's gradient").to_vec(), want);
}
