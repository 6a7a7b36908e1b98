//! Host memory: 64-byte aligned buffers, and a small pool that hands large
//! freed blocks back out so a fresh output does not pay for page faults.
//!
//! A new block from the system is zero pages the kernel maps on first touch;
//! writing a 64 MB output into one costs more in faults than the arithmetic.
//! Freed blocks of 256 KiB and more are kept (up to [`POOL_BYTES`] in all) and
//! reused for the next request of a close size. Their bytes are stale but
//! initialised, so handing them out as "unspecified contents" is sound.
//!
//! The pool never makes the process larger than the most memory its tensors
//! held at once: it counts the bytes of the pooled-size blocks that buffers
//! hold (live) and their high-water mark, and a request that no pooled block
//! fits first frees pooled blocks (the oldest first) until the live bytes,
//! the pooled bytes and the new block together stay within that mark.
//! Without the rule, blocks of sizes no later request fits would stay for
//! the life of the process (a training step's activations and gradients
//! left 40 MiB behind, as much again as the step itself). A stricter rule,
//! freeing as many pooled bytes as each miss asks for, kept the memory
//! lower than the mark but thrashed: a training step's forward pass freed
//! the blocks its backward pass wanted next, so every step asked the system
//! for fresh pages again (page faults were a tenth of the step's time).
//!
//! A buffer can also lie in memory that another owner keeps alive (a
//! private mapping of a file, for zero-copy loading; a NumPy array or a
//! DLPack producer's tensor, viewed in place): see
//! [`CpuBuffer::from_external`] and [`CpuBuffer::from_owner`].

use std::alloc::{self, Layout as AllocLayout};
use std::any::Any;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::storage::KeepAlive;
use crate::{Error, Result};

/// Alignment of every host buffer (a cache line; enough for any SIMD load).
///
/// ```
/// use axial_core::cpu::{ALIGN, CpuBuffer};
/// assert!(ALIGN.is_power_of_two());
/// assert_eq!(CpuBuffer::new(3, true)?.addr() % ALIGN, 0);
/// # Ok::<(), axial_core::Error>(())
/// ```
pub const ALIGN: usize = 64;
/// Alignment an external buffer must have: the largest element size, so
/// that every dtype's kernels may read it.
///
/// ```
/// use axial_core::cpu::EXTERNAL_ALIGN;
/// assert_eq!(EXTERNAL_ALIGN, std::mem::align_of::<f64>());
/// ```
pub const EXTERNAL_ALIGN: usize = 8;
/// A type of [`ALIGN`]-byte alignment, for the dangling pointer of an empty buffer.
#[repr(C, align(64))]
struct AlignedBlock([u8; ALIGN]);

/// Smallest block the pool keeps: a model's activations (a few hundred
/// KiB at small batches) come back from it without the zeroing a fresh
/// allocation pays.
pub(crate) const POOL_MIN_BYTES: usize = 256 << 10;
/// Most bytes the pool holds at once.
pub(crate) const POOL_BYTES: usize = 1 << 30;

/// A 64-byte aligned, initialised block of host memory.
///
/// ```
/// use axial_core::cpu::CpuBuffer;
/// let mut buffer = CpuBuffer::new(3, true)?;
/// buffer.as_bytes_mut()[1] = 7;
/// assert_eq!(buffer.as_bytes(), &[0, 7, 0]);
/// assert!(!buffer.is_empty());
/// assert_eq!(CpuBuffer::new(0, false)?.addr(), 0);
/// assert!(CpuBuffer::new(usize::MAX, false).is_err());
/// # Ok::<(), axial_core::Error>(())
/// ```
pub struct CpuBuffer {
    ptr: NonNull<u8>,
    len: usize,
    /// Bytes allocated here (0 for an empty or external buffer).
    cap: usize,
    /// True when the pool counts the block as live: it goes back to the
    /// pool when dropped (pooled sizes, and every size while a
    /// [`Workspace`] is open).
    counted: bool,
    /// What keeps external memory alive; `None` for memory allocated here.
    owner: Option<Arc<dyn Any + Send + Sync>>,
    /// False for external memory that must not be written: the first
    /// mutable access copies it into a buffer of its own.
    writable: bool,
}

