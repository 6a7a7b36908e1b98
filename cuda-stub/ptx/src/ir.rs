//! The decoded form of a kernel that the executor runs: instructions with
//! their operands resolved to register indices, immediates and addresses,
//! branch and call targets resolved to instruction indices.

/// A register of a kernel's register file (its index; every register holds
/// up to 64 bits per lane).
pub(crate) type Reg = u32;

/// A scalar type of an instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    BF16,
    F32,
    F64,
    Pred,
}

impl Ty {
    pub(crate) fn of(word: &str) -> Option<Ty> {
        Some(match word {
            ".b8" => Ty::B8,
            ".b16" => Ty::B16,
            ".b32" => Ty::B32,
            ".b64" => Ty::B64,
            ".u8" => Ty::U8,
            ".u16" => Ty::U16,
            ".u32" => Ty::U32,
            ".u64" => Ty::U64,
            ".s8" => Ty::S8,
            ".s16" => Ty::S16,
            ".s32" => Ty::S32,
            ".s64" => Ty::S64,
            ".f16" => Ty::F16,
            ".bf16" => Ty::BF16,
            ".f32" => Ty::F32,
            ".f64" => Ty::F64,
            ".pred" => Ty::Pred,
            _ => return None,
        })
    }

    /// Bits of the type.
    pub(crate) fn bits(self) -> u32 {
        match self {
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 | Ty::F16 | Ty::BF16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
            Ty::Pred => 1,
        }
    }

    pub(crate) fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    pub(crate) fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }

    pub(crate) fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::BF16 | Ty::F32 | Ty::F64)
    }
}

/// A special register.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Special {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    NSmId,
    GridId,
    LaneMaskEq,
    LaneMaskLt,
    LaneMaskLe,
    LaneMaskGt,
    LaneMaskGe,
    Clock,
    Clock64,
}

/// A source operand.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Src {
    Reg(Reg),
    Imm(u64),
    Special(Special),
}

/// A predicate source, maybe negated.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct PredSrc {
    pub(crate) src: Src,
    pub(crate) neg: bool,
}

/// The memory an access goes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mem {
    Global,
    Shared,
    Local,
    /// The kernel's parameters (read-only, the same for every thread).
    KernelParam,
    /// A thread's call parameters (`.param` of functions and call sites).
    CallParam,
    Generic,
}

/// An address: a register or an absolute address in its space, plus an offset.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Addr {
    pub(crate) base: Src,
    pub(crate) offset: i64,
}

/// Rounding of a float operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rnd {
    /// To nearest, ties to even (`.rn`, and the default of most ops).
    Nearest,
    /// Toward zero (`.rz`).
    Zero,
    /// Toward −∞ (`.rm`).
    Down,
    /// Toward +∞ (`.rp`).
    Up,
    /// To nearest, ties away from zero (`.rna`).
    NearestAway,
}

/// A float format of an operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fp {
    F32,
    F64,
}

/// Integer operations of two sources.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum IntOp {
    Add,
    Sub,
    MulLo,
    MulHi,
    MulWide,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

/// Integer operations of one source.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum IntUnOp {
    Neg,
    Abs,
    Not,
    Cnot,
    Clz,
    Popc,
    Brev,
}

/// Float operations of two sources.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum FpOp {
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
    Copysign,
}

/// Float operations of one source.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum FpUnOp {
    Neg,
    Abs,
    Sqrt,
    Rcp,
    Rsqrt,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Tanh,
}

/// How an operation computes: exactly rounded as `rnd`, or an `.approx`
/// form (computed exactly here, which is within every documented bound).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Round(Rnd),
    Approx,
}

/// A comparison of `setp`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// A boolean combination.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum BoolOp {
    And,
    Or,
    Xor,
}

/// The mode of a shuffle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// The mode of a vote.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

/// An atomic operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum AtomOp {
    And,
    Or,
    Xor,
    Exch,
    Cas,
    Add,
    Inc,
    Dec,
    Min,
    Max,
}

/// A copy of call parameters: `size` bytes from `from` to `to` in the
/// thread's call-parameter memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParamCopy {
    pub(crate) from: u32,
    pub(crate) to: u32,
    pub(crate) size: u32,
}

