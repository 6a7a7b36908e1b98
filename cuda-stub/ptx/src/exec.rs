//! Running a kernel: blocks one after another, each block's warps in turn,
//! each warp's 32 lanes stepped together.
//!
//! A warp is a list of groups of lanes that share a program counter (and a
//! call stack); the group with the lowest program counter runs first, so
//! lanes that diverged at a branch meet again where their paths join. A
//! warp runs until it reaches `bar.sync` or ends; when every warp of the
//! block waits at the barrier (or has ended), the barrier opens. Memory
//! accesses are checked as they happen ([`crate::check`]).

use crate::check::{GlobalShadow, Kind, SharedShadow, Who};
use crate::decode::Kernel;
use crate::error::{Fault, FaultKind};
use crate::ir::*;
use crate::memory::{Memory, Region};
use crate::num;

/// Generic addresses of shared memory: this plus the shared address.
pub const SHARED_WINDOW: u64 = 1 << 56;
/// Generic addresses of local memory: this plus the local address.
pub const LOCAL_WINDOW: u64 = 2 << 56;
/// The size of each window.
const WINDOW: u64 = 1 << 32;

/// How a kernel runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Check races between threads and reads of unwritten shared memory.
    pub check_races: bool,
    /// Warp instructions after which the kernel is reported as hanging.
    pub max_steps: u64,
    /// The most shared memory (static and dynamic) a block may have.
    pub max_shared: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            check_races: true,
            // A thousand times what the largest launch of the test suites
            // takes: a kernel that loops for ever fails in minutes.
            max_steps: 1 << 30,
            // sm_80: 48 KiB without opting in, 163 KiB with.
            max_shared: 163 * 1024,
        }
    }
}

/// A launch: the grid, the block, dynamic shared memory and the parameters.
#[derive(Clone, Debug)]
pub struct Launch<'a> {
    /// Blocks in x, y, z.
    pub grid: [u32; 3],
    /// Threads of a block in x, y, z.
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory.
    pub dynamic_shared: u32,
    /// The parameter buffer (each parameter at its offset, [`Kernel::params`]).
    pub params: &'a [u8],
}

/// What a launch did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Warp instructions executed.
    pub steps: u64,
    /// Blocks run.
    pub blocks: u64,
}

/// Lanes of a warp that share a program counter and call stack.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Group {
    pc: u32,
    mask: u32,
    depth: u8,
    /// Return addresses of the calls in progress.
    stack: [u32; MAX_DEPTH],
}

const MAX_DEPTH: usize = 8;

impl Group {
    /// Where the lanes are as the kernel sees them, outermost first: the
    /// call site of each call in progress, then the program counter. The
    /// group lowest in this order runs first, so lanes inside a function
    /// finish it before lanes past its call site run on.
    fn order(&self) -> [u32; MAX_DEPTH + 1] {
        let mut key = [0; MAX_DEPTH + 1];
        for (k, &ret) in self.stack[..self.depth as usize].iter().enumerate() {
            key[k] = ret - 1;
        }
        key[self.depth as usize] = self.pc;
        key
    }

    fn same_place(&self, o: &Group) -> bool {
        self.pc == o.pc
            && self.depth == o.depth
            && self.stack[..self.depth as usize] == o.stack[..o.depth as usize]
    }
}

struct Warp {
    index: u32,
    groups: Vec<Group>,
    /// Lanes that exist and have not ended.
    live: u32,
    /// Lanes that exist.
    present: u32,
    at_barrier: bool,
    regs: Vec<u64>,
    local: Vec<u8>,
    call: Vec<u8>,
}

enum Stop {
    Barrier,
    Ended,
}

/// The registers of a warp as the sources of an operation.
struct WarpSources<'s, 'e> {
    exec: &'s Exec<'e>,
    w: &'s Warp,
}

impl Sources for WarpSources<'_, '_> {
    fn read(&self, s: Src) -> Lanes<'_> {
        self.exec.read(self.w, s)
    }

    fn carry(&self) -> Lanes<'_> {
        self.exec.read(self.w, Src::Reg(self.exec.kernel.cc))
    }
}

