//! The stand-in's state: devices, contexts, memory, streams and their work,
//! events, modules and kernels.
//!
//! Work on a stream is queued and runs when something waits for it (a
//! synchronisation, a blocking copy, an event, another stream's wait), in
//! the order it was queued: a program that reads a result without waiting
//! for it reads what was there before, as on a GPU that has not finished.
//! One piece of work runs at a time (the `exec` lock), so kernels never run
//! beside each other, and a run is deterministic.

use std::alloc::Layout;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::ffi::c_void;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock};
use std::time::Instant;

use axial_ptx::{Fault, FaultKind, Kernel, Region};

use crate::codes::*;

/// Memory a device has (the stand-in's memory is host memory).
const DEFAULT_MEMORY: u64 = 16 << 30;
/// Devices the stand-in offers unless `AXIAL_STAND_IN_DEVICES` says otherwise.
const DEFAULT_DEVICES: u32 = 2;
/// Streaming multiprocessors each device reports.
pub(crate) const SMS: i32 = 2;
/// Allocations from this size on are zero pages the OS maps lazily; smaller
/// ones are filled with 0xff bytes, so that a kernel reading memory nothing
/// wrote sees NaNs and -1s rather than zeros.
const LAZY: usize = 64 << 20;

/// A block of memory from the host allocator.
pub(crate) struct Block {
    ptr: *mut u8,
    layout: Layout,
}

// SAFETY: the block is plain memory owned by the table that holds it.
unsafe impl Send for Block {}
// SAFETY: as above; access is ordered by the driver's locks.
unsafe impl Sync for Block {}

impl Block {
    /// `len` bytes aligned to 256 (as the driver aligns allocations), or
    /// `None` when the host has no memory for them.
    pub(crate) fn new(len: usize) -> Option<Block> {
        let layout = Layout::from_size_align(len.max(1).next_multiple_of(256), 256).ok()?;
        // SAFETY: a layout of non-zero size.
        let ptr = unsafe {
            if layout.size() >= LAZY {
                std::alloc::alloc_zeroed(layout)
            } else {
                let p = std::alloc::alloc(layout);
                if !p.is_null() {
                    std::ptr::write_bytes(p, 0xff, layout.size());
                }
                p
            }
        };
        (!ptr.is_null()).then_some(Block { ptr, layout })
    }

    pub(crate) fn addr(&self) -> u64 {
        self.ptr as u64
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) };
    }
}

/// An allocation of device memory.
pub(crate) struct Alloc {
    pub(crate) len: u64,
    pub(crate) device: u32,
    _block: Block,
}

/// Where a copy reads from.
pub(crate) enum Source {
    /// Memory at an address when the copy runs (device, or pinned host).
    At(u64),
    /// Bytes taken when the copy was queued (pageable host memory).
    Bytes(Vec<u8>),
}

/// A piece of work on a stream.
pub(crate) enum Work {
    Copy {
        dst: u64,
        src: Source,
        len: usize,
    },
    Memset {
        dst: u64,
        value: u32,
        size: usize,
        count: usize,
    },
    Launch {
        kernel: Arc<Kernel>,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        params: Vec<u8>,
        device: u32,
    },
    Record {
        event: u64,
    },
    Wait {
        stream: u64,
        seq: u64,
    },
    Host {
        f: unsafe extern "C" fn(*mut c_void),
        data: usize,
    },
}

pub(crate) struct Stream {
    pub(crate) ctx: u64,
    pub(crate) flags: u32,
    pub(crate) priority: i32,
    /// Blocking streams wait for the legacy stream and it for them.
    pub(crate) blocking: bool,
    queue: VecDeque<(u64, Work)>,
    /// Work queued so far.
    pub(crate) submitted: u64,
    /// Work done so far.
    pub(crate) done: u64,
}

pub(crate) struct Event {
    pub(crate) ctx: u64,
    pub(crate) timing: bool,
    /// The stream and position of its last record.
    pub(crate) recorded: Option<(u64, u64)>,
    /// When its last record ran.
    pub(crate) at: Option<Instant>,
}

pub(crate) struct Context {
    pub(crate) device: u32,
    pub(crate) flags: u32,
    /// Its legacy default stream.
    pub(crate) legacy: u64,
    /// The error every call returns after a kernel failed.
    pub(crate) sticky: Option<(Code, String)>,
}

