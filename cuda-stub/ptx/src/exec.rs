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
            max_steps: 1 << 36,
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
    at_barrier: bool,
    regs: Vec<u64>,
    local: Vec<u8>,
    call: Vec<u8>,
}

enum Stop {
    Barrier,
    Ended,
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
    cache: Option<Region>,
    steps: u64,
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
        shared_shadow: None,
        global_shadow: options.check_races.then(GlobalShadow::default),
        epoch: 0,
        cache: None,
        steps: 0,
    };
    let mut stats = Stats::default();
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                e.ctaid = [x, y, z];
                e.block_linear = x + gx * (y + gy * z);
                e.block()?;
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

fn trunc(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

impl Exec<'_> {
    fn block(&mut self) -> Result<(), Fault> {
        self.shared.iter_mut().for_each(|b| *b = 0);
        self.shared_shadow = self
            .options
            .check_races
            .then(|| SharedShadow::new(self.shared.len()));
        self.epoch = 0;
        let k = self.kernel;
        let n = self.per_block;
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
                    groups: vec![Group {
                        pc: 0,
                        mask: present,
                        depth: 0,
                        stack: [0; MAX_DEPTH],
                    }],
                    live: present,
                    at_barrier: false,
                    regs: vec![0; k.nregs as usize * 32],
                    local: vec![0; k.local_size as usize * 32],
                    call: vec![0; k.call_param_size as usize * 32],
                }
            })
            .collect();
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
                w.groups.sort_by_key(|g| g.pc);
                let mut k = 0;
                while k + 1 < w.groups.len() {
                    if let Some(j) = (k + 1..w.groups.len())
                        .take_while(|&j| w.groups[j].pc == w.groups[k].pc)
                        .find(|&j| w.groups[j].same_place(&w.groups[k]))
                    {
                        w.groups[k].mask |= w.groups[j].mask;
                        w.groups.remove(j);
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
        if !addr.is_multiple_of(size as u64) {
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
                let region = match self.cache {
                    Some(r) if r.contains(addr, size as u64) => r,
                    _ => {
                        match self.memory.region(addr, size as u64) {
                            Some(r) => {
                                self.cache = Some(r);
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
            Op::Mov { d, a, bits } => {
                for l in lanes(active) {
                    let v = trunc(self.val(w, *a, l), *bits);
                    Self::set(w, *d, l, v);
                }
            }
            Op::Pack { d, parts, bits } => {
                for l in lanes(active) {
                    let mut v = 0u64;
                    for (k, p) in parts.iter().enumerate() {
                        v |= trunc(self.val(w, *p, l), *bits) << (k as u32 * bits);
                    }
                    Self::set(w, *d, l, v);
                }
            }
            Op::Unpack { ds, a, bits } => {
                for l in lanes(active) {
                    let v = self.val(w, *a, l);
                    for (k, d) in ds.iter().enumerate() {
                        if let Some(d) = d {
                            Self::set(w, *d, l, trunc(v >> (k as u32 * bits), *bits));
                        }
                    }
                }
            }
            Op::Ld { mem, ty, d, addr } => {
                let size = ty.bytes();
                let total = size * d.len() as u32;
                for l in lanes(active) {
                    let a = (self.val(w, addr.base, l) as i64).wrapping_add(addr.offset) as u64;
                    if !a.is_multiple_of(total as u64) {
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
                        let mut buf = [0u8; 8];
                        // SAFETY: `access` gave `size` readable bytes.
                        unsafe {
                            std::ptr::copy_nonoverlapping(p, buf.as_mut_ptr(), size as usize)
                        };
                        let raw = u64::from_le_bytes(buf);
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
                    if !a.is_multiple_of(total as u64) {
                        return Err(self.fault(
                            w,
                            l,
                            line,
                            FaultKind::Misaligned,
                            format!("a {total}-byte access at {a:#x}"),
                        ));
                    }
                    for (k, s) in s.iter().enumerate() {
                        let v = self.val(w, *s, l).to_le_bytes();
                        let at = a + (k as u32 * size) as u64;
                        let p = self.access(w, l, line, (*mem, at, size, Kind::Write))?;
                        // SAFETY: `access` gave `size` writable bytes.
                        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), p, size as usize) };
                    }
                }
            }
            Op::Cvta {
                to_generic,
                mem,
                d,
                a,
                bits,
            } => {
                for l in lanes(active) {
                    let v = self.val(w, *a, l);
                    let r = match (mem, to_generic) {
                        (Mem::Shared, true) => trunc(v, 32) + SHARED_WINDOW,
                        (Mem::Local, true) => trunc(v, 32) + LOCAL_WINDOW,
                        (Mem::Shared, false) => v.wrapping_sub(SHARED_WINDOW),
                        (Mem::Local, false) => v.wrapping_sub(LOCAL_WINDOW),
                        _ => v,
                    };
                    Self::set(w, *d, l, trunc(r, *bits));
                }
            }
            Op::Int {
                op,
                ty,
                d,
                a,
                b,
                cc_out,
                cc_in,
                sat,
            } => {
                let bits = ty.bits();
                let cc = self.kernel.cc;
                for l in lanes(active) {
                    let (x, y) = (self.val(w, *a, l), self.val(w, *b, l));
                    let cin = if *cc_in {
                        w.regs[cc as usize * 32 + l]
                    } else {
                        0
                    };
                    let (r, carry) = int_op(*op, *ty, x, y, cin, *sat);
                    if *cc_out {
                        Self::set(w, cc, l, carry);
                    }
                    let out_bits = if *op == IntOp::MulWide {
                        bits * 2
                    } else {
                        bits
                    };
                    Self::set(w, *d, l, trunc(r, out_bits));
                }
            }
            Op::Mad {
                product,
                ty,
                d,
                a,
                b,
                c,
                cc_out,
                cc_in,
            } => {
                let bits = ty.bits();
                let out_bits = if *product == IntOp::MulWide {
                    bits * 2
                } else {
                    bits
                };
                let cc = self.kernel.cc;
                for l in lanes(active) {
                    let (x, y, z) = (self.val(w, *a, l), self.val(w, *b, l), self.val(w, *c, l));
                    let (p, _) = int_op(*product, *ty, x, y, 0, false);
                    let cin = if *cc_in {
                        w.regs[cc as usize * 32 + l]
                    } else {
                        0
                    };
                    let wide = Ty::U64;
                    let (r, carry) = if out_bits == 64 {
                        int_op(IntOp::Add, wide, p, z, cin, false)
                    } else {
                        let s = trunc(p, out_bits) + trunc(z, out_bits) + cin;
                        (s, s >> out_bits)
                    };
                    if *cc_out {
                        Self::set(w, cc, l, carry & 1);
                    }
                    Self::set(w, *d, l, trunc(r, out_bits));
                }
            }
            Op::IntUn { op, ty, d, a } => {
                let bits = ty.bits();
                for l in lanes(active) {
                    let x = trunc(self.val(w, *a, l), bits);
                    let r = match op {
                        IntUnOp::Neg => x.wrapping_neg(),
                        IntUnOp::Abs => sext(x, bits).wrapping_abs() as u64,
                        IntUnOp::Not => !x,
                        IntUnOp::Cnot => (x == 0) as u64,
                        IntUnOp::Clz => (x.leading_zeros() - (64 - bits)) as u64,
                        IntUnOp::Popc => x.count_ones() as u64,
                        IntUnOp::Brev => x.reverse_bits() >> (64 - bits),
                    };
                    let out = if matches!(op, IntUnOp::Clz | IntUnOp::Popc) {
                        32
                    } else {
                        bits
                    };
                    Self::set(w, *d, l, trunc(r, out));
                }
            }
            Op::Bfi {
                ty,
                d,
                a,
                b,
                pos,
                len,
            } => {
                let bits = ty.bits();
                for l in lanes(active) {
                    let (x, y) = (self.val(w, *a, l), self.val(w, *b, l));
                    let (p, n) = (self.val(w, *pos, l) & 0xff, self.val(w, *len, l) & 0xff);
                    let r = if n == 0 || p >= bits as u64 {
                        y
                    } else {
                        let n = n.min(bits as u64 - p);
                        let mask =
                            trunc(if n >= 64 { u64::MAX } else { (1u64 << n) - 1 } << p, bits);
                        (y & !mask) | ((x << p) & mask)
                    };
                    Self::set(w, *d, l, trunc(r, bits));
                }
            }
            Op::Bfe { ty, d, a, pos, len } => {
                let bits = ty.bits();
                for l in lanes(active) {
                    let x = trunc(self.val(w, *a, l), bits);
                    let (p, n) = (self.val(w, *pos, l) & 0xff, self.val(w, *len, l) & 0xff);
                    let msb = (p + n).min(bits as u64).saturating_sub(1);
                    let sign = if ty.is_signed() {
                        if n == 0 {
                            false
                        } else {
                            (x >> msb.min(63)) & 1 == 1
                        }
                    } else {
                        false
                    };
                    let mut r = 0u64;
                    for i in 0..bits as u64 {
                        let bit = if i < n && p + i <= msb {
                            (x >> (p + i)) & 1
                        } else {
                            sign as u64
                        };
                        r |= bit << i;
                    }
                    Self::set(w, *d, l, trunc(r, bits));
                }
            }
            Op::PredLogic { op, d, a, b } => {
                for l in lanes(active) {
                    let (x, y) = (self.pred(w, *a, l), self.pred(w, *b, l));
                    let r = match op {
                        BoolOp::And => x && y,
                        BoolOp::Or => x || y,
                        BoolOp::Xor => x != y,
                    };
                    Self::set(w, *d, l, r as u64);
                }
            }
            Op::PredNot { d, a } => {
                for l in lanes(active) {
                    let r = !self.pred(w, *a, l);
                    Self::set(w, *d, l, r as u64);
                }
            }
            Op::Setp {
                cmp,
                ty,
                ftz,
                p,
                q,
                a,
                b,
                combine,
            } => {
                for l in lanes(active) {
                    let (x, y) = (self.val(w, *a, l), self.val(w, *b, l));
                    let t = compare(*cmp, *ty, *ftz, x, y);
                    let (rp, rq) = match combine {
                        None => (t, !t),
                        Some((op, c)) => {
                            let c = self.pred(w, *c, l);
                            let f = |v: bool| match op {
                                BoolOp::And => v && c,
                                BoolOp::Or => v || c,
                                BoolOp::Xor => v != c,
                            };
                            (f(t), f(!t))
                        }
                    };
                    if let Some(p) = p {
                        Self::set(w, *p, l, rp as u64);
                    }
                    if let Some(q) = q {
                        Self::set(w, *q, l, rq as u64);
                    }
                }
            }
            Op::Selp { ty, d, a, b, c } => {
                for l in lanes(active) {
                    let v = if self.pred(w, *c, l) {
                        self.val(w, *a, l)
                    } else {
                        self.val(w, *b, l)
                    };
                    Self::set(w, *d, l, trunc(v, ty.bits()));
                }
            }
            Op::Fp {
                op,
                fp,
                mode,
                ftz,
                sat,
                d,
                a,
                b,
            } => {
                for l in lanes(active) {
                    let (x, y) = (self.val(w, *a, l), self.val(w, *b, l));
                    let r = match fp {
                        Fp::F32 => {
                            let r = num::fp32(
                                *op,
                                *mode,
                                *ftz,
                                f32::from_bits(x as u32),
                                f32::from_bits(y as u32),
                            );
                            (if *sat { num::sat32(r) } else { r }).to_bits() as u64
                        }
                        Fp::F64 => {
                            let r =
                                num::fp64(*op, *mode, *ftz, f64::from_bits(x), f64::from_bits(y));
                            (if *sat { num::sat64(r) } else { r }).to_bits()
                        }
                    };
                    Self::set(w, *d, l, r);
                }
            }
            Op::Fma {
                fp,
                rnd,
                ftz,
                sat,
                d,
                a,
                b,
                c,
            } => {
                for l in lanes(active) {
                    let (x, y, z) = (self.val(w, *a, l), self.val(w, *b, l), self.val(w, *c, l));
                    let r = match fp {
                        Fp::F32 => {
                            let r = num::fma32(
                                *rnd,
                                *ftz,
                                f32::from_bits(x as u32),
                                f32::from_bits(y as u32),
                                f32::from_bits(z as u32),
                            );
                            (if *sat { num::sat32(r) } else { r }).to_bits() as u64
                        }
                        Fp::F64 => {
                            let r =
                                num::fma64(f64::from_bits(x), f64::from_bits(y), f64::from_bits(z));
                            (if *sat { num::sat64(r) } else { r }).to_bits()
                        }
                    };
                    Self::set(w, *d, l, r);
                }
            }
            Op::FpUn {
                op,
                fp,
                mode,
                ftz,
                d,
                a,
            } => {
                for l in lanes(active) {
                    let x = self.val(w, *a, l);
                    let r = match fp {
                        Fp::F32 => {
                            num::un32(*op, *mode, *ftz, f32::from_bits(x as u32)).to_bits() as u64
                        }
                        Fp::F64 => num::un64(*op, *mode, *ftz, f64::from_bits(x)).to_bits(),
                    };
                    Self::set(w, *d, l, r);
                }
            }
            Op::Cvt {
                dty,
                aty,
                rnd,
                integral,
                ftz,
                sat,
                d,
                a,
            } => {
                for l in lanes(active) {
                    let x = trunc(self.val(w, *a, l), aty.bits());
                    let r = num::cvt(*dty, *aty, *rnd, *integral, *ftz, *sat, x);
                    // Signed results are kept sign-extended, as loads keep them.
                    let r = if dty.is_signed() {
                        sext(r, dty.bits()) as u64
                    } else {
                        r
                    };
                    Self::set(w, *d, l, r);
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
                    let mut buf = [0u8; 8];
                    // SAFETY: `access` gave `size` readable and writable bytes.
                    unsafe { std::ptr::copy_nonoverlapping(p, buf.as_mut_ptr(), size as usize) };
                    let old = u64::from_le_bytes(buf);
                    let x = self.val(w, *b, l);
                    let y = c.map_or(0, |c| self.val(w, c, l));
                    let new = atom_op(*op, *ty, old, x, y);
                    let bytes = new.to_le_bytes();
                    // SAFETY: as above.
                    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, size as usize) };
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

/// An integer operation on `bits`-wide operands: the result and the carry
/// (or borrow, for subtraction) out.
fn int_op(op: IntOp, ty: Ty, x: u64, y: u64, cin: u64, sat: bool) -> (u64, u64) {
    let bits = ty.bits();
    let signed = ty.is_signed();
    let (ux, uy) = (trunc(x, bits), trunc(y, bits));
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    match op {
        IntOp::Add => {
            if sat && signed {
                let r = (sx as i128 + sy as i128).clamp(i32::MIN as i128, i32::MAX as i128);
                return (r as u64, 0);
            }
            let s = ux as u128 + uy as u128 + (cin & 1) as u128;
            (s as u64, ((s >> bits) & 1) as u64)
        }
        IntOp::Sub => {
            if sat && signed {
                let r = (sx as i128 - sy as i128).clamp(i32::MIN as i128, i32::MAX as i128);
                return (r as u64, 0);
            }
            let s = (ux as u128).wrapping_sub(uy as u128 + (cin & 1) as u128);
            (s as u64, (ux < uy + (cin & 1)) as u64)
        }
        IntOp::MulLo => (ux.wrapping_mul(uy), 0),
        IntOp::MulHi | IntOp::MulWide => {
            let p: u128 = if signed {
                (sx as i128 * sy as i128) as u128
            } else {
                ux as u128 * uy as u128
            };
            if op == IntOp::MulWide {
                (p as u64, 0)
            } else {
                ((p >> bits) as u64, 0)
            }
        }
        IntOp::Div => {
            if uy == 0 {
                return (u64::MAX, 0);
            }
            (
                if signed {
                    sx.wrapping_div(sy) as u64
                } else {
                    ux / uy
                },
                0,
            )
        }
        IntOp::Rem => {
            if uy == 0 {
                return (ux, 0);
            }
            (
                if signed {
                    sx.wrapping_rem(sy) as u64
                } else {
                    ux % uy
                },
                0,
            )
        }
        IntOp::Min => (
            if signed {
                sx.min(sy) as u64
            } else {
                ux.min(uy)
            },
            0,
        ),
        IntOp::Max => (
            if signed {
                sx.max(sy) as u64
            } else {
                ux.max(uy)
            },
            0,
        ),
        IntOp::And => (ux & uy, 0),
        IntOp::Or => (ux | uy, 0),
        IntOp::Xor => (ux ^ uy, 0),
        IntOp::Shl => {
            let n = trunc(y, 32);
            (if n >= bits as u64 { 0 } else { ux << n }, 0)
        }
        IntOp::Shr => {
            let n = trunc(y, 32).min(bits as u64);
            if signed {
                (sx.wrapping_shr(n.min(63) as u32) as u64, 0)
            } else {
                (if n >= bits as u64 { 0 } else { ux >> n }, 0)
            }
        }
    }
}

/// `setp`'s comparison of two values of type `ty`.
fn compare(cmp: Cmp, ty: Ty, ftz: bool, x: u64, y: u64) -> bool {
    if ty.is_float() {
        let (mut a, mut b) = (num::float_of(ty, x), num::float_of(ty, y));
        if ftz && ty == Ty::F32 {
            a = num::ftz32(a as f32) as f64;
            b = num::ftz32(b as f32) as f64;
        }
        return num::cmp_float(cmp, a, b);
    }
    let bits = ty.bits();
    let (a, b) = if ty.is_signed() {
        (sext(x, bits) as i128, sext(y, bits) as i128)
    } else {
        (trunc(x, bits) as i128, trunc(y, bits) as i128)
    };
    match cmp {
        Cmp::Eq | Cmp::Equ => a == b,
        Cmp::Ne | Cmp::Neu => a != b,
        Cmp::Lt | Cmp::Ltu => a < b,
        Cmp::Le | Cmp::Leu => a <= b,
        Cmp::Gt | Cmp::Gtu => a > b,
        Cmp::Ge | Cmp::Geu => a >= b,
        Cmp::Num => true,
        Cmp::Nan => false,
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
