//! The race checker's record of who touched each byte: for shared memory
//! per block, for global memory per launch.
//!
//! Every byte keeps its last plain write, its last plain reads and its last
//! atomic accesses, each as the thread, the block's barrier epoch, and
//! whether another thread of that epoch (or another block) touched it too.
//! Blocks run one after another, so two accesses are concurrent when they
//! come from different blocks, or from one block between the same two
//! barriers. A write concurrent with any other access of another thread, or
//! a read or atomic concurrent with another thread's plain write, is a race.

use std::collections::HashMap;

/// One kind of access to a byte: packed thread, epoch and flags.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
struct Acc(u64);

/// Another thread touched the byte in the same epoch.
const MULTI: u64 = 1 << 62;
/// A thread of another block touched it earlier in the launch.
const OTHER_BLOCK: u64 = 1 << 63;

impl Acc {
    /// The thread (global index + 1; 0: none).
    fn tid(self) -> u32 {
        self.0 as u32
    }

    fn epoch(self) -> u32 {
        ((self.0 >> 32) & 0x3fff_ffff) as u32
    }

    fn new(tid: u32, epoch: u32, flags: u64) -> Acc {
        Acc(tid as u64 | ((epoch as u64 & 0x3fff_ffff) << 32) | flags)
    }
}

/// Who the accessing thread is.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Who {
    /// Global thread index + 1.
    pub(crate) tid: u32,
    /// Threads per block.
    pub(crate) per_block: u32,
    /// The block's barrier count.
    pub(crate) epoch: u32,
}

impl Who {
    fn block(self, tid: u32) -> u32 {
        (tid - 1) / self.per_block
    }

    /// The other thread of a recorded access it races with, if any.
    fn races(self, a: Acc) -> Option<u32> {
        if a.tid() == 0 {
            return None;
        }
        if a.0 & OTHER_BLOCK != 0 || self.block(a.tid()) != self.block(self.tid) {
            return Some(a.tid());
        }
        (a.epoch() == self.epoch && (a.tid() != self.tid || a.0 & MULTI != 0)).then_some(a.tid())
    }

    /// `a` after this thread's access.
    fn record(self, a: Acc) -> Acc {
        if a.tid() == 0 {
            return Acc::new(self.tid, self.epoch, 0);
        }
        if self.block(a.tid()) != self.block(self.tid) {
            return Acc::new(self.tid, self.epoch, OTHER_BLOCK);
        }
        let kept = a.0 & OTHER_BLOCK;
        if a.epoch() == self.epoch {
            let multi = if a.tid() != self.tid {
                MULTI
            } else {
                a.0 & MULTI
            };
            Acc::new(a.tid(), self.epoch, kept | multi)
        } else {
            Acc::new(self.tid, self.epoch, kept)
        }
    }
}

/// The kind of an access.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Read,
    Write,
    Atomic,
}

/// The record of one byte.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    write: Acc,
    read: Acc,
    atomic: Acc,
}

impl Cell {
    /// Records an access; the other thread when it races.
    fn access(&mut self, who: Who, kind: Kind) -> Option<u32> {
        let other = match kind {
            Kind::Read | Kind::Atomic => who.races(self.write),
            Kind::Write => who
                .races(self.write)
                .or_else(|| who.races(self.read))
                .or_else(|| who.races(self.atomic)),
        };
        match kind {
            Kind::Read => self.read = who.record(self.read),
            Kind::Write => self.write = who.record(self.write),
            Kind::Atomic => self.atomic = who.record(self.atomic),
        }
        other
    }
}

/// A race: the other thread (global index + 1).
pub(crate) type Race = u32;

/// The records of a block's shared memory, and which bytes were written.
pub(crate) struct SharedShadow {
    cells: Vec<Cell>,
    written: Vec<bool>,
}

impl SharedShadow {
    pub(crate) fn new(len: usize) -> SharedShadow {
        SharedShadow {
            cells: vec![Cell::default(); len],
            written: vec![false; len],
        }
    }

    /// Forgets every access (a new block).
    pub(crate) fn clear(&mut self) {
        self.cells.iter_mut().for_each(|c| *c = Cell::default());
        self.written.iter_mut().for_each(|w| *w = false);
    }