pub(crate) struct ModuleEntry {
    pub(crate) ctx: u64,
    pub(crate) module: Arc<axial_ptx::Module>,
    /// Its global variables: name, address, size.
    pub(crate) globals: Vec<(String, u64, u64)>,
}

pub(crate) struct Function {
    pub(crate) module: u64,
    pub(crate) kernel: Arc<Kernel>,
    pub(crate) max_dynamic_shared: u32,
}

#[derive(Default)]
pub(crate) struct State {
    pub(crate) initialized: bool,
    next: u64,
    pub(crate) contexts: HashMap<u64, Context>,
    /// Each device's primary context and its retain count.
    pub(crate) primary: Vec<(Option<u64>, u32)>,
    pub(crate) streams: HashMap<u64, Stream>,
    pub(crate) events: HashMap<u64, Event>,
    pub(crate) modules: HashMap<u64, ModuleEntry>,
    pub(crate) functions: HashMap<u64, Function>,
    /// Page-locked host ranges (registered or allocated), by address.
    pub(crate) pinned: BTreeMap<u64, (u64, Option<Block>)>,
    /// Bytes allocated on each device.
    pub(crate) used: Vec<u64>,
}

impl State {
    /// A new handle (never 0, 1 or 2, which name default streams).
    pub(crate) fn handle(&mut self) -> u64 {
        self.next += 1;
        0x1000 + self.next * 0x10
    }

    /// A new context on `device`, with its legacy stream.
    pub(crate) fn new_context(&mut self, device: u32, flags: u32) -> u64 {
        let ctx = self.handle();
        let legacy = self.handle();
        self.streams.insert(legacy, Stream::new(ctx, 0, 0));
        self.contexts.insert(
            ctx,
            Context {
                device,
                flags,
                legacy,
                sticky: None,
            },
        );
        ctx
    }

    /// True when `len` bytes at host address `p` are page-locked.
    pub(crate) fn is_pinned(&self, p: u64, len: u64) -> bool {
        self.pinned
            .range(..=p)
            .next_back()
            .is_some_and(|(&base, &(n, _))| p + len <= base + n)
    }

    /// Queues `work` on `stream` (after the implicit waits of the legacy
    /// stream): its position.
    pub(crate) fn push(&mut self, stream: u64, work: Work) -> u64 {
        let (ctx, blocking) = {
            let s = &self.streams[&stream];
            (s.ctx, s.blocking)
        };
        let legacy = self.contexts[&ctx].legacy;
        let mut waits = vec![];
        if stream == legacy {
            for (&h, s) in &self.streams {
                if h != legacy && s.ctx == ctx && s.blocking && s.submitted > s.done {
                    waits.push((h, s.submitted));
                }
            }
            waits.sort_unstable();
        } else if blocking {
            let l = &self.streams[&legacy];
            if l.submitted > l.done {
                waits.push((legacy, l.submitted));
            }
        }
        let s = self.streams.get_mut(&stream).expect("a live stream");
        for (h, seq) in waits {
            s.submitted += 1;
            s.queue
                .push_back((s.submitted, Work::Wait { stream: h, seq }));
        }
        s.submitted += 1;
        s.queue.push_back((s.submitted, work));
        s.submitted
    }
}

impl Stream {
    pub(crate) fn new(ctx: u64, flags: u32, priority: i32) -> Stream {
        Stream {
            ctx,
            flags,
            priority,
            blocking: flags & 1 == 0,
            queue: VecDeque::new(),
            submitted: 0,
            done: 0,
        }
    }
}

pub(crate) struct Driver {
    pub(crate) state: Mutex<State>,
    /// Held while work runs.
    exec: Mutex<()>,
    pub(crate) allocs: RwLock<BTreeMap<u64, Alloc>>,
    pub(crate) devices: u32,
    pub(crate) memory: u64,
}

/// The driver.
pub(crate) fn driver() -> &'static Driver {
    static D: OnceLock<Driver> = OnceLock::new();
    D.get_or_init(|| {
        let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
        Driver {
            state: Mutex::new(State::default()),
            exec: Mutex::new(()),
            allocs: RwLock::new(BTreeMap::new()),
            devices: env("AXIAL_STAND_IN_DEVICES").map_or(DEFAULT_DEVICES, |n| n as u32),
            memory: env("AXIAL_STAND_IN_MEMORY").unwrap_or(DEFAULT_MEMORY),
        }
    })
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Device memory as a kernel of `device` sees it.
struct View<'a> {
    allocs: &'a RwLock<BTreeMap<u64, Alloc>>,
    device: u32,
}

