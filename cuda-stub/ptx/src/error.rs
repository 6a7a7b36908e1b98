//! The errors of this crate: PTX that does not parse or that uses what the
//! executor does not implement (both name the line), and faults of a
//! running kernel (naming the kernel, block, thread and line).

use std::fmt;

/// PTX text that could not be read, or an instruction the executor does not
/// implement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line of the PTX text.
    pub line: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PTX line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// What went wrong in a kernel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// A global access outside every allocation.
    OutOfBounds,
    /// An access outside the shared, local or parameter memory of the thread.
    OutOfSpace,
    /// An access whose address is not a multiple of its size.
    Misaligned,
    /// A read of shared memory that no thread of the block wrote.
    Uninitialized,
    /// Two threads touched the same byte between barriers, one of them
    /// writing (not through an atomic).
    Race,
    /// A barrier, shuffle or vote reached by part of the lanes it needs.
    Divergence,
    /// A kernel that does not finish (a step limit).
    Hang,
    /// Anything else the PTX ISA leaves undefined (a `trap`, a bad launch).
    Invalid,
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultKind::OutOfBounds => "out-of-bounds access",
            FaultKind::OutOfSpace => "access outside its state space",
            FaultKind::Misaligned => "misaligned access",
            FaultKind::Uninitialized => "read of uninitialised shared memory",
            FaultKind::Race => "data race",
            FaultKind::Divergence => "divergent synchronisation",
            FaultKind::Hang => "kernel does not finish",
            FaultKind::Invalid => "invalid operation",
        })
    }
}

/// A fault of a running kernel: where it happened and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The kind of fault.
    pub kind: FaultKind,
    /// The kernel's name.
    pub kernel: String,
    /// The block (`%ctaid`).
    pub block: [u32; 3],
    /// The thread in its block (`%tid`).
    pub thread: [u32; 3],
    /// The 1-based line of the PTX instruction.
    pub line: u32,
    /// The details: addresses, sizes, the other thread of a race.
    pub message: String,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} in kernel `{}`, block ({}, {}, {}), thread ({}, {}, {}), PTX line {}: {}",
            self.kind,
            self.kernel,
            self.block[0],
            self.block[1],
            self.block[2],
            self.thread[0],
            self.thread[1],
            self.thread[2],
            self.line,
            self.message
        )
    }
}

impl std::error::Error for Fault {}
