//! MiniLM's forward pass allocates nothing on the heap after its first run
//! in a [`Workspace`]: a global allocator counts every allocation while the
//! fourth forward of the same batch runs (the first sizes the workspace,
//! the next two show it no longer grows). The workspace's peak is printed.
//! Skips, saying so, when the weights are absent (`bash
//! bench/fetch_minilm.sh`; `.ci/run` fetches them).
//!
//! With `AXIAL_ALLOC_SITES=1` each counted allocation's backtrace is
//! printed, to find where one comes from.

#[path = "../examples/minilm/bert.rs"]
mod bert;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use axial::Workspace;

/// The system's allocator, counting while [`ARMED`].
struct Counting;

static ARMED: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicUsize = AtomicUsize::new(0);
static SITES: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// True while this thread prints a backtrace (which allocates).
    static PRINTING: Cell<bool> = const { Cell::new(false) };
}

fn counted(size: usize) {
    if !ARMED.load(Ordering::Relaxed) {
        return;
    }
    if SITES.load(Ordering::Relaxed) {
        let _ = PRINTING.try_with(|printing| {
            if !printing.replace(true) {
                let trace = std::backtrace::Backtrace::force_capture();
                eprintln!("allocation of {size} bytes:\n{trace}");
                printing.set(false);
            }
        });
        if PRINTING.try_with(Cell::get).unwrap_or(true) {
            return;
        }
    }
    COUNT.fetch_add(1, Ordering::Relaxed);
}

// SAFETY: every call is passed on to `System` unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        counted(layout.size());
        // SAFETY: the caller's contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        counted(layout.size());
        // SAFETY: the caller's contract.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        counted(new_size);
        // SAFETY: the caller's contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn the_forward_allocates_nothing_after_its_first_run() {
    let dir = bert::model_dir();
    if !dir.join("model.safetensors").exists() {
        eprintln!(
            "minilm_no_alloc: skipped, no model in {} (run bench/fetch_minilm.sh)",
            dir.display()
        );
        return;
    }
    SITES.store(
        std::env::var_os("AXIAL_ALLOC_SITES").is_some(),
        Ordering::Relaxed,
    );
    let model = bert::Bert::load(&dir.join("model.safetensors")).expect("model.safetensors");
    let tokenizer = bert::load_tokenizer(&dir.join("tokenizer.json")).expect("tokenizer.json");
    let sentences = [
        "The cat sat on the mat.",
        "A workspace sized once serves every later request of the same sizes.",
        "Short one.",
    ];
    let (ids, mask) = bert::tokenize(&tokenizer, &sentences).expect("tokenize");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool");
    let workspace = Workspace::open();
    let (want, got, count, peak) = pool.install(|| {
        let want = model.embed(&ids, &mask).expect("forward").to_vec();
        let peak = workspace.peak_bytes();
        for _ in 0..2 {
            drop(model.embed(&ids, &mask).expect("forward"));
        }
        ARMED.store(true, Ordering::SeqCst);
        let out = model.embed(&ids, &mask);
        ARMED.store(false, Ordering::SeqCst);
        let got = out.expect("forward").to_vec();
        (want, got, COUNT.load(Ordering::SeqCst), peak)
    });
    eprintln!(
        "minilm_no_alloc: {} sentences of {} tokens, workspace peak {:.2} MiB after the first run, {count} allocations in the fourth",
        ids.sizes()[0],
        ids.sizes()[1],
        peak as f64 / (1 << 20) as f64
    );
    assert_eq!(got, want, "the workspace changed the embeddings");
    assert_eq!(
        count, 0,
        "the forward allocated {count} times after its first run (AXIAL_ALLOC_SITES=1 prints where)"
    );
}