// SAFETY: an allocation is freed only after every queued work has run
// (`free` synchronises first, under the exec lock a running kernel holds),
// and its block never moves.
unsafe impl axial_ptx::Memory for View<'_> {
    fn region(&self, addr: u64, len: u64) -> Option<Region> {
        let allocs = self
            .allocs
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (&base, a) = allocs.range(..=addr).next_back()?;
        let r = Region {
            base,
            len: a.len,
            host: base as *mut u8,
        };
        (a.device == self.device && r.contains(addr, len)).then_some(r)
    }
}

/// The code a fault reports.
fn fault_code(f: &Fault) -> Code {
    match f.kind {
        FaultKind::OutOfBounds | FaultKind::OutOfSpace => ILLEGAL_ADDRESS,
        FaultKind::Misaligned => MISALIGNED_ADDRESS,
        FaultKind::Hang => LAUNCH_TIMEOUT,
        _ => LAUNCH_FAILED,
    }
}

impl Driver {
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// The allocation holding `len` bytes at `addr`: its base and device.
    pub(crate) fn find(&self, addr: u64, len: u64) -> Option<(u64, u64, u32)> {
        let allocs = self
            .allocs
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (&base, a) = allocs.range(..=addr).next_back()?;
        (addr >= base && addr.checked_add(len)? <= base + a.len).then_some((base, a.len, a.device))
    }

    /// `len` bytes on `device`.
    pub(crate) fn alloc(&self, device: u32, len: u64) -> Result<u64, Code> {
        if len == 0 {
            return Err(INVALID_VALUE);
        }
        {
            let mut st = self.state();
            let used = &mut st.used[device as usize];
            if *used + len > self.memory {
                return Err(OUT_OF_MEMORY);
            }
            *used += len;
        }
        let Some(block) = usize::try_from(len).ok().and_then(Block::new) else {
            self.state().used[device as usize] -= len;
            return Err(OUT_OF_MEMORY);
        };
        let addr = block.addr();
        self.allocs
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(
                addr,
                Alloc {
                    len,
                    device,
                    _block: block,
                },
            );
        Ok(addr)
    }