// SAFETY: CpuBuffer owns its allocation (or, external, its byte range)
// exclusively, like a Vec<u8>; an external owner is Send + Sync.
unsafe impl Send for CpuBuffer {}
// SAFETY: shared access only reads through `&self`.
unsafe impl Sync for CpuBuffer {}

struct Block {
    ptr: NonNull<u8>,
    cap: usize,
}

// SAFETY: a pooled block is owned by the pool alone.
unsafe impl Send for Block {}

/// The pooled blocks, oldest first, and the bytes that buffers of pooled
/// size hold now (`live`) and at most (`peak`).
struct Pool {
    blocks: Vec<Block>,
    live: usize,
    peak: usize,
}

impl Pool {
    fn pooled(&self) -> usize {
        self.blocks.iter().map(|b| b.cap).sum()
    }

    fn free_oldest(&mut self) -> usize {
        let old = self.blocks.remove(0);
        free(old.ptr, old.cap);
        old.cap
    }

    /// Best fit among blocks of `len` bytes to an eighth more: a block
    /// handed out counts whole against the process's memory: with blocks up
    /// to twice the request, the encoder block's training step peaked at
    /// 74.6 MiB in all, against 71.5 MiB with this fit (or an exact one).
    /// When none fits, frees pooled blocks, the oldest first, until the
    /// live bytes, the pooled bytes and `len` more stay within the
    /// high-water mark of the live bytes (or of the live bytes and `len`,
    /// when that is a new mark). Counts what it hands out, or `len` for the
    /// new block the caller makes, as live.
    fn take(&mut self, len: usize) -> Option<Block> {
        let best = self
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.cap >= len && b.cap - len <= len / 8)
            .min_by_key(|(_, b)| b.cap)
            .map(|(i, _)| i);
        // `remove`, not `swap_remove`: the pool stays in the order blocks came.
        let block = best.map(|i| self.blocks.remove(i));
        // An open workspace keeps its blocks: it holds its peak.
        if block.is_none() && !workspace_open() {
            let limit = self.peak.max(self.live + len);
            let mut total = self.live + self.pooled() + len;
            while total > limit && !self.blocks.is_empty() {
                total -= self.free_oldest();
            }
        }
        self.live += block.as_ref().map_or(len, |b| b.cap);
        self.peak = self.peak.max(self.live);
        block
    }

    /// Keeps a freed block (frees the oldest ones to hold at most
    /// [`POOL_BYTES`], or this one when it is larger), and stops counting
    /// it as live.
    fn give(&mut self, block: Block) {
        self.live = self.live.saturating_sub(block.cap);
        if block.cap < POOL_MIN_BYTES && !workspace_open() {
            free(block.ptr, block.cap);
            return;
        }
        let mut held = self.pooled();
        while !self.blocks.is_empty() && held + block.cap > POOL_BYTES {
            held -= self.free_oldest();
        }
        if held + block.cap > POOL_BYTES {
            free(block.ptr, block.cap);
        } else {
            self.blocks.push(block);
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        while !self.blocks.is_empty() {
            self.free_oldest();
        }
    }
}

/// Workspaces open now.
static OPEN: AtomicUsize = AtomicUsize::new(0);

/// True while a [`Workspace`] is open.
fn workspace_open() -> bool {
    OPEN.load(Ordering::Relaxed) > 0
}

/// Blocks the pool can hold while a workspace is open without growing its
/// list (which would allocate).
const WORKSPACE_BLOCKS: usize = 4096;

