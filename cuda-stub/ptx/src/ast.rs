//! The syntax of a PTX module as written: variables, functions and kernels,
//! statements with their lines. [`crate::decode`] turns it into code.

/// A state space.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Space {
    /// Registers.
    Reg,
    /// Device memory.
    Global,
    /// Per-block memory.
    Shared,
    /// Per-thread memory.
    Local,
    /// Kernel and function parameters.
    Param,
    /// Constant memory.
    Const,
}

impl Space {
    pub(crate) fn of(word: &str) -> Option<Space> {
        Some(match word {
            ".reg" => Space::Reg,
            ".global" => Space::Global,
            ".shared" => Space::Shared,
            ".local" => Space::Local,
            ".param" => Space::Param,
            ".const" => Space::Const,
            _ => return None,
        })
    }
}

/// A declaration of registers or memory.
#[derive(Clone, Debug)]
pub(crate) struct VarDecl {
    pub(crate) space: Space,
    pub(crate) align: Option<u32>,
    /// The element type (`.b8`, `.u64`, `.pred`).
    pub(crate) ty: String,
    pub(crate) name: String,
    /// `%r<38>`: 38 registers `%r0`..`%r37`.
    pub(crate) count: Option<u32>,
    /// `[N]`: an array; `Some(None)` is `[]` (an `.extern` array of no size).
    pub(crate) array: Option<Option<u64>>,
    /// An initializer's values.
    pub(crate) init: Vec<Literal>,
    pub(crate) external: bool,
    pub(crate) line: u32,
}

impl VarDecl {
    /// Bytes of one element.
    pub(crate) fn elem_size(&self) -> u64 {
        type_size(&self.ty).unwrap_or(1) as u64
    }

    /// Bytes of the whole variable (0 for an unsized extern array).
    pub(crate) fn size(&self) -> u64 {
        let n = match self.array {
            Some(Some(n)) => n,
            Some(None) => 0,
            None => 1,
        };
        n * self.elem_size()
    }

    /// Its alignment: the declared one, else the element size.
    pub(crate) fn alignment(&self) -> u64 {
        self.align.map_or(self.elem_size(), u64::from).max(1)
    }
}

/// Bytes of a scalar type (`.u32` is 4, `.pred` 1).
pub(crate) fn type_size(ty: &str) -> Option<u32> {
    Some(match ty {
        ".b8" | ".u8" | ".s8" | ".pred" => 1,
        ".b16" | ".u16" | ".s16" | ".f16" | ".bf16" => 2,
        ".b32" | ".u32" | ".s32" | ".f32" | ".f16x2" | ".bf16x2" | ".tf32" => 4,
        ".b64" | ".u64" | ".s64" | ".f64" => 8,
        _ => return None,
    })
}

/// A literal value.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Literal {
    /// An integer's bits.
    Int(u64),
    /// An `0f` literal's bits.
    F32(u32),
    /// An `0d` or decimal float's bits.
    F64(u64),
}

/// An operand of an instruction.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Operand {
    /// A register or special register: `%r1`, `%tid.x`.
    Reg(String),
    /// A name: a variable, a label, a function.
    Name(String),
    /// A literal.
    Lit(Literal),
    /// `!%p`.
    Not(Box<Operand>),
    /// `[base+offset]`.
    Addr { base: Box<Operand>, offset: i64 },
    /// `{a, b}`: a vector of registers.
    Vector(Vec<Operand>),
    /// `(a, b)`: the argument lists of a call.
    List(Vec<Operand>),
    /// `p|q`: two destination predicates.
    Pair(Box<Operand>, Box<Operand>),
    /// `_`: no destination.
    Sink,
}

/// An instruction as written.
#[derive(Clone, Debug)]
pub(crate) struct Instruction {
    /// `@%p` (false) or `@!%p` (true).
    pub(crate) guard: Option<(String, bool)>,
    /// The opcode without modifiers: `ld`.
    pub(crate) opcode: String,
    /// The modifiers in order: `.global`, `.u64`.
    pub(crate) mods: Vec<String>,
    pub(crate) operands: Vec<Operand>,
    pub(crate) line: u32,
}

impl Instruction {
    pub(crate) fn has(&self, m: &str) -> bool {
        self.mods.iter().any(|x| x == m)
    }
}

/// A statement of a function body.
#[derive(Clone, Debug)]
pub(crate) enum Statement {
    Label(String),
    Decl(VarDecl),
    Inst(Instruction),
    /// `{`: a scope for declarations.
    Open,
    /// `}`.
    Close,
}

/// A parameter of a kernel or function (or a function's return value).
#[derive(Clone, Debug)]
pub(crate) struct ParamDecl {
    pub(crate) name: String,
    pub(crate) ty: String,
    pub(crate) align: Option<u32>,
    pub(crate) array: Option<u64>,
}

impl ParamDecl {
    pub(crate) fn size(&self) -> u64 {
        type_size(&self.ty).unwrap_or(1) as u64 * self.array.unwrap_or(1)
    }

    pub(crate) fn alignment(&self) -> u64 {
        self.align
            .map_or(type_size(&self.ty).unwrap_or(1) as u64, u64::from)
            .max(1)
    }
}

/// A `.func` or `.entry`.
#[derive(Clone, Debug)]
pub(crate) struct Function {
    pub(crate) name: String,
    pub(crate) entry: bool,
    pub(crate) returns: Vec<ParamDecl>,
    pub(crate) params: Vec<ParamDecl>,
    /// `None` for a declaration without a body.
    pub(crate) body: Option<Vec<Statement>>,
    pub(crate) line: u32,
}

/// A parsed module.
#[derive(Clone, Debug, Default)]
pub(crate) struct Module {
    pub(crate) version: (u32, u32),
    pub(crate) target: String,
    pub(crate) address_size: u32,
    pub(crate) vars: Vec<VarDecl>,
    pub(crate) functions: Vec<Function>,
}