    /// Records an access of `len` bytes at `at`: `Err(None)` for a read of
    /// bytes never written, `Err(Some(other))` for a race.
    pub(crate) fn access(
        &mut self,
        at: usize,
        len: usize,
        who: Who,
        kind: Kind,
    ) -> Result<(), Option<Race>> {
        if kind != Kind::Write && self.written[at..at + len].iter().any(|w| !w) {
            return Err(None);
        }
        let race = access_cells(&mut self.cells[at..at + len], who, kind);
        if kind != Kind::Read {
            self.written[at..at + len]
                .iter_mut()
                .for_each(|w| *w = true);
        }
        race.map_or(Ok(()), |o| Err(Some(o)))
    }
}

const PAGE: u64 = 4096;

/// The records of global memory over one launch, by page of device address.
#[derive(Default)]
pub(crate) struct GlobalShadow {
    pages: HashMap<u64, Box<[Cell]>>,
    /// The page accessed last and its index in `pages`' key space.
    last: Option<(u64, *mut Cell)>,
}

impl GlobalShadow {
    /// Records an access of `len` bytes at `addr` (not crossing a page: it
    /// is aligned to its size); the other thread when it races.
    pub(crate) fn access(&mut self, addr: u64, len: u64, who: Who, kind: Kind) -> Option<Race> {
        let key = addr / PAGE;
        let page = match self.last {
            Some((k, p)) if k == key => p,
            _ => {
                let page = self
                    .pages
                    .entry(key)
                    .or_insert_with(|| vec![Cell::default(); PAGE as usize].into_boxed_slice());
                let p = page.as_mut_ptr();
                self.last = Some((key, p));
                p
            }
        };
        let at = (addr % PAGE) as usize;
        // SAFETY: `page` is the first cell of a boxed page of `PAGE` cells
        // that `pages` owns (boxes do not move when the map grows), and
        // `at + len <= PAGE` (an aligned access does not cross a page); the
        // `&mut self` borrow excludes any other reference to it.
        let cells = unsafe { std::slice::from_raw_parts_mut(page.add(at), len as usize) };
        access_cells(cells, who, kind)
    }
}

/// Records an access of the bytes of `cells`: when they all hold the same
/// record (an element accessed whole, the common case) it is updated once.
fn access_cells(cells: &mut [Cell], who: Who, kind: Kind) -> Option<Race> {
    let (first, rest) = cells.split_first_mut()?;
    let same = rest.iter().all(|c| c == first);
    let race = first.access(who, kind);
    if same {
        let c = *first;
        rest.iter_mut().for_each(|r| *r = c);
        return race;
    }
    let mut race = race;
    for c in rest {
        if let Some(o) = c.access(who, kind) {
            race.get_or_insert(o);
        }
    }
    race
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(tid: u32, epoch: u32) -> Who {
        Who {
            tid: tid + 1,
            per_block: 64,
            epoch,
        }
    }

    #[test]
    fn accesses_race_only_between_barriers_and_across_blocks() {
        let mut c = Cell::default();
        assert_eq!(c.access(who(0, 0), Kind::Write), None);
        // The writer reads back its own value.
        assert_eq!(c.access(who(0, 0), Kind::Read), None);
        // Another thread of the block, before a barrier: a race.
        assert_eq!(c.access(who(1, 0), Kind::Read), Some(1));
        // After a barrier: fine, and many readers are fine.
        let mut c = Cell::default();
        c.access(who(0, 0), Kind::Write);
        assert_eq!(c.access(who(1, 1), Kind::Read), None);
        assert_eq!(c.access(who(2, 1), Kind::Read), None);
        // A write among the readers of its epoch races with them.
        assert_eq!(c.access(who(3, 1), Kind::Write), Some(2));
        // Another block: a race whatever the epoch.
        let mut c = Cell::default();
        c.access(who(0, 5), Kind::Write);
        assert_eq!(c.access(who(64, 9), Kind::Read), Some(1));
    }

    #[test]
    fn atomics_race_with_plain_writes_only() {
        let mut c = Cell::default();
        assert_eq!(c.access(who(0, 0), Kind::Atomic), None);
        assert_eq!(c.access(who(1, 0), Kind::Atomic), None);
        assert_eq!(c.access(who(2, 0), Kind::Read), None);
        assert!(c.access(who(3, 0), Kind::Write).is_some());
    }

    #[test]
    fn shared_reads_of_unwritten_bytes_are_refused() {
        let mut s = SharedShadow::new(16);
        assert_eq!(s.access(0, 4, who(0, 0), Kind::Read), Err(None));
        assert_eq!(s.access(0, 4, who(0, 0), Kind::Write), Ok(()));
        assert_eq!(s.access(2, 4, who(0, 0), Kind::Read), Err(None));
        assert_eq!(s.access(0, 4, who(0, 0), Kind::Read), Ok(()));
    }
}