/// A workspace for running a model without allocating after its first
/// run: while one is open, every host buffer of every size is kept when it
/// is dropped and handed out again for the next request of its size (to an
/// eighth more), and the pool keeps what it holds, so a forward pass that
/// repeats the sizes of an earlier one takes all its memory from the
/// blocks that one left. The first run sizes it (for symbolic sizes, run it
/// first with the largest a request may bring); [`peak_bytes`] then
/// reports the most tensor memory that was live at once since it opened,
/// before the first request is served. Buffers below 256 KiB, which the
/// pool otherwise leaves to the system allocator, take part too.
///
/// The pool is the process's: while a workspace is open, every tensor of
/// the process takes part. Closing the last one frees the blocks below
/// the pool's usual smallest (256 KiB) and returns to the usual rule.
///
/// [`peak_bytes`]: Workspace::peak_bytes
///
/// ```
/// use axial_core::cpu::{CpuBuffer, Workspace};
/// let ws = Workspace::open();
/// let a = CpuBuffer::new(1000, false)?;
/// let addr = a.addr();
/// drop(a);
/// let b = CpuBuffer::new(1000, false)?; // the same block, kept by the workspace
/// assert_eq!(b.addr(), addr);
/// assert!(ws.peak_bytes() >= 1000);
/// # Ok::<(), axial_core::Error>(())
/// ```
#[derive(Debug)]
pub struct Workspace {
    /// The live bytes the pool counted when the workspace opened.
    base: usize,
}

impl Workspace {
    /// Opens a workspace; its peak counts the tensor memory made after now.
    ///
    /// ```
    /// # use axial_core::cpu::Workspace;
    /// let ws = Workspace::open();
    /// drop(ws);
    /// ```
    pub fn open() -> Workspace {
        OPEN.fetch_add(1, Ordering::SeqCst);
        let mut base = 0;
        if let Ok(mut pool) = POOL.lock() {
            let room = WORKSPACE_BLOCKS.saturating_sub(pool.blocks.len());
            pool.blocks.reserve(room);
            pool.peak = pool.live;
            base = pool.live;
        }
        Workspace { base }
    }

    /// The most bytes of tensor memory live at once since the workspace
    /// opened (or since the latest workspace opened), beyond what was live
    /// then (a model's weights): the memory its runs need. After the first
    /// run, what every later run of the same sizes holds.
    ///
    /// ```
    /// # use axial_core::cpu::{CpuBuffer, Workspace};
    /// let ws = Workspace::open();
    /// drop((CpuBuffer::new(300, false)?, CpuBuffer::new(700, false)?));
    /// assert!(ws.peak_bytes() >= 1000);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn peak_bytes(&self) -> usize {
        POOL.lock()
            .map_or(0, |pool| pool.peak.saturating_sub(self.base))
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        if OPEN.fetch_sub(1, Ordering::SeqCst) == 1
            && let Ok(mut pool) = POOL.lock()
        {
            pool.blocks.retain(|b| {
                let keep = b.cap >= POOL_MIN_BYTES;
                if !keep {
                    free(b.ptr, b.cap);
                }
                keep
            });
        }
    }
}
static POOL: Mutex<Pool> = Mutex::new(Pool {
    blocks: Vec::new(),
    live: 0,
    peak: 0,
});

