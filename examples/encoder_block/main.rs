//! One training step of a MiniLM-sized encoder block (Batch 8, Seq 128,
//! Model 384, 12 heads, MLP 1536: forward, backward, AdamW), with the
//! memory it takes measured by a counting global allocator: the peak of
//! the bytes live at once during a step, above what lived before it (the
//! parameters, the input and, after the first step, AdamW's state); and,
//! as `bench/torch_train.py --memory` measures PyTorch, the resident set's
//! high-water mark (`VmHWM`, reset through `/proc/self/clear_refs`) above
//! the resident set before the step. Run with glibc's mmap threshold fixed
//! (`MALLOC_MMAP_THRESHOLD_=65536`) so that freed buffers leave the
//! resident set; `bench/README.md` has both sides.
//!
//! ```sh
//! MALLOC_MMAP_THRESHOLD_=65536 cargo run --release --example encoder_block
//! ```

mod block;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use axial::Generator;
use axial::optim::{Adam, AdamConfig};

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters only observe the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
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
            let live = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const MIB: f64 = 1024.0 * 1024.0;

fn main() -> axial::Result<()> {
    let mut rng = Generator::seed(1);
    let mut model = block::Block::new(&mut rng);
    let x = block::Hidden::randn(&mut rng);
    let mut opt = Adam::adamw(AdamConfig::adamw())?;
    for step in 0..3 {
        let resident = status_kib("VmRSS");
        // Resets the high-water mark to the current resident set (Linux).
        let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let start = Instant::now();
        let loss = model.step(&mut opt, &x)?;
        let took = start.elapsed();
        println!(
            "step {step}: loss {loss:.6}, {:.1} ms, allocated: peak {:.1} MiB above the {:.1} MiB live before it",
            took.as_secs_f64() * 1e3,
            (PEAK.load(Ordering::Relaxed) - before) as f64 / MIB,
            before as f64 / MIB,
        );
        if let (true, Some(resident), Some(peak)) = (reset, resident, status_kib("VmHWM")) {
            println!(
                "        resident: peak {:.1} MiB above the {:.1} MiB resident before it",
                peak.saturating_sub(resident) as f64 / 1024.0,
                resident as f64 / 1024.0
            );
        }
    }
    Ok(())
}

/// A field of `/proc/self/status` in KiB (`None` off Linux).
fn status_kib(field: &str) -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line[field.len() + 1..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}