/// A decoded operation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Op {
    /// `d = a` (the low `bits` bits).
    Mov {
        d: Reg,
        a: Src,
        bits: u32,
    },
    /// `d = {parts}`: parts of `bits` bits each, the first the lowest.
    Pack {
        d: Reg,
        parts: Vec<Src>,
        bits: u32,
    },
    /// `{ds} = a`.
    Unpack {
        ds: Vec<Option<Reg>>,
        a: Src,
        bits: u32,
    },
    Ld {
        mem: Mem,
        ty: Ty,
        d: Vec<Option<Reg>>,
        addr: Addr,
    },
    St {
        mem: Mem,
        ty: Ty,
        s: Vec<Src>,
        addr: Addr,
    },
    /// A generic address from (`to_generic`) or to a space's address.
    Cvta {
        to_generic: bool,
        mem: Mem,
        d: Reg,
        a: Src,
        bits: u32,
    },
    Int {
        op: IntOp,
        ty: Ty,
        d: Reg,
        a: Src,
        b: Src,
        /// `.cc`: write the carry (add, sub).
        cc_out: bool,
        /// `addc`/`subc`: add the carry in.
        cc_in: bool,
        /// `.sat` (s32 add and sub).
        sat: bool,
    },
    /// `d = a * b + c` (`lo`, `hi` or `wide` product).
    Mad {
        product: IntOp,
        ty: Ty,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
        cc_out: bool,
        cc_in: bool,
    },
    IntUn {
        op: IntUnOp,
        ty: Ty,
        d: Reg,
        a: Src,
    },
    /// Bit-field insert: `d = b` with `a` in `len` bits from `pos`.
    Bfi {
        ty: Ty,
        d: Reg,
        a: Src,
        b: Src,
        pos: Src,
        len: Src,
    },
    /// Bit-field extract.
    Bfe {
        ty: Ty,
        d: Reg,
        a: Src,
        pos: Src,
        len: Src,
    },
    /// `and`, `or`, `xor` of predicates.
    PredLogic {
        op: BoolOp,
        d: Reg,
        a: PredSrc,
        b: PredSrc,
    },
    PredNot {
        d: Reg,
        a: PredSrc,
    },
    Setp {
        cmp: Cmp,
        ty: Ty,
        ftz: bool,
        p: Option<Reg>,
        q: Option<Reg>,
        a: Src,
        b: Src,
        combine: Option<(BoolOp, PredSrc)>,
    },
    Selp {
        ty: Ty,
        d: Reg,
        a: Src,
        b: Src,
        c: PredSrc,
    },
    Fp {
        op: FpOp,
        fp: Fp,
        mode: Mode,
        ftz: bool,
        sat: bool,
        d: Reg,
        a: Src,
        b: Src,
    },
    Fma {
        fp: Fp,
        rnd: Rnd,
        ftz: bool,
        sat: bool,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    FpUn {
        op: FpUnOp,
        fp: Fp,
        mode: Mode,
        ftz: bool,
        d: Reg,
        a: Src,
    },
    Cvt {
        dty: Ty,
        aty: Ty,
        rnd: Option<Rnd>,
        /// `.rni` and the like: round a float to an integral value.
        integral: bool,
        ftz: bool,
        sat: bool,
        d: Reg,
        a: Src,
    },
    Bra {
        target: u32,
    },
    Call {
        target: u32,
        ins: Vec<ParamCopy>,
        outs: Vec<ParamCopy>,
    },
    Ret,
    Exit,
    Trap,
    /// `bar.sync` of the whole block.
    Bar,
    /// `bar.warp.sync mask`.
    BarWarp {
        mask: Src,
    },
    Shfl {
        mode: ShflMode,
        d: Option<Reg>,
        p: Option<Reg>,
        a: Src,
        b: Src,
        c: Src,
        mask: Src,
    },
    Vote {
        mode: VoteMode,
        d: Reg,
        a: PredSrc,
        mask: Src,
    },
    Atom {
        mem: Mem,
        op: AtomOp,
        ty: Ty,
        d: Option<Reg>,
        addr: Addr,
        b: Src,
        c: Option<Src>,
    },
    /// A memory fence, prefetch or hint: nothing to do here.
    Nop,
}

/// A decoded instruction.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Inst {
    pub(crate) op: Op,
    /// Executed only where the predicate holds (`@%p`, or `@!%p` negated).
    pub(crate) guard: Option<PredSrc>,
    /// The PTX line.
    pub(crate) line: u32,
}