struct Exec<'a> {
    kernel: &'a Kernel,
    launch: &'a Launch<'a>,
    memory: &'a dyn Memory,
    options: &'a Options,
    per_block: u32,
    ctaid: [u32; 3],
    block_linear: u32,
    shared: Vec<u8>,
    shared_shadow: Option<SharedShadow>,
    global_shadow: Option<GlobalShadow>,
    epoch: u32,
    /// The allocations found last (most recent first).
    cache: [Option<Region>; 4],
    steps: u64,
    /// The results of the last operation on registers (kept to reuse).
    scratch: Vec<(Reg, L)>,
}

/// Runs `kernel` over `launch`, reading and writing `memory`.
///
/// # Errors
/// The first fault of a thread: an access outside memory, a misaligned
/// access, a race, a divergent barrier or shuffle, a launch outside the
/// limits of sm_80.
pub fn run(
    kernel: &Kernel,
    launch: &Launch<'_>,
    memory: &dyn Memory,
    options: &Options,
) -> Result<Stats, Fault> {
    let fault = |message: String| Fault {
        kind: FaultKind::Invalid,
        kernel: kernel.name.clone(),
        block: [0; 3],
        thread: [0; 3],
        line: kernel.code.first().map_or(0, |i| i.line),
        message,
    };
    let [bx, by, bz] = launch.block;
    let per_block = bx as u64 * by as u64 * bz as u64;
    if per_block == 0 || per_block > 1024 || bx > 1024 || by > 1024 || bz > 64 {
        return Err(fault(format!(
            "a block of {bx}×{by}×{bz} threads (sm_80: at most 1024, z at most 64)"
        )));
    }
    let [gx, gy, gz] = launch.grid;
    if gx == 0 || gy == 0 || gz == 0 || gx > i32::MAX as u32 || gy > 65535 || gz > 65535 {
        return Err(fault(format!(
            "a grid of {gx}×{gy}×{gz} blocks (sm_80: x below 2^31, y and z at most 65535)"
        )));
    }
    if launch.params.len() != kernel.param_size as usize {
        return Err(fault(format!(
            "{} bytes of parameters for a kernel that takes {}",
            launch.params.len(),
            kernel.param_size
        )));
    }
    let shared_len = kernel.dynamic_shared_at as u64 + launch.dynamic_shared as u64;
    if shared_len.max(kernel.static_shared as u64) > options.max_shared as u64 {
        return Err(fault(format!(
            "{} bytes of shared memory ({} static, {} dynamic), more than {}",
            shared_len, kernel.static_shared, launch.dynamic_shared, options.max_shared
        )));
    }
    let shared_len = if launch.dynamic_shared == 0 {
        kernel.static_shared as usize
    } else {
        shared_len as usize
    };
    let mut e = Exec {
        kernel,
        launch,
        memory,
        options,
        per_block: per_block as u32,
        ctaid: [0; 3],
        block_linear: 0,
        shared: vec![0; shared_len],
        shared_shadow: options.check_races.then(|| SharedShadow::new(shared_len)),
        global_shadow: options.check_races.then(GlobalShadow::default),
        epoch: 0,
        cache: [None; 4],
        steps: 0,
        scratch: Vec::with_capacity(4),
    };
    let n = per_block as u32;
    let mut warps: Vec<Warp> = (0..n.div_ceil(32))
        .map(|w| {
            let count = (n - w * 32).min(32);
            let present = if count == 32 {
                u32::MAX
            } else {
                (1u32 << count) - 1
            };
            Warp {
                index: w,
                groups: Vec::with_capacity(4),
                live: present,
                present,
                at_barrier: false,
                regs: vec![0; kernel.nregs as usize * 32],
                local: vec![0; kernel.local_size as usize * 32],
                call: vec![0; kernel.call_param_size as usize * 32],
            }
        })
        .collect();
    let mut stats = Stats::default();
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                e.ctaid = [x, y, z];
                e.block_linear = x + gx * (y + gy * z);
                e.block(&mut warps)?;
                stats.blocks += 1;
            }
        }
    }
    stats.steps = e.steps;
    Ok(stats)
}

fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(l)
    })
}

use crate::lanes::{L, Lanes, Sources, sext, trunc};

/// The `size`-byte little-endian value at `p` (1, 2, 4 or 8 bytes).
///
/// # Safety
/// `p` is valid for reads of `size` bytes.
unsafe fn load(p: *const u8, size: u32) -> u64 {
    // SAFETY: the caller's contract.
    unsafe {
        match size {
            1 => *p as u64,
            2 => p.cast::<u16>().read_unaligned() as u64,
            4 => p.cast::<u32>().read_unaligned() as u64,
            _ => p.cast::<u64>().read_unaligned(),
        }
    }
}