    /// Frees the allocation at `addr`, after the work queued on every
    /// stream has run (as the driver's `cuMemFree` synchronises).
    pub(crate) fn free(&self, addr: u64) -> Result<(), Code> {
        let _exec = lock(&self.exec);
        self.run_everything()?;
        let removed = self
            .allocs
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&addr);
        match removed {
            Some(a) => {
                self.state().used[a.device as usize] -= a.len;
                Ok(())
            }
            None => Err(INVALID_VALUE),
        }
    }

    /// Runs the work of every stream (under the exec lock).
    fn run_everything(&self) -> Result<(), Code> {
        let mut streams: Vec<(u64, u64)> = self
            .state()
            .streams
            .iter()
            .map(|(&h, s)| (h, s.submitted))
            .collect();
        // In the order the streams were made: a run is deterministic.
        streams.sort_unstable();
        let mut first = Ok(());
        for (h, upto) in streams {
            if let Err(e) = self.run_stream(h, upto) {
                first = first.and(Err(e));
            }
        }
        first
    }

    /// Runs `stream` up to position `upto`.
    pub(crate) fn sync_stream(&self, stream: u64, upto: u64) -> Result<(), Code> {
        let _exec = lock(&self.exec);
        self.run_stream(stream, upto)
    }

    /// Runs the work of every stream of a context.
    pub(crate) fn sync_context(&self, ctx: u64) -> Result<(), Code> {
        let _exec = lock(&self.exec);
        let mut streams: Vec<(u64, u64)> = self
            .state()
            .streams
            .iter()
            .filter(|(_, s)| s.ctx == ctx)
            .map(|(&h, s)| (h, s.submitted))
            .collect();
        streams.sort_unstable();
        for (h, upto) in streams {
            self.run_stream(h, upto)?;
        }
        self.sticky(ctx)
    }

    /// The context's sticky error, if a kernel failed.
    pub(crate) fn sticky(&self, ctx: u64) -> Result<(), Code> {
        match self
            .state()
            .contexts
            .get(&ctx)
            .and_then(|c| c.sticky.as_ref())
        {
            Some((code, _)) => Err(*code),
            None => Ok(()),
        }
    }

    /// Runs `stream` up to `upto` (the exec lock held by the caller).
    fn run_stream(&self, stream: u64, upto: u64) -> Result<(), Code> {
        loop {
            let (seq, work, ctx) = {
                let mut st = self.state();
                let Some(s) = st.streams.get_mut(&stream) else {
                    // Destroyed: its work ran before it went.
                    return Ok(());
                };
                if s.done >= upto {
                    return Ok(());
                }
                let Some((seq, work)) = s.queue.pop_front() else {
                    return Ok(());
                };
                (seq, work, s.ctx)
            };
            let result = if self.sticky(ctx).is_err() {
                // After a failure the context runs nothing more.
                Ok(())
            } else {
                self.execute(work)
            };
            let mut st = self.state();
            if let Some(s) = st.streams.get_mut(&stream) {
                s.done = seq;
            }
            if let Err((code, message)) = result {
                if let Some(c) = st.contexts.get_mut(&ctx) {
                    c.sticky.get_or_insert((code, message));
                }
                return Err(code);
            }
        }
    }

    fn execute(&self, work: Work) -> Result<(), (Code, String)> {
        match work {
            Work::Copy { dst, src, len } => {
                // SAFETY: the device ranges were checked to be allocated when
                // queued, and stay so until the queue has run (`free`);
                // host ranges are the caller's, valid until the copy is
                // known to be done (as the driver requires).
                unsafe {
                    match &src {
                        Source::At(a) => std::ptr::copy(*a as *const u8, dst as *mut u8, len),
                        Source::Bytes(b) => {
                            std::ptr::copy_nonoverlapping(b.as_ptr(), dst as *mut u8, len)
                        }
                    }
                }
                Ok(())
            }
            Work::Memset {
                dst,
                value,
                size,
                count,
            } => {
                let bytes = value.to_le_bytes();
                // SAFETY: a device range checked when queued.
                let out = unsafe { std::slice::from_raw_parts_mut(dst as *mut u8, size * count) };
                for chunk in out.chunks_exact_mut(size) {
                    chunk.copy_from_slice(&bytes[..size]);
                }
                Ok(())
            }
            Work::Launch {
                kernel,
                grid,
                block,
                shared,
                params,
                device,
            } => {
                let view = View {
                    allocs: &self.allocs,
                    device,
                };
                let launch = axial_ptx::Launch {
                    grid,
                    block,
                    dynamic_shared: shared,
                    params: &params,
                };
                let defaults = axial_ptx::Options::default();
                let options = axial_ptx::Options {
                    check_races: std::env::var("AXIAL_STAND_IN_RACE_CHECK")
                        .map_or(true, |v| v != "0"),
                    max_steps: std::env::var("AXIAL_STAND_IN_MAX_STEPS")
                        .ok()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(defaults.max_steps),
                    ..defaults
                };
                match axial_ptx::run(&kernel, &launch, &view, &options) {
                    Ok(_) => Ok(()),
                    Err(f) => {
                        eprintln!("CUDA stand-in: {f}");
                        Err((fault_code(&f), f.to_string()))
                    }
                }
            }
            Work::Record { event } => {
                if let Some(e) = self.state().events.get_mut(&event) {
                    e.at = Some(Instant::now());
                }
                Ok(())
            }
            Work::Wait { stream, seq } => {
                self.run_stream(stream, seq).map_err(|c| (c, String::new()))
            }
            Work::Host { f, data } => {
                // SAFETY: the function and data the caller queued, called once
                // at its place in the stream (as `cuLaunchHostFunc` promises).
                unsafe { f(data as *mut c_void) };
                Ok(())
            }
        }
    }

    /// True when the work before position `seq` of `stream` has run; when
    /// it has not, runs it, so that a caller polling sees progress (the
    /// first poll of pending work still says it is not done).
    pub(crate) fn poll(&self, stream: u64, seq: u64) -> Result<bool, Code> {
        let pending = self
            .state()
            .streams
            .get(&stream)
            .is_some_and(|s| s.done < seq);
        if pending {
            self.sync_stream(stream, seq)?;
        }
        Ok(!pending)
    }
}