impl CpuBuffer {
    /// A buffer of `len` bytes, zeroed when `zeroed`, else of unspecified contents.
    ///
    /// # Errors
    /// The size overflows or the system is out of memory.
    ///
    /// ```
    /// # use axial_core::cpu::CpuBuffer;
    /// let b = CpuBuffer::new(5, true)?;
    /// assert_eq!(b.as_bytes(), &[0; 5]);
    /// assert!(CpuBuffer::new(usize::MAX, false).is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn new(len: usize, zeroed: bool) -> Result<Self> {
        if len == 0 {
            return Ok(CpuBuffer {
                // Aligned like every other buffer, so an empty one views as any type.
                ptr: NonNull::<AlignedBlock>::dangling().cast(),
                len: 0,
                cap: 0,
                counted: false,
                owner: None,
                writable: true,
            });
        }
        let counted = len >= POOL_MIN_BYTES || workspace_open();
        if counted && let Some(block) = take_pooled(len) {
            let mut buf = CpuBuffer {
                ptr: block.ptr,
                len,
                cap: block.cap,
                counted,
                owner: None,
                writable: true,
            };
            if zeroed {
                buf.as_bytes_mut().fill(0);
            }
            return Ok(buf);
        }
        let layout = alloc_layout(len)?;
        // SAFETY: `layout` has a non-zero size. alloc_zeroed initialises every byte,
        // which is what lets the pool hand stale bytes out safely later.
        let ptr = unsafe { alloc::alloc_zeroed(layout) };
        let Some(ptr) = NonNull::new(ptr) else {
            if counted {
                release(len);
            }
            return Err(Error::out_of_memory("alloc", len));
        };
        Ok(CpuBuffer {
            ptr,
            len,
            cap: len,
            counted,
            owner: None,
            writable: true,
        })
    }

    /// A buffer over `len` bytes at `ptr` that `owner` keeps alive (a
    /// private, copy-on-write mapping of a file): no copy. Dropping the
    /// buffer drops its reference to `owner`.
    ///
    /// # Errors
    /// `ptr` is not [`EXTERNAL_ALIGN`]-aligned (kernels read elements of up
    /// to 8 bytes in place); copy such bytes into a [`CpuBuffer::new`] instead.
    ///
    /// # Safety
    /// For as long as `owner` lives, `ptr` must be valid for reads and writes
    /// of `len` initialised bytes, and nothing else may read or write them:
    /// no other buffer over an overlapping range, no reference into them.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use axial_core::cpu::CpuBuffer;
    /// // Memory some other value owns: here a boxed array of u64 (8-aligned).
    /// let mut block = Box::new([0u64; 4]);
    /// let ptr = std::ptr::NonNull::new(block.as_mut_ptr().cast::<u8>()).unwrap();
    /// let owner = Arc::new(Mutex::new(block)); // moving the Box keeps its heap address
    /// // SAFETY: the 32 bytes live as long as `owner`, and only this buffer touches them.
    /// let mut b = unsafe { CpuBuffer::from_external(ptr, 32, owner) }?;
    /// b.as_bytes_mut()[0] = 7;
    /// assert_eq!(b.as_bytes()[..2], [7, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub unsafe fn from_external(
        ptr: NonNull<u8>,
        len: usize,
        owner: Arc<dyn Any + Send + Sync>,
    ) -> Result<Self> {
        if !(ptr.as_ptr() as usize).is_multiple_of(EXTERNAL_ALIGN) {
            return Err(Error::invalid(
                "CpuBuffer::from_external",
                format!(
                    "address {:#x} is not {EXTERNAL_ALIGN}-byte aligned",
                    ptr.as_ptr() as usize
                ),
            ));
        }
        Ok(CpuBuffer {
            ptr,
            len,
            cap: 0,
            counted: false,
            owner: Some(owner),
            writable: true,
        })
    }

    /// A buffer over `len` bytes of foreign memory at `ptr` that `owner`
    /// keeps alive (a DLPack producer's deleter, a Python array, a `Vec`),
    /// without a copy and at any alignment: kernels refuse a tensor whose
    /// elements are not aligned for its dtype with an `Err`. A buffer that is
    /// not `writable` is copied into one of its own on the first mutable
    /// access ([`as_bytes_mut`](Self::as_bytes_mut)), so nothing ever writes
    /// through it. `ptr` may be null or dangling when `len` is 0.
    ///
    /// # Safety
    /// For as long as `owner` (or a clone of it) lives:
    /// - `ptr` is valid for reads of `len` initialised bytes (and for writes
    ///   too when `writable`), from any thread;
    /// - nothing else writes those bytes while the buffer (or a storage over
    ///   it) is borrowed, and nothing else reads them while it is borrowed
    ///   mutably: sharing memory with foreign code is sound only when the
    ///   two sides take turns, as a Python caller holding the GIL does;
    /// - `ptr` was not derived from a reference whose borrow ends sooner,
    ///   and moving `owner` does not invalidate it (a `Vec`, an `Arc`, a
    ///   foreign allocation; not a `Box` of the bytes themselves).
    ///
    /// ```
    /// use axial_core::{cpu::CpuBuffer, storage::KeepAlive};
    /// let mut data = vec![1u8, 2, 3];
    /// let ptr = data.as_mut_ptr();
    /// // SAFETY: the Vec's heap block lives as long as the owner and is used
    /// // through this buffer only.
    /// let buffer = unsafe { CpuBuffer::from_owner(ptr, 3, KeepAlive::new(data), true) };
    /// assert_eq!((buffer.as_bytes(), buffer.addr()), (&[1, 2, 3][..], ptr as usize));
    /// assert!(buffer.is_external() && buffer.is_writable());
    /// ```
    pub unsafe fn from_owner(ptr: *mut u8, len: usize, owner: KeepAlive, writable: bool) -> Self {
        let ptr = match NonNull::new(ptr) {
            Some(ptr) if len > 0 => ptr,
            _ => NonNull::<AlignedBlock>::dangling().cast(),
        };
        CpuBuffer {
            ptr,
            len,
            cap: 0,
            counted: false,
            owner: Some(owner.into_inner()),
            writable,
        }
    }

    /// False for read-only external memory, whose first mutable access
    /// copies it; true otherwise.
    ///
    /// ```
    /// use axial_core::{cpu::CpuBuffer, storage::KeepAlive};
    /// let data: &'static [u8] = &[7, 8];
    /// // SAFETY: static memory, only read (the buffer is not writable).
    /// let mut b = unsafe { CpuBuffer::from_owner(data.as_ptr().cast_mut(), 2, KeepAlive::new(()), false) };
    /// assert!(!b.is_writable());
    /// b.as_bytes_mut()[0] = 9; // writes to a copy, not to `data`
    /// assert!(b.is_writable() && !b.is_external());
    /// assert_eq!((b.as_bytes(), data), (&[9, 8][..], &[7, 8][..]));
    /// ```
    pub fn is_writable(&self) -> bool {
        self.writable
    }

    /// A handle that keeps this buffer's memory alive after the buffer is
    /// dropped (what a DLPack export hands its consumer). Memory allocated
    /// here becomes shared in place: it moves, at the same address, into an
    /// owner the buffer and the handle share, and is freed when the last of
    /// them goes. An external buffer hands out its owner.
    ///
    /// ```
    /// # use axial_core::cpu::CpuBuffer;
    /// let mut b = CpuBuffer::new(8, true)?;
    /// let addr = b.addr();
    /// let keep = b.keep_alive();
    /// assert_eq!(b.addr(), addr); // the same memory, now shared
    /// b.as_bytes_mut()[0] = 1; // still writable
    /// drop(b);
    /// assert!(keep.is_unique()); // the memory lives on in `keep`
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn keep_alive(&mut self) -> KeepAlive {
        if let Some(owner) = &self.owner {
            return KeepAlive::from_inner(Arc::clone(owner));
        }
        let (ptr, len) = (self.ptr, self.len);
        let own = std::mem::replace(
            self,
            CpuBuffer {
                ptr,
                len,
                cap: 0,
                counted: false,
                owner: None,
                writable: true,
            },
        );
        let owner: Arc<dyn Any + Send + Sync> = Arc::new(own);
        self.owner = Some(Arc::clone(&owner));
        KeepAlive::from_inner(owner)
    }

    /// A handle of an external buffer's owner (the buffer keeps its own);
    /// `None` for memory allocated here, which [`keep_alive`](Self::keep_alive)
    /// shares first.
    ///
    /// ```
    /// # use axial_core::cpu::CpuBuffer;
    /// let mut b = CpuBuffer::new(4, true)?;
    /// assert!(b.owner().is_none());
    /// let _keep = b.keep_alive();
    /// assert!(b.owner().is_some());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn owner(&self) -> Option<KeepAlive> {
        self.owner
            .as_ref()
            .map(|o| KeepAlive::from_inner(Arc::clone(o)))
    }

    /// The owner of an external buffer, giving up the buffer; `Err(self)`
    /// for memory allocated here.
    ///
    /// ```
    /// use axial_core::{cpu::CpuBuffer, storage::KeepAlive};
    /// let mut data = vec![5u8; 4];
    /// let ptr = data.as_mut_ptr();
    /// // SAFETY: as in `from_owner`'s example.
    /// let b = unsafe { CpuBuffer::from_owner(ptr, 4, KeepAlive::new(data), true) };
    /// let owner = b.into_owner().ok().unwrap();
    /// assert_eq!(owner.try_unwrap::<Vec<u8>>().ok().unwrap(), vec![5; 4]);
    /// assert!(CpuBuffer::new(1, true)?.into_owner().is_err());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn into_owner(mut self) -> std::result::Result<KeepAlive, Self> {
        match self.owner.take() {
            Some(owner) => Ok(KeepAlive::from_inner(owner)),
            None => Err(self),
        }
    }

    /// True when the bytes lie in memory another owner keeps alive (see
    /// [`CpuBuffer::from_external`]).
    ///
    /// ```
    /// # use axial_core::cpu::CpuBuffer;
    /// assert!(!CpuBuffer::new(4, true)?.is_external());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn is_external(&self) -> bool {
        self.owner.is_some()
    }

    /// Length in bytes.
    ///
    /// ```
    /// # use axial_core::cpu::CpuBuffer;
    /// assert_eq!(CpuBuffer::new(7, false)?.len(), 7);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the buffer holds no byte.
    ///
    /// ```
    /// # use axial_core::cpu::CpuBuffer;
    /// assert!(CpuBuffer::new(0, false)?.is_empty());
    /// assert!(!CpuBuffer::new(1, false)?.is_empty());
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes.
    ///
    /// ```
    /// # use axial_core::cpu::CpuBuffer;
    /// assert_eq!(CpuBuffer::new(2, true)?.as_bytes(), &[0, 0]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: ptr is valid for `len` initialised bytes (or dangling with len 0):
        // allocated here, or guaranteed by `from_external`'s caller while
        // `owner` lives; shared borrows of self only read.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The bytes, mutably. Read-only external memory is first copied into a
    /// buffer of its own (and the owner released), as a shared storage is
    /// copied on write.
    ///
    /// # Panics
    /// Copying read-only external memory runs out of memory.
    ///
    /// ```
    /// # use axial_core::cpu::CpuBuffer;
    /// let mut b = CpuBuffer::new(3, true)?;
    /// b.as_bytes_mut()[2] = 9;
    /// assert_eq!(b.as_bytes(), &[0, 0, 9]);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        if !self.writable {
            let mut copy = CpuBuffer::new(self.len, false).unwrap_or_else(|e| panic!("{e}"));
            copy.as_bytes_mut().copy_from_slice(self.as_bytes());
            *self = copy;
        }
        // SAFETY: as in `as_bytes`, and `&mut self` makes the access exclusive;
        // external memory here is writable (the constructors' contracts).
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// Address of the first byte (0 when empty).
    ///
    /// ```
    /// # use axial_core::cpu::{ALIGN, CpuBuffer};
    /// assert_eq!(CpuBuffer::new(0, false)?.addr(), 0);
    /// assert_eq!(CpuBuffer::new(10, false)?.addr() % ALIGN, 0);
    /// # Ok::<(), axial_core::Error>(())
    /// ```
    pub fn addr(&self) -> usize {
        if self.len == 0 {
            0
        } else {
            self.ptr.as_ptr() as usize
        }
    }
}