/// Stores the low `size` bytes of `v` at `p`.
///
/// # Safety
/// `p` is valid for writes of `size` bytes.
unsafe fn store(p: *mut u8, size: u32, v: u64) {
    // SAFETY: the caller's contract.
    unsafe {
        match size {
            1 => *p = v as u8,
            2 => p.cast::<u16>().write_unaligned(v as u16),
            4 => p.cast::<u32>().write_unaligned(v as u32),
            _ => p.cast::<u64>().write_unaligned(v),
        }
    }
}

impl Exec<'_> {
    /// Runs the current block with `warps` (made for the launch and reused:
    /// a block starts from the state the previous one left, as registers
    /// and local memory are undefined at a kernel's start; shared memory
    /// starts zeroed, its checker's record empty).
    fn block(&mut self, warps: &mut [Warp]) -> Result<(), Fault> {
        self.shared.iter_mut().for_each(|b| *b = 0);
        if let Some(sh) = &mut self.shared_shadow {
            sh.clear();
        }
        self.epoch = 0;
        for w in warps.iter_mut() {
            w.live = w.present;
            w.at_barrier = false;
            w.groups.clear();
            w.groups.push(Group {
                pc: 0,
                mask: w.present,
                depth: 0,
                stack: [0; MAX_DEPTH],
            });
        }
        loop {
            let mut waiting = 0;
            for w in warps.iter_mut() {
                if w.live == 0 {
                    continue;
                }
                if !w.at_barrier {
                    match self.run_warp(w)? {
                        Stop::Barrier => w.at_barrier = true,
                        Stop::Ended => continue,
                    }
                }
                waiting += 1;
            }
            if waiting == 0 {
                return Ok(());
            }
            // Every warp left waits at a barrier: it opens.
            self.epoch += 1;
            for w in warps.iter_mut().filter(|w| w.at_barrier) {
                w.at_barrier = false;
                w.groups[0].pc += 1;
            }
        }
    }

    /// A fault at a lane of a warp.
    fn fault(&self, w: &Warp, lane: usize, line: u32, kind: FaultKind, message: String) -> Fault {
        let t = w.index * 32 + lane as u32;
        let [bx, by, _] = self.launch.block;
        Fault {
            kind,
            kernel: self.kernel.name.clone(),
            block: self.ctaid,
            thread: [t % bx, (t / bx) % by, t / (bx * by)],
            line,
            message,
        }
    }

    /// The thread (x, y, z) of a global thread index + 1, for messages.
    fn describe(&self, tid: u32) -> String {
        let t = tid - 1;
        let (b, t) = (t / self.per_block, t % self.per_block);
        let [gx, gy, _] = self.launch.grid;
        let [bx, by, _] = self.launch.block;
        format!(
            "block ({}, {}, {}) thread ({}, {}, {})",
            b % gx,
            (b / gx) % gy,
            b / (gx * gy),
            t % bx,
            (t / bx) % by,
            t / (bx * by)
        )
    }

    fn run_warp(&mut self, w: &mut Warp) -> Result<Stop, Fault> {
        let code = &self.kernel.code;
        loop {
            let Some(&g) = w.groups.first() else {
                return Ok(Stop::Ended);
            };
            let inst = &code[g.pc as usize];
            self.steps += 1;
            if self.steps > self.options.max_steps {
                let lane = g.mask.trailing_zeros() as usize;
                return Err(self.fault(
                    w,
                    lane,
                    inst.line,
                    FaultKind::Hang,
                    format!("{} warp instructions", self.steps),
                ));
            }
            let active = match inst.guard {
                None => g.mask,
                Some(p) => {
                    let mut m = 0;
                    for l in lanes(g.mask) {
                        if (self.val(w, p.src, l) & 1 != 0) != p.neg {
                            m |= 1 << l;
                        }
                    }
                    m
                }
            };
            match &inst.op {
                Op::Bra { target } => {
                    let rest = g.mask & !active;
                    w.groups[0].pc = if active == 0 { g.pc + 1 } else { *target };
                    if active != 0 && rest != 0 {
                        w.groups[0].mask = active;
                        w.groups.push(Group {
                            pc: g.pc + 1,
                            mask: rest,
                            ..g
                        });
                    }
                }
                Op::Bar => {
                    if active != g.mask || g.mask != w.live {
                        let lane = g.mask.trailing_zeros() as usize;
                        return Err(self.fault(
                            w,
                            lane,
                            inst.line,
                            FaultKind::Divergence,
                            format!(
                                "bar.sync reached by lanes {:#010x} of warp {} while lanes {:#010x} are elsewhere \
                                 (bar.sync is .aligned: every thread must reach the same barrier together)",
                                active,
                                w.index,
                                w.live & !active
                            ),
                        ));
                    }
                    return Ok(Stop::Barrier);
                }
                Op::Call { target, ins, .. } => {
                    if active != 0 {
                        if g.depth as usize >= MAX_DEPTH {
                            let lane = active.trailing_zeros() as usize;
                            return Err(self.fault(
                                w,
                                lane,
                                inst.line,
                                FaultKind::Invalid,
                                "calls nested too deep".into(),
                            ));
                        }
                        let size = self.kernel.call_param_size as usize;
                        for l in lanes(active) {
                            let base = l * size;
                            for c in ins {
                                let (f, t) = (base + c.from as usize, base + c.to as usize);
                                w.call.copy_within(f..f + c.size as usize, t);
                            }
                        }
                        let mut called = Group {
                            pc: *target,
                            mask: active,
                            ..g
                        };
                        called.stack[g.depth as usize] = g.pc + 1;
                        called.depth += 1;
                        w.groups[0] = called;
                        if active != g.mask {
                            w.groups.push(Group {
                                pc: g.pc + 1,
                                mask: g.mask & !active,
                                ..g
                            });
                        }
                    } else {
                        w.groups[0].pc += 1;
                    }
                }
                Op::Ret | Op::Exit if active == 0 => w.groups[0].pc += 1,
                Op::Ret | Op::Exit => {
                    let ret = matches!(inst.op, Op::Ret) && g.depth > 0;
                    if ret {
                        let back = g.stack[g.depth as usize - 1];
                        if let Op::Call { outs, .. } = &code[back as usize - 1].op {
                            let size = self.kernel.call_param_size as usize;
                            for l in lanes(active) {
                                let base = l * size;
                                for c in outs {
                                    let (f, t) = (base + c.from as usize, base + c.to as usize);
                                    w.call.copy_within(f..f + c.size as usize, t);
                                }
                            }
                        }
                        let mut back_group = Group {
                            pc: back,
                            mask: active,
                            ..g
                        };
                        back_group.depth -= 1;
                        w.groups[0] = back_group;
                    } else {
                        w.live &= !active;
                        w.groups[0].mask &= !active;
                    }
                    if active != g.mask {
                        if ret {
                            w.groups.push(Group {
                                pc: g.pc + 1,
                                mask: g.mask & !active,
                                ..g
                            });
                        } else {
                            w.groups[0].pc += 1;
                        }
                    }
                    if w.groups[0].mask == 0 {
                        w.groups.remove(0);
                    }
                }
                Op::Trap => {
                    if active != 0 {
                        let lane = active.trailing_zeros() as usize;
                        return Err(self.fault(
                            w,
                            lane,
                            inst.line,
                            FaultKind::Invalid,
                            "trap".into(),
                        ));
                    }
                    w.groups[0].pc += 1;
                }
                _ => {
                    if active != 0 {
                        self.op(w, inst, active, g.mask)?;
                    }
                    w.groups[0].pc += 1;
                }
            }
            if w.groups.len() > 1 {
                w.groups.sort_by_key(Group::order);
                // Groups at the same place (adjacent once sorted) merge.
                let mut k = 0;
                while k + 1 < w.groups.len() {
                    if w.groups[k + 1].same_place(&w.groups[k]) {
                        w.groups[k].mask |= w.groups[k + 1].mask;
                        w.groups.remove(k + 1);
                    } else {
                        k += 1;
                    }
                }
            }
        }
    }

    fn special(&self, w: &Warp, s: Special, lane: usize) -> u64 {
        let t = w.index * 32 + lane as u32;
        let [bx, by, _] = self.launch.block;
        (match s {
            Special::Tid(0) => t % bx,
            Special::Tid(1) => (t / bx) % by,
            Special::Tid(_) => t / (bx * by),
            Special::Ntid(c) => self.launch.block[c as usize],
            Special::Ctaid(c) => self.ctaid[c as usize],
            Special::Nctaid(c) => self.launch.grid[c as usize],
            Special::LaneId => lane as u32,
            Special::WarpId => w.index,
            Special::NWarpId => self.per_block.div_ceil(32),
            Special::SmId | Special::GridId => 0,
            Special::NSmId => 1,
            Special::LaneMaskEq => 1 << lane,
            Special::LaneMaskLt => (1u32 << lane) - 1,
            Special::LaneMaskLe => ((1u64 << (lane + 1)) - 1) as u32,
            Special::LaneMaskGt => !(((1u64 << (lane + 1)) - 1) as u32),
            Special::LaneMaskGe => !((1u32 << lane) - 1),
            Special::Clock => self.steps as u32,
            Special::Clock64 => return self.steps,
        }) as u64
    }

    fn val(&self, w: &Warp, s: Src, lane: usize) -> u64 {
        match s {
            Src::Reg(r) => w.regs[r as usize * 32 + lane],
            Src::Imm(v) => v,
            Src::Special(sp) => self.special(w, sp, lane),
        }
    }

    fn pred(&self, w: &Warp, p: PredSrc, lane: usize) -> bool {
        (self.val(w, p.src, lane) & 1 != 0) != p.neg
    }

    fn set(w: &mut Warp, r: Reg, lane: usize, v: u64) {
        w.regs[r as usize * 32 + lane] = v;
    }

    /// A source's value in every lane.
    fn read<'w>(&self, w: &'w Warp, s: Src) -> Lanes<'w> {
        match s {
            Src::Reg(r) => {
                let b = r as usize * 32;
                Lanes::Ref(w.regs[b..b + 32].try_into().expect("32 lanes"))
            }
            Src::Imm(v) => Lanes::Own([v; 32]),
            Src::Special(sp) => Lanes::Own(std::array::from_fn(|l| self.special(w, sp, l))),
        }
    }

    /// An operation on registers, written to the active lanes.
    fn pure(&mut self, w: &mut Warp, op: &Op, active: u32) {
        let mut out = std::mem::take(&mut self.scratch);
        crate::lanes::compute(op, &WarpSources { exec: self, w }, &mut out);
        for (r, v) in &out {
            let r = if *r == crate::lanes::CC {
                self.kernel.cc
            } else {
                *r
            };
            let b = r as usize * 32;
            let dst = &mut w.regs[b..b + 32];
            if active == u32::MAX {
                dst.copy_from_slice(v);
            } else {
                for l in lanes(active) {
                    dst[l] = v[l];
                }
            }
        }
        self.scratch = out;
    }

    /// Who a lane is, for the race checker.
    fn who(&self, w: &Warp, lane: usize) -> Who {
        Who {
            tid: self.block_linear * self.per_block + w.index * 32 + lane as u32 + 1,
            per_block: self.per_block,
            epoch: self.epoch,
        }
    }

    /// The host address of an access of `size` bytes (after every check).
    fn access(
        &mut self,
        w: &mut Warp,
        lane: usize,
        line: u32,
        (mem, addr, size, kind): (Mem, u64, u32, Kind),
    ) -> Result<*mut u8, Fault> {
        let (mem, addr) = match mem {
            Mem::Generic if (SHARED_WINDOW..SHARED_WINDOW + WINDOW).contains(&addr) => {
                (Mem::Shared, addr - SHARED_WINDOW)
            }
            Mem::Generic if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW).contains(&addr) => {
                (Mem::Local, addr - LOCAL_WINDOW)
            }
            Mem::Generic => (Mem::Global, addr),
            m => (m, addr),
        };
        if addr & (size as u64 - 1) != 0 {
            return Err(self.fault(
                w,
                lane,
                line,
                FaultKind::Misaligned,
                format!("a {size}-byte {mem:?} access at {addr:#x}"),
            ));
        }
        let outside = |this: &Self, w: &Warp, len: usize, what: &str| {
            this.fault(
                w,
                lane,
                line,
                FaultKind::OutOfSpace,
                format!("{size} bytes at {what} address {addr:#x}, outside its {len} bytes"),
            )
        };
        match mem {
            Mem::Global | Mem::Generic => {
                let cached = self
                    .cache
                    .iter()
                    .flatten()
                    .find(|r| r.contains(addr, size as u64))
                    .copied();
                let region = match cached {
                    Some(r) => r,
                    None => {
                        match self.memory.region(addr, size as u64) {
                            Some(r) => {
                                self.cache.rotate_right(1);
                                self.cache[0] = Some(r);
                                r
                            }
                            None => {
                                return Err(self.fault(
                                w,
                                lane,
                                line,
                                FaultKind::OutOfBounds,
                                format!("{size} bytes at global address {addr:#x} are in no allocation"),
                            ));
                            }
                        }
                    }
                };
                if let Some(shadow) = &mut self.global_shadow {
                    let who = Who {
                        tid: self.block_linear * self.per_block + w.index * 32 + lane as u32 + 1,
                        per_block: self.per_block,
                        epoch: self.epoch,
                    };
                    if let Some(other) = shadow.access(addr, size as u64, who, kind) {
                        let o = self.describe(other);
                        return Err(self.fault(
                            w,
                            lane,
                            line,
                            FaultKind::Race,
                            format!("{kind:?} of {size} bytes at global address {addr:#x} conflicts with an access by {o}"),
                        ));
                    }
                }
                // SAFETY: `contains` checked the range is inside the region,
                // whose host memory is valid while the kernel runs (`Memory`).
                Ok(unsafe { region.host.add((addr - region.base) as usize) })
            }
            Mem::Shared => {
                let len = self.shared.len();
                if addr + size as u64 > len as u64 {
                    return Err(outside(self, w, len, "shared"));
                }
                let who = self.who(w, lane);
                let checked = self
                    .shared_shadow
                    .as_mut()
                    .map(|s| s.access(addr as usize, size as usize, who, kind));
                if let Some(Err(e)) = checked {
                    return Err(match e {
                        None => self.fault(
                            w,
                            lane,
                            line,
                            FaultKind::Uninitialized,
                            format!("{size} bytes at shared address {addr:#x} that no thread of the block wrote"),
                        ),
                        Some(other) => {
                            let o = self.describe(other);
                            self.fault(
                                w,
                                lane,
                                line,
                                FaultKind::Race,
                                format!(
                                    "{kind:?} of {size} bytes at shared address {addr:#x} conflicts with an access by {o} \
                                     since the last barrier"
                                ),
                            )
                        }
                    });
                }
                // SAFETY: in bounds of the block's shared memory.
                Ok(unsafe { self.shared.as_mut_ptr().add(addr as usize) })
            }
            Mem::Local => {
                let len = self.kernel.local_size as usize;
                if addr + size as u64 > len as u64 {
                    return Err(outside(self, w, len, "local"));
                }
                // SAFETY: in bounds of this lane's local memory.
                Ok(unsafe { w.local.as_mut_ptr().add(lane * len + addr as usize) })
            }
            Mem::CallParam => {
                let len = self.kernel.call_param_size as usize;
                if addr + size as u64 > len as u64 {
                    return Err(outside(self, w, len, "parameter"));
                }
                // SAFETY: in bounds of this lane's call parameters.
                Ok(unsafe { w.call.as_mut_ptr().add(lane * len + addr as usize) })
            }
            Mem::KernelParam => {
                let len = self.launch.params.len();
                if addr + size as u64 > len as u64 {
                    return Err(outside(self, w, len, "kernel parameter"));
                }
                if kind != Kind::Read {
                    return Err(self.fault(
                        w,
                        lane,
                        line,
                        FaultKind::Invalid,
                        "a write to kernel parameters".into(),
                    ));
                }
                Ok(self.launch.params[addr as usize..].as_ptr().cast_mut())
            }
        }
    }

    fn op(&mut self, w: &mut Warp, inst: &Inst, active: u32, group: u32) -> Result<(), Fault> {
        let line = inst.line;
        match &inst.op {
            Op::Ld { mem, ty, d, addr } => {
                let size = ty.bytes();
                let total = size * d.len() as u32;
                for l in lanes(active) {
                    let a = (self.val(w, addr.base, l) as i64).wrapping_add(addr.offset) as u64;
                    if a & (total as u64 - 1) != 0 {
                        return Err(self.fault(
                            w,
                            l,
                            line,
                            FaultKind::Misaligned,
                            format!("a {total}-byte access at {a:#x}"),
                        ));
                    }
                    for (k, d) in d.iter().enumerate() {
                        let at = a + (k as u32 * size) as u64;
                        let p = self.access(w, l, line, (*mem, at, size, Kind::Read))?;
                        // SAFETY: `access` gave `size` readable bytes.
                        let raw = unsafe { load(p, size) };
                        let v = if ty.is_signed() {
                            sext(raw, ty.bits()) as u64
                        } else {
                            raw
                        };
                        if let Some(d) = d {
                            Self::set(w, *d, l, v);
                        }
                    }
                }
            }
            Op::St { mem, ty, s, addr } => {
                let size = ty.bytes();
                let total = size * s.len() as u32;
                for l in lanes(active) {
                    let a = (self.val(w, addr.base, l) as i64).wrapping_add(addr.offset) as u64;
                    if a & (total as u64 - 1) != 0 {
                        return Err(self.fault(
                            w,
                            l,
                            line,
                            FaultKind::Misaligned,
                            format!("a {total}-byte access at {a:#x}"),
                        ));
                    }
                    for (k, s) in s.iter().enumerate() {
                        let v = self.val(w, *s, l);
                        let at = a + (k as u32 * size) as u64;
                        let p = self.access(w, l, line, (*mem, at, size, Kind::Write))?;
                        // SAFETY: `access` gave `size` writable bytes.
                        unsafe { store(p, size, v) };
                    }
                }
            }
            Op::BarWarp { mask } => {
                for l in lanes(active) {
                    let m = self.val(w, *mask, l) as u32;
                    if m & (1 << l) == 0 || m & w.live & !group != 0 {
                        return Err(self.fault(
                            w,
                            l,
                            line,
                            FaultKind::Divergence,
                            format!("bar.warp.sync with mask {m:#010x} reached by lanes {group:#010x} only"),
                        ));
                    }
                }
            }
            Op::Shfl {
                mode,
                d,
                p,
                a,
                b,
                c,
                mask,
            } => self.shfl(w, line, active, *mode, *d, *p, [*a, *b, *c, *mask])?,
            Op::Vote { mode, d, a, mask } => {
                let mut ballot = 0u32;
                for l in lanes(active) {
                    let m = self.val(w, *mask, l) as u32;
                    self.sync_mask(w, l, line, m, active, "vote.sync")?;
                    if self.pred(w, *a, l) {
                        ballot |= 1 << l;
                    }
                }
                for l in lanes(active) {
                    let m = self.val(w, *mask, l) as u32 & w.live;
                    let r = match mode {
                        VoteMode::Ballot => ballot as u64,
                        VoteMode::All => (ballot & m == m) as u64,
                        VoteMode::Any => (ballot & m != 0) as u64,
                        VoteMode::Uni => (ballot & m == m || ballot & m == 0) as u64,
                    };
                    Self::set(w, *d, l, r);
                }
            }
            Op::Atom {
                mem,
                op,
                ty,
                d,
                addr,
                b,
                c,
            } => {
                let size = ty.bytes();
                for l in lanes(active) {
                    let at = (self.val(w, addr.base, l) as i64).wrapping_add(addr.offset) as u64;
                    let p = self.access(w, l, line, (*mem, at, size, Kind::Atomic))?;
                    // SAFETY: `access` gave `size` readable and writable bytes.
                    let old = unsafe { load(p, size) };
                    let x = self.val(w, *b, l);
                    let y = c.map_or(0, |c| self.val(w, c, l));
                    let new = atom_op(*op, *ty, old, x, y);
                    // SAFETY: as above.
                    unsafe { store(p, size, new) };
                    if let Some(d) = d {
                        let v = if ty.is_signed() {
                            sext(old, ty.bits()) as u64
                        } else {
                            old
                        };
                        Self::set(w, *d, l, v);
                    }
                }
            }
            Op::Nop => {}
            Op::Bra { .. } | Op::Bar | Op::Call { .. } | Op::Ret | Op::Exit | Op::Trap => {
                unreachable!("control flow is handled by run_warp")
            }
            pure => self.pure(w, pure, active),
        }
        Ok(())
    }

    /// Checks a `*.sync` member mask at lane `l`: it names the lane, and
    /// every lane it names that has not ended runs this instruction with it.
    fn sync_mask(
        &self,
        w: &Warp,
        l: usize,
        line: u32,
        m: u32,
        active: u32,
        what: &str,
    ) -> Result<(), Fault> {
        if m & (1 << l) == 0 {
            return Err(self.fault(
                w,
                l,
                line,
                FaultKind::Divergence,
                format!("{what} with member mask {m:#010x}, which does not name lane {l}"),
            ));
        }
        let missing = m & w.live & !active;
        if missing != 0 {
            return Err(self.fault(
                w,
                l,
                line,
                FaultKind::Divergence,
                format!(
                    "{what} with member mask {m:#010x} while lanes {missing:#010x} are elsewhere"
                ),
            ));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn shfl(
        &mut self,
        w: &mut Warp,
        line: u32,
        active: u32,
        mode: ShflMode,
        d: Option<Reg>,
        p: Option<Reg>,
        [a, b, c, mask]: [Src; 4],
    ) -> Result<(), Fault> {
        let mut source = [0u64; 32];
        for l in lanes(active) {
            source[l] = trunc(self.val(w, a, l), 32);
        }
        let mut out = [(0u64, false); 32];
        for l in lanes(active) {
            let m = self.val(w, mask, l) as u32;
            self.sync_mask(w, l, line, m, active, "shfl.sync")?;
            let bval = self.val(w, b, l) as u32 & 31;
            let cv = self.val(w, c, l) as u32;
            let (cval, seg) = (cv & 31, (cv >> 8) & 31);
            let lane = l as u32;
            let max_lane = (lane & seg) | (cval & !seg);
            let min_lane = lane & seg;
            let (j, ok) = match mode {
                ShflMode::Up => {
                    let j = lane as i32 - bval as i32;
                    (j, j >= max_lane as i32)
                }
                ShflMode::Down => {
                    let j = (lane + bval) as i32;
                    (j, j <= max_lane as i32)
                }
                ShflMode::Bfly => {
                    let j = (lane ^ bval) as i32;
                    (j, j <= max_lane as i32)
                }
                ShflMode::Idx => {
                    let j = (min_lane | (bval & !seg)) as i32;
                    (j, j <= max_lane as i32)
                }
            };
            let j = if ok { j as usize } else { l };
            if active & (1 << j) == 0 {
                return Err(self.fault(
                    w,
                    l,
                    line,
                    FaultKind::Divergence,
                    format!(
                        "shfl.sync reads lane {j}, which does not run it (its value is undefined)"
                    ),
                ));
            }
            out[l] = (source[j], ok);
        }
        for l in lanes(active) {
            if let Some(d) = d {
                Self::set(w, d, l, out[l].0);
            }
            if let Some(p) = p {
                Self::set(w, p, l, out[l].1 as u64);
            }
        }
        Ok(())
    }
}

/// The new value of an atomic operation on `old`.
fn atom_op(op: AtomOp, ty: Ty, old: u64, x: u64, y: u64) -> u64 {
    let bits = ty.bits();
    match op {
        AtomOp::And => old & x,
        AtomOp::Or => old | x,
        AtomOp::Xor => old ^ x,
        AtomOp::Exch => x,
        AtomOp::Cas => {
            if trunc(old, bits) == trunc(x, bits) {
                y
            } else {
                old
            }
        }
        AtomOp::Add => match ty {
            Ty::F32 => (f32::from_bits(old as u32) + f32::from_bits(x as u32)).to_bits() as u64,
            Ty::F64 => (f64::from_bits(old) + f64::from_bits(x)).to_bits(),
            _ => old.wrapping_add(x),
        },
        AtomOp::Inc => {
            if trunc(old, bits) >= trunc(x, bits) {
                0
            } else {
                old + 1
            }
        }
        AtomOp::Dec => {
            if trunc(old, bits) == 0 || trunc(old, bits) > trunc(x, bits) {
                x
            } else {
                old - 1
            }
        }
        AtomOp::Min | AtomOp::Max => {
            let max = op == AtomOp::Max;
            if ty.is_float() {
                let (a, b) = (num::float_of(ty, old), num::float_of(ty, x));
                let pick_b = if max { b > a } else { b < a };
                if pick_b { x } else { old }
            } else if ty.is_signed() {
                let (a, b) = (sext(old, bits), sext(x, bits));
                if (b > a) == max && a != b { x } else { old }
            } else {
                let (a, b) = (trunc(old, bits), trunc(x, bits));
                if (b > a) == max && a != b { x } else { old }
            }
        }
    }
}
