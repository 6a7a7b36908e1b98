//! Device memory as the executor sees it: allocations it finds addresses in,
//! and one made of host buffers for tests and tools.

use std::collections::BTreeMap;

/// An allocation of device memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Its first device address.
    pub base: u64,
    /// Its bytes.
    pub len: u64,
    /// The host address of its first byte.
    pub host: *mut u8,
}

impl Region {
    /// True when `len` bytes at device address `addr` lie inside.
    pub fn contains(&self, addr: u64, len: u64) -> bool {
        addr >= self.base
            && addr
                .checked_add(len)
                .is_some_and(|end| end <= self.base + self.len)
    }
}

/// Device memory: where device addresses lie in host memory.
///
/// # Safety
/// A region returned stays valid (readable and writable for its length at
/// its host address) for as long as a kernel runs, and no one else touches
/// it meanwhile.
pub unsafe trait Memory {
    /// The allocation holding `len` bytes at device address `addr`, or
    /// `None` when no allocation holds them all.
    fn region(&self, addr: u64, len: u64) -> Option<Region>;
}

/// Device memory made of host buffers, their host addresses used as device
/// addresses.
///
/// ```
/// use axial_ptx::HostMemory;
/// let mut m = HostMemory::default();
/// let a = m.alloc(16);
/// m.write(a + 4, &[1, 2]);
/// assert_eq!(m.read(a, 8), vec![0, 0, 0, 0, 1, 2, 0, 0]);
/// ```
#[derive(Default, Debug)]
pub struct HostMemory {
    buffers: BTreeMap<u64, Box<[u64]>>,
    lens: BTreeMap<u64, u64>,
}

impl HostMemory {
    /// A zeroed allocation of `len` bytes (8-byte aligned): its address.
    pub fn alloc(&mut self, len: usize) -> u64 {
        let mut b = vec![0u64; len.div_ceil(8).max(1)].into_boxed_slice();
        let addr = b.as_mut_ptr() as u64;
        self.buffers.insert(addr, b);
        self.lens.insert(addr, len as u64);
        addr
    }

    fn slice(&self, addr: u64, len: usize) -> &[u8] {
        let r = self.region(addr, len as u64).expect("inside an allocation");
        // SAFETY: the region is one of our buffers, `len` bytes from `addr` inside it.
        unsafe { std::slice::from_raw_parts(r.host.add((addr - r.base) as usize), len) }
    }

    /// `len` bytes at `addr`.
    ///
    /// # Panics
    /// They are not inside one allocation.
    pub fn read(&self, addr: u64, len: usize) -> Vec<u8> {
        self.slice(addr, len).to_vec()
    }

    /// Writes `bytes` at `addr`.
    ///
    /// # Panics
    /// They are not inside one allocation.
    pub fn write(&mut self, addr: u64, bytes: &[u8]) {
        let r = self
            .region(addr, bytes.len() as u64)
            .expect("inside an allocation");
        // SAFETY: as in `slice`; `&mut self` excludes other access.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                r.host.add((addr - r.base) as usize),
                bytes.len(),
            );
        }
    }
}

// SAFETY: the buffers live as long as `self`, which a running kernel borrows.
unsafe impl Memory for HostMemory {
    fn region(&self, addr: u64, len: u64) -> Option<Region> {
        let (&base, &n) = self.lens.range(..=addr).next_back()?;
        let host = self.buffers[&base].as_ptr() as *mut u8;
        let r = Region { base, len: n, host };
        r.contains(addr, len).then_some(r)
    }
}