impl Drop for CpuBuffer {
    fn drop(&mut self) {
        // An external buffer frees nothing: dropping `owner` releases it.
        if self.cap == 0 {
            return;
        }
        let block = Block {
            ptr: self.ptr,
            cap: self.cap,
        };
        if self.counted {
            give_to_pool(block);
        } else {
            free(block.ptr, block.cap);
        }
    }
}

fn alloc_layout(cap: usize) -> Result<AllocLayout> {
    AllocLayout::from_size_align(cap, ALIGN).map_err(|_| Error::Device {
        op: "alloc",
        message: format!("cannot allocate {cap} bytes"),
    })
}

fn free(ptr: NonNull<u8>, cap: usize) {
    if let Ok(layout) = alloc_layout(cap) {
        // SAFETY: ptr was allocated by `alloc_zeroed` with this exact layout.
        unsafe { alloc::dealloc(ptr.as_ptr(), layout) }
    }
}

/// A pooled block for `len` bytes, if one fits ([`Pool::take`]); else
/// `len` counts as live, for the block the caller makes.
fn take_pooled(len: usize) -> Option<Block> {
    POOL.lock().ok()?.take(len)
}

/// Takes back the count of a block that [`take_pooled`] counted as live
/// but the system could not give.
fn release(len: usize) {
    if let Ok(mut pool) = POOL.lock() {
        pool.live = pool.live.saturating_sub(len);
    }
}

/// Keeps a freed block of pooled size for the next request ([`Pool::give`]).
fn give_to_pool(block: Block) {
    match POOL.lock() {
        Ok(mut pool) => pool.give(block),
        Err(_) => free(block.ptr, block.cap),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooled_blocks_are_reused_and_zeroed_on_request() {
        let mut a = CpuBuffer::new(POOL_MIN_BYTES * 3, false).unwrap();
        a.as_bytes_mut().fill(7);
        let addr = a.addr();
        drop(a);
        let b = CpuBuffer::new(POOL_MIN_BYTES * 3, true).unwrap();
        assert!(b.as_bytes().iter().all(|&x| x == 0));
        assert_eq!(b.addr() % ALIGN, 0);
        // Another test may have taken the block first; reuse is the common case.
        let _ = addr;
    }

    /// A fresh block of `cap` bytes, as [`CpuBuffer::new`] makes one.
    fn fresh(cap: usize) -> Block {
        let layout = alloc_layout(cap).unwrap();
        // SAFETY: a non-zero size.
        let ptr = NonNull::new(unsafe { alloc::alloc_zeroed(layout) }).unwrap();
        Block { ptr, cap }
    }

    /// What `CpuBuffer::new` does: a pooled block, or a fresh one.
    fn take(pool: &mut Pool, len: usize) -> (Block, bool) {
        match pool.take(len) {
            Some(b) => (b, true),
            None => (fresh(len), false),
        }
    }

    #[test]
    fn the_pool_frees_blocks_only_to_stay_within_the_peak() {
        const MIB: usize = 1 << 20;
        let mut pool = Pool {
            blocks: Vec::new(),
            live: 0,
            peak: 0,
        };
        let (a, _) = take(&mut pool, 4 * MIB);
        let (b, _) = take(&mut pool, 4 * MIB);
        assert_eq!((pool.live, pool.peak), (8 * MIB, 8 * MIB));
        let b_addr = b.ptr;
        pool.give(a);
        pool.give(b);
        // No block fits 2 MiB: 8 pooled + 2 would pass the peak of 8, so
        // the oldest block (4 MiB) goes.
        let (c, reused) = take(&mut pool, 2 * MIB);
        assert!(!reused);
        assert_eq!((pool.pooled(), pool.live), (4 * MIB, 2 * MIB));
        // 1 MiB more fits beside the 4 pooled and 2 live within the peak:
        // nothing is freed (freeing a block per miss made a training step
        // ask the system for fresh pages every time).
        let (d, reused) = take(&mut pool, MIB);
        assert!(!reused);
        assert_eq!(
            (pool.pooled(), pool.live, pool.peak),
            (4 * MIB, 3 * MIB, 8 * MIB)
        );
        // ... so the next 4 MiB request gets the pooled block back.
        let (e, reused) = take(&mut pool, 4 * MIB);
        assert!(reused && e.ptr == b_addr);
        // A block serves requests at most an eighth smaller than itself.
        pool.give(e);
        let (f, reused) = take(&mut pool, 3 * MIB);
        assert!(!reused);
        for block in [c, d, f] {
            pool.give(block);
        }
        assert_eq!(pool.live, 0);
        assert!(pool.pooled() <= pool.peak);
    }

    #[test]
    fn external_buffers_keep_their_owner_and_refuse_misalignment() {
        let mut block = vec![0u64; 8].into_boxed_slice();
        let base = block.as_mut_ptr().cast::<u8>();
        let owner: Arc<dyn Any + Send + Sync> = Arc::new(Mutex::new(block));
        // SAFETY: the 64 bytes live as long as `owner`; only this buffer uses them.
        let mut b = unsafe {
            CpuBuffer::from_external(NonNull::new(base).unwrap(), 64, Arc::clone(&owner))
        }
        .unwrap();
        assert!(b.is_external());
        assert_eq!(b.addr(), base as usize);
        b.as_bytes_mut()[9] = 3;
        assert_eq!(Arc::strong_count(&owner), 2);
        drop(b);
        assert_eq!(Arc::strong_count(&owner), 1);
        // SAFETY: as above; the call fails before any access.
        let odd = unsafe {
            CpuBuffer::from_external(NonNull::new(base.wrapping_add(4)).unwrap(), 8, owner)
        };
        assert!(odd.is_err());
    }

    #[test]
    fn read_only_external_buffers_are_copied_on_write() {
        let data: Vec<u8> = vec![1, 2, 3];
        let ptr = data.as_ptr().cast_mut();
        // SAFETY: the Vec lives in the owner; the buffer is read-only.
        let mut b = unsafe { CpuBuffer::from_owner(ptr, 3, KeepAlive::new(data), false) };
        assert_eq!(b.addr(), ptr as usize);
        b.as_bytes_mut()[1] = 9;
        assert_ne!(b.addr(), ptr as usize);
        assert_eq!(b.as_bytes(), &[1, 9, 3]);
        assert!(!b.is_external());
    }

    #[test]
    fn shared_buffers_free_their_memory_with_the_last_handle() {
        let mut b = CpuBuffer::new(16, true).unwrap();
        let keep = b.keep_alive();
        let again = b.keep_alive();
        assert!(b.is_external() && b.is_writable());
        drop(b);
        drop(again);
        let owned = keep.try_unwrap::<CpuBuffer>().ok().unwrap();
        assert_eq!((owned.len(), owned.is_external()), (16, false));
    }

    #[test]
    fn empty_external_buffers_have_address_zero() {
        // SAFETY: no byte is read.
        let b = unsafe { CpuBuffer::from_owner(std::ptr::null_mut(), 0, KeepAlive::new(()), true) };
        assert_eq!((b.addr(), b.as_bytes()), (0, &[][..]));
    }

    #[test]
    fn kernels_refuse_external_memory_not_aligned_for_the_dtype() {
        use crate::{DType, Layout, RawTensor, Scalar, Storage, UnaryOp};
        let mut data = vec![0u64; 3];
        // SAFETY: 2 bytes into a block of 24: 16 bytes remain.
        let ptr = unsafe { data.as_mut_ptr().cast::<u8>().add(2) };
        // SAFETY: the Vec lives in the owner and is used through the storage only.
        let s = unsafe { Storage::from_owner(ptr, 16, KeepAlive::new(data), true) };
        let mut x = RawTensor::from_parts(s, Layout::contiguous(&[4]), DType::F32).unwrap();
        let err = x.view().unary(UnaryOp::Neg).err().unwrap().to_string();
        assert!(
            err.contains("is not aligned for torch.float32 (4 bytes)"),
            "{err}"
        );
        assert!(x.view_mut().fill_(Scalar::Float(1.0)).is_err());
        // Two-byte elements are aligned there.
        let (s, _, _) = x.into_parts();
        let y = RawTensor::from_parts(s, Layout::contiguous(&[8]), DType::I16).unwrap();
        let neg = y.view().unary(UnaryOp::Neg).unwrap();
        assert_eq!(neg.to_vec::<i16>().unwrap(), vec![0; 8]);
    }

    #[test]
    fn empty_buffers_have_address_zero() {
        assert_eq!(CpuBuffer::new(0, true).unwrap().addr(), 0);
    }

    #[test]
    fn empty_buffers_view_as_any_element_type() {
        let b = CpuBuffer::new(0, false).unwrap();
        assert!(bytemuck::try_cast_slice::<u8, f64>(b.as_bytes()).is_ok());
    }
}
