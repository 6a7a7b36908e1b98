//! A kernel's code from the module's syntax: the kernel and every function
//! it calls laid out in one instruction list (the kernel first), registers
//! numbered across them, labels and calls resolved to instruction indices,
//! and the memory each thread and block needs laid out (local frames, call
//! parameters, the static shared variables the kernel uses).

use std::collections::HashMap;

use crate::ast::{self, Literal, Operand, Space, Statement};
use crate::error::ParseError;
use crate::ir::*;

/// A parameter of a kernel: where it lies in the parameter buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name in the PTX.
    pub name: String,
    /// Its type as written (`.u64`, `.b8` for a by-value struct).
    pub ty: String,
    /// Bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
    /// Offset in the parameter buffer.
    pub offset: u32,
    /// Elements when it is an array (`.b8 p[144]`), else `None`.
    pub array: Option<u32>,
}

/// A kernel ready to run.
#[derive(Debug)]
pub struct Kernel {
    pub(crate) name: String,
    pub(crate) code: Vec<Inst>,
    pub(crate) nregs: u32,
    /// The register holding each lane's carry flag.
    pub(crate) cc: Reg,
    pub(crate) params: Vec<Param>,
    pub(crate) param_size: u32,
    pub(crate) static_shared: u32,
    /// Where dynamic (`.extern .shared`) memory starts.
    pub(crate) dynamic_shared_at: u32,
    pub(crate) local_size: u32,
    pub(crate) call_param_size: u32,
}

impl Kernel {
    /// The kernel's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its parameters in order.
    pub fn params(&self) -> &[Param] {
        &self.params
    }

    /// Bytes of its parameter buffer.
    pub fn param_size(&self) -> u32 {
        self.param_size
    }

    /// Bytes of static shared memory it uses (with the functions it calls).
    pub fn static_shared(&self) -> u32 {
        self.static_shared
    }

    /// Bytes of local memory per thread.
    pub fn local_size(&self) -> u32 {
        self.local_size
    }

    /// Instructions (of the kernel and the functions it calls).
    pub fn instructions(&self) -> usize {
        self.code.len()
    }
}

/// What a name stands for inside a function.
#[derive(Copy, Clone, Debug)]
enum Binding {
    /// `count` registers from `base` (`%r<38>`), or one.
    Regs { base: Reg, count: u32, prefix: bool },
    /// A `.param` of a call site or of the function: an offset in the
    /// thread's call parameters.
    CallParam { offset: u32, size: u32 },
    /// A kernel parameter.
    KernelParam { offset: u32 },
    /// A `.local` variable: an offset in the thread's local memory.
    Local { offset: u32 },
    /// A `.shared` variable: an offset in the block's shared memory.
    Shared { offset: u32 },
}

/// The layout of a function called by the kernel.
struct Callee {
    index: usize,
    params: Vec<(u32, u32)>,
    returns: Vec<(u32, u32)>,
}

struct Decoder<'m> {
    module: &'m ast::Module,
    globals: &'m [u64],
    nregs: u32,
    shared: HashMap<String, u32>,
    /// Shared variables declared inside functions, by (function, name).
    fn_shared: HashMap<(usize, String), u32>,
    shared_end: u32,
    /// Where dynamic shared memory starts (after every static variable).
    dynamic_at: u32,
    current: usize,
    local_end: u32,
    call_end: u32,
    callees: HashMap<String, Callee>,
    code: Vec<Inst>,
    /// Call instructions whose target is not placed yet.
    calls: Vec<(usize, String)>,
    starts: HashMap<String, u32>,
    kernel_params: HashMap<String, u32>,
}

type Result<T> = std::result::Result<T, ParseError>;

fn err<T>(line: u32, message: impl Into<String>) -> Result<T> {
    Err(ParseError {
        line,
        message: message.into(),
    })
}

fn align_up(v: u32, a: u32) -> u32 {
    v.div_ceil(a.max(1)) * a.max(1)
}

/// Decodes kernel `entry` of `module`; `globals[k]` is the device address of
/// module variable `k` when it is `.global` or `.const`.
pub(crate) fn kernel(module: &ast::Module, globals: &[u64], entry: usize) -> Result<Kernel> {
    let f = &module.functions[entry];
    let mut d = Decoder {
        module,
        globals,
        nregs: 0,
        shared: HashMap::new(),
        fn_shared: HashMap::new(),
        shared_end: 0,
        dynamic_at: 0,
        current: entry,
        local_end: 0,
        call_end: 0,
        callees: HashMap::new(),
        code: vec![],
        calls: vec![],
        starts: HashMap::new(),
        kernel_params: HashMap::new(),
    };
    // Kernel parameters, each at its alignment.
    let mut params = vec![];
    let mut at = 0u32;
    for p in &f.params {
        let (size, align) = (p.size() as u32, p.alignment() as u32);
        at = align_up(at, align);
        d.kernel_params.insert(p.name.clone(), at);
        params.push(Param {
            name: p.name.clone(),
            ty: p.ty.clone(),
            size,
            align,
            offset: at,
            array: p.array.map(|n| n as u32),
        });
        at += size;
    }
    let param_size = at;
    // Every function it calls, with its parameters laid out.
    let mut order = vec![];
    let mut queue = vec![entry];
    while let Some(k) = queue.pop() {
        for name in called(&module.functions[k]) {
            if d.callees.contains_key(&name) {
                continue;
            }
            let index = module
                .functions
                .iter()
                .position(|g| g.name == name && g.body.is_some())
                .ok_or_else(|| ParseError {
                    line: module.functions[k].line,
                    message: format!("call of `{name}`, which has no body here"),
                })?;
            let g = &module.functions[index];
            let mut lay = |ps: &[ast::ParamDecl]| {
                ps.iter()
                    .map(|p| {
                        let (size, align) = (p.size() as u32, p.alignment() as u32);
                        d.call_end = align_up(d.call_end, align);
                        let o = d.call_end;
                        d.call_end += size;
                        (o, size)
                    })
                    .collect::<Vec<_>>()
            };
            let params = lay(&g.params);
            let returns = lay(&g.returns);
            d.callees.insert(
                name.clone(),
                Callee {
                    index,
                    params,
                    returns,
                },
            );
            order.push(name);
            queue.push(index);
        }
    }
    let mut reachable = vec![entry];
    reachable.extend(order.iter().map(|n| d.callees[n].index));
    d.layout_shared(&reachable);
    d.function(entry)?;
    d.code.push(Inst {
        op: Op::Exit,
        guard: None,
        line: f.line,
    });
    for name in &order {
        let index = d.callees[name].index;
        d.starts.insert(name.clone(), d.code.len() as u32);
        d.function(index)?;
        d.code.push(Inst {
            op: Op::Ret,
            guard: None,
            line: module.functions[index].line,
        });
    }
    for (at, name) in std::mem::take(&mut d.calls) {
        let start = d.starts[&name];
        if let Op::Call { target, .. } = &mut d.code[at].op {
            *target = start;
        }
    }
    let cc = d.nregs;
    let static_shared = d.shared_end;
    let dynamic_shared_at = d.dynamic_at;
    Ok(Kernel {
        name: f.name.clone(),
        code: d.code,
        nregs: cc + 1,
        cc,
        params,
        param_size,
        static_shared,
        dynamic_shared_at,
        local_size: d.local_end,
        call_param_size: d.call_end,
    })
}

/// The functions `f` calls.
fn called(f: &ast::Function) -> Vec<String> {
    let mut out = vec![];
    for s in f.body.iter().flatten() {
        if let Statement::Inst(i) = s
            && i.opcode == "call"
        {
            for o in &i.operands {
                if let Operand::Name(n) = o
                    && !out.contains(n)
                {
                    out.push(n.clone());
                }
            }
        }
    }
    out
}

/// A register name split into its prefix and number: `%rd12` → (`%rd`, 12).
fn split_reg(name: &str) -> Option<(&str, u32)> {
    let digits = name.len() - name.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == name.len() || digits == 0 {
        return None;
    }
    Some((&name[..digits], name[digits..].parse().ok()?))
}

fn special(name: &str) -> Option<Special> {
    let comp = |c: &str| match c {
        "x" => Some(0u8),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some((base, c)) = name.split_once('.') {
        let c = comp(c)?;
        return Some(match base {
            "%tid" => Special::Tid(c),
            "%ntid" => Special::Ntid(c),
            "%ctaid" => Special::Ctaid(c),
            "%nctaid" => Special::Nctaid(c),
            _ => return None,
        });
    }
    Some(match name {
        "%laneid" => Special::LaneId,
        "%warpid" => Special::WarpId,
        "%nwarpid" => Special::NWarpId,
        "%smid" => Special::SmId,
        "%nsmid" => Special::NSmId,
        "%gridid" => Special::GridId,
        "%lanemask_eq" => Special::LaneMaskEq,
        "%lanemask_lt" => Special::LaneMaskLt,
        "%lanemask_le" => Special::LaneMaskLe,
        "%lanemask_gt" => Special::LaneMaskGt,
        "%lanemask_ge" => Special::LaneMaskGe,
        "%clock" => Special::Clock,
        "%clock64" => Special::Clock64,
        _ => return None,
    })
}

/// The bits of a literal as an operand of type `ty`.
fn literal_bits(lit: Literal, ty: Option<Ty>) -> u64 {
    match (lit, ty) {
        (Literal::Int(v), Some(Ty::F32)) => (v as i64 as f32).to_bits() as u64,
        (Literal::Int(v), Some(Ty::F64)) => (v as i64 as f64).to_bits(),
        (Literal::Int(v), _) => v,
        (Literal::F32(v), Some(Ty::F64)) => (f32::from_bits(v) as f64).to_bits(),
        (Literal::F32(v), _) => v as u64,
        (Literal::F64(v), Some(Ty::F32)) => (f64::from_bits(v) as f32).to_bits() as u64,
        (Literal::F64(v), _) => v,
    }
}

/// The state space named among an instruction's modifiers.
fn mem_of(i: &ast::Instruction) -> Mem {
    for m in &i.mods {
        match m.as_str() {
            ".global" => return Mem::Global,
            ".shared" => return Mem::Shared,
            ".local" => return Mem::Local,
            ".param" => return Mem::KernelParam,
            ".const" => return Mem::Global,
            _ => {}
        }
    }
    Mem::Generic
}

fn rnd_of(i: &ast::Instruction) -> Option<Rnd> {
    i.mods.iter().find_map(|m| {
        Some(match m.as_str() {
            ".rn" | ".rni" => Rnd::Nearest,
            ".rz" | ".rzi" => Rnd::Zero,
            ".rm" | ".rmi" => Rnd::Down,
            ".rp" | ".rpi" => Rnd::Up,
            ".rna" => Rnd::NearestAway,
            _ => return None,
        })
    })
}

impl<'m> Decoder<'m> {
    fn regs(&mut self, n: u32) -> Reg {
        let base = self.nregs;
        self.nregs += n;
        base
    }

    fn function(&mut self, index: usize) -> Result<()> {
        self.current = index;
        let f = &self.module.functions[index];
        let body = f.body.as_ref().expect("callees have bodies");
        let mut scopes: Vec<HashMap<String, Binding>> = vec![HashMap::new()];
        if !f.entry {
            let callee = &self.callees[&f.name];
            for (p, &(offset, size)) in f.params.iter().zip(&callee.params) {
                scopes[0].insert(p.name.clone(), Binding::CallParam { offset, size });
            }
            for (p, &(offset, size)) in f.returns.iter().zip(&callee.returns) {
                scopes[0].insert(p.name.clone(), Binding::CallParam { offset, size });
            }
        } else {
            for (name, &offset) in &self.kernel_params {
                scopes[0].insert(name.clone(), Binding::KernelParam { offset });
            }
        }
        let mut labels: HashMap<&str, u32> = HashMap::new();
        let mut branches: Vec<(usize, &str, u32)> = vec![];
        for s in body {
            match s {
                Statement::Open => scopes.push(HashMap::new()),
                Statement::Close => {
                    scopes.pop();
                }
                Statement::Label(l) => {
                    labels.insert(l, self.code.len() as u32);
                }
                Statement::Decl(v) => self.declare(v, scopes.last_mut().expect("a scope"))?,
                Statement::Inst(i) => {
                    let cx = Cx {
                        scopes: &scopes,
                        entry: f.entry,
                    };
                    if i.opcode == "bra" {
                        let Some(Operand::Name(l)) = i.operands.first() else {
                            return err(i.line, "bra without a label");
                        };
                        branches.push((self.code.len(), l, i.line));
                    }
                    let op = self.instruction(&cx, i)?;
                    let guard = match &i.guard {
                        Some((p, neg)) => Some(PredSrc {
                            src: cx.reg_src(p, i.line)?,
                            neg: *neg,
                        }),
                        None => None,
                    };
                    self.code.push(Inst {
                        op,
                        guard,
                        line: i.line,
                    });
                }
            }
        }
        for (at, label, line) in branches {
            let Some(&target) = labels.get(label) else {
                return err(line, format!("no label `{label}`"));
            };
            self.code[at].op = Op::Bra { target };
        }
        Ok(())
    }

    fn declare(&mut self, v: &ast::VarDecl, scope: &mut HashMap<String, Binding>) -> Result<()> {
        match v.space {
            Space::Reg => {
                let count = v.count.unwrap_or(1);
                let base = self.regs(count);
                scope.insert(
                    v.name.clone(),
                    Binding::Regs {
                        base,
                        count,
                        prefix: v.count.is_some(),
                    },
                );
            }
            Space::Param => {
                let size = v.size() as u32;
                self.call_end = align_up(self.call_end, v.alignment() as u32);
                let offset = self.call_end;
                self.call_end += size;
                scope.insert(v.name.clone(), Binding::CallParam { offset, size });
            }
            Space::Local => {
                self.local_end = align_up(self.local_end, v.alignment() as u32);
                let offset = self.local_end;
                self.local_end += v.size() as u32;
                scope.insert(v.name.clone(), Binding::Local { offset });
            }
            Space::Shared => {
                let offset = match self.fn_shared.get(&(self.current, v.name.clone())) {
                    Some(&o) => o,
                    None => self.dynamic_at,
                };
                scope.insert(v.name.clone(), Binding::Shared { offset });
            }
            _ => {
                return err(
                    v.line,
                    format!("a {:?} variable inside a function", v.space),
                );
            }
        }
        Ok(())
    }

    /// Places the static shared variables the kernel uses: those of the
    /// module its functions name, then those declared inside them; dynamic
    /// shared memory starts after them, 16-byte aligned.
    fn layout_shared(&mut self, functions: &[usize]) {
        let module = self.module;
        let mut names = vec![];
        for &k in functions {
            for s in module.functions[k].body.iter().flatten() {
                if let Statement::Inst(i) = s {
                    i.operands.iter().for_each(|o| names_in(o, &mut names));
                }
            }
        }
        for v in &module.vars {
            if v.space == Space::Shared
                && !v.external
                && v.array != Some(None)
                && names.contains(&&*v.name)
            {
                let o = self.place(v);
                self.shared.insert(v.name.clone(), o);
            }
        }
        for &k in functions {
            for s in module.functions[k].body.iter().flatten() {
                if let Statement::Decl(v) = s
                    && v.space == Space::Shared
                    && !v.external
                {
                    let o = self.place(v);
                    self.fn_shared.insert((k, v.name.clone()), o);
                }
            }
        }
        self.dynamic_at = align_up(self.shared_end, 16);
    }

    fn place(&mut self, v: &ast::VarDecl) -> u32 {
        self.shared_end = align_up(self.shared_end, v.alignment() as u32);
        let o = self.shared_end;
        self.shared_end += v.size() as u32;
        o
    }

    /// What `name` means at module level (a variable), if anything.
    fn module_symbol(&mut self, name: &str) -> Option<Binding> {
        if let Some(&o) = self.shared.get(name) {
            return Some(Binding::Shared { offset: o });
        }
        let (k, v) = self
            .module
            .vars
            .iter()
            .enumerate()
            .find(|(_, v)| v.name == name)?;
        match v.space {
            // Extern (dynamic) arrays: the static ones were placed up front.
            Space::Shared => Some(Binding::Shared {
                offset: self.dynamic_at,
            }),
            Space::Global | Space::Const => Some(Binding::Regs {
                base: u32::MAX,
                count: k as u32,
                prefix: false,
            }),
            _ => None,
        }
    }
}

/// Collects the names an operand mentions.
fn names_in<'a>(o: &'a Operand, out: &mut Vec<&'a str>) {
    match o {
        Operand::Name(n) => out.push(n),
        Operand::Addr { base, .. } | Operand::Not(base) => names_in(base, out),
        Operand::Vector(v) | Operand::List(v) => v.iter().for_each(|o| names_in(o, out)),
        Operand::Pair(a, b) => {
            names_in(a, out);
            names_in(b, out);
        }
        _ => {}
    }
}

/// Name resolution inside one function.
struct Cx<'a> {
    scopes: &'a [HashMap<String, Binding>],
    entry: bool,
}

impl Cx<'_> {
    fn lookup(&self, name: &str) -> Option<Binding> {
        for s in self.scopes.iter().rev() {
            if let Some(b) = s.get(name) {
                return Some(*b);
            }
        }
        let (prefix, n) = split_reg(name)?;
        for s in self.scopes.iter().rev() {
            if let Some(Binding::Regs {
                base,
                count,
                prefix: true,
            }) = s.get(prefix)
                && n < *count
            {
                return Some(Binding::Regs {
                    base: base + n,
                    count: 1,
                    prefix: false,
                });
            }
        }
        None
    }

    fn reg(&self, name: &str, line: u32) -> Result<Reg> {
        match self.lookup(name) {
            Some(Binding::Regs {
                base,
                prefix: false,
                ..
            }) if base != u32::MAX => Ok(base),
            _ => err(line, format!("`{name}` is not a declared register")),
        }
    }

    fn reg_src(&self, name: &str, line: u32) -> Result<Src> {
        if let Some(s) = special(name) {
            return Ok(Src::Special(s));
        }
        Ok(Src::Reg(self.reg(name, line)?))
    }
}

impl Decoder<'_> {
    /// The address a name stands for, in its space.
    fn symbol(&mut self, cx: &Cx<'_>, name: &str, line: u32) -> Result<(Mem, u64)> {
        let b = match cx.lookup(name) {
            Some(b) => b,
            None => match self.module_symbol(name) {
                Some(b) => b,
                None => return err(line, format!("unknown name `{name}`")),
            },
        };
        Ok(match b {
            Binding::CallParam { offset, .. } => (Mem::CallParam, offset as u64),
            Binding::KernelParam { offset } => (Mem::KernelParam, offset as u64),
            Binding::Local { offset } => (Mem::Local, offset as u64),
            Binding::Shared { offset } => (Mem::Shared, offset as u64),
            Binding::Regs {
                base: u32::MAX,
                count,
                ..
            } => (Mem::Global, self.globals[count as usize]),
            Binding::Regs { .. } => return err(line, format!("`{name}` is a register")),
        })
    }

    fn dst(&self, cx: &Cx<'_>, o: &Operand, line: u32) -> Result<Reg> {
        match o {
            Operand::Reg(r) => cx.reg(r, line),
            _ => err(
                line,
                format!("expected a destination register, found {o:?}"),
            ),
        }
    }

    fn dst_opt(&self, cx: &Cx<'_>, o: &Operand, line: u32) -> Result<Option<Reg>> {
        match o {
            Operand::Sink => Ok(None),
            _ => Ok(Some(self.dst(cx, o, line)?)),
        }
    }

    fn src(&mut self, cx: &Cx<'_>, o: &Operand, ty: Option<Ty>, line: u32) -> Result<Src> {
        match o {
            Operand::Reg(r) => cx.reg_src(r, line),
            Operand::Lit(l) => Ok(Src::Imm(literal_bits(*l, ty))),
            Operand::Name(n) => {
                let (_, a) = self.symbol(cx, n, line)?;
                Ok(Src::Imm(a))
            }
            _ => err(line, format!("expected a source operand, found {o:?}")),
        }
    }

    fn pred(&mut self, cx: &Cx<'_>, o: &Operand, line: u32) -> Result<PredSrc> {
        match o {
            Operand::Not(inner) => Ok(PredSrc {
                src: self.src(cx, inner, None, line)?,
                neg: true,
            }),
            _ => Ok(PredSrc {
                src: self.src(cx, o, None, line)?,
                neg: false,
            }),
        }
    }

    /// An address operand, and the space a symbol base puts it in.
    fn addr(&mut self, cx: &Cx<'_>, o: &Operand, line: u32) -> Result<(Option<Mem>, Addr)> {
        let Operand::Addr { base, offset } = o else {
            return err(line, format!("expected an address, found {o:?}"));
        };
        Ok(match &**base {
            Operand::Reg(r) => (
                None,
                Addr {
                    base: cx.reg_src(r, line)?,
                    offset: *offset,
                },
            ),
            Operand::Name(n) => {
                let (mem, a) = self.symbol(cx, n, line)?;
                (
                    Some(mem),
                    Addr {
                        base: Src::Imm(a),
                        offset: *offset,
                    },
                )
            }
            Operand::Lit(Literal::Int(v)) => (
                None,
                Addr {
                    base: Src::Imm(*v),
                    offset: *offset,
                },
            ),
            b => return err(line, format!("bad address base {b:?}")),
        })
    }

    /// The space of a memory instruction: a `.param` access goes to the
    /// kernel's parameters or to call parameters by its symbol.
    fn access(&mut self, cx: &Cx<'_>, i: &ast::Instruction, o: &Operand) -> Result<(Mem, Addr)> {
        let named = mem_of(i);
        let (sym, addr) = self.addr(cx, o, i.line)?;
        let mem = match (named, sym) {
            (Mem::KernelParam, Some(m @ (Mem::KernelParam | Mem::CallParam))) => m,
            (Mem::KernelParam, None) if cx.entry => Mem::KernelParam,
            (Mem::KernelParam, _) => {
                return err(
                    i.line,
                    "a parameter access through a register in a function",
                );
            }
            (m, _) => m,
        };
        Ok((mem, addr))
    }

    fn tys(i: &ast::Instruction) -> Vec<Ty> {
        i.mods.iter().filter_map(|m| Ty::of(m)).collect()
    }

    fn ty(i: &ast::Instruction) -> Result<Ty> {
        match Self::tys(i).last() {
            Some(&t) => Ok(t),
            None => err(i.line, format!("`{}` without a type", i.opcode)),
        }
    }

    fn operands<const N: usize>(i: &ast::Instruction) -> Result<&[Operand; N]> {
        i.operands.as_slice().try_into().or_else(|_| {
            err(
                i.line,
                format!(
                    "`{}` takes {N} operands, found {}",
                    i.opcode,
                    i.operands.len()
                ),
            )
        })
    }

    fn instruction(&mut self, cx: &Cx<'_>, i: &ast::Instruction) -> Result<Op> {
        let line = i.line;
        let unsupported = || {
            err(
                line,
                format!("unsupported instruction `{}{}`", i.opcode, i.mods.concat()),
            )
        };
        Ok(match i.opcode.as_str() {
            "mov" => {
                let ty = Self::ty(i)?;
                let [d, a] = Self::operands::<2>(i)?;
                match (d, a) {
                    (Operand::Vector(ds), _) => {
                        let bits = ty.bits() / ds.len() as u32;
                        let ds = ds
                            .iter()
                            .map(|o| self.dst_opt(cx, o, line))
                            .collect::<Result<_>>()?;
                        Op::Unpack {
                            ds,
                            a: self.src(cx, a, Some(ty), line)?,
                            bits,
                        }
                    }
                    (_, Operand::Vector(parts)) => {
                        let bits = ty.bits() / parts.len() as u32;
                        let parts = parts
                            .iter()
                            .map(|o| self.src(cx, o, None, line))
                            .collect::<Result<_>>()?;
                        Op::Pack {
                            d: self.dst(cx, d, line)?,
                            parts,
                            bits,
                        }
                    }
                    _ => Op::Mov {
                        d: self.dst(cx, d, line)?,
                        a: self.src(cx, a, Some(ty), line)?,
                        bits: if ty == Ty::Pred { 1 } else { ty.bits() },
                    },
                }
            }
            "ld" | "ldu" => {
                let ty = Self::ty(i)?;
                let [d, a] = Self::operands::<2>(i)?;
                let (mem, addr) = self.access(cx, i, a)?;
                let d = match d {
                    Operand::Vector(v) => v
                        .iter()
                        .map(|o| self.dst_opt(cx, o, line))
                        .collect::<Result<_>>()?,
                    o => vec![Some(self.dst(cx, o, line)?)],
                };
                Op::Ld { mem, ty, d, addr }
            }
            "st" => {
                let ty = Self::ty(i)?;
                let [a, s] = Self::operands::<2>(i)?;
                let (mem, addr) = self.access(cx, i, a)?;
                let s = match s {
                    Operand::Vector(v) => v
                        .iter()
                        .map(|o| self.src(cx, o, Some(ty), line))
                        .collect::<Result<_>>()?,
                    o => vec![self.src(cx, o, Some(ty), line)?],
                };
                Op::St { mem, ty, s, addr }
            }
            "cvta" => {
                let ty = Self::ty(i)?;
                let [d, a] = Self::operands::<2>(i)?;
                let to_generic = !i.has(".to");
                let mem = mem_of(i);
                Op::Cvta {
                    to_generic,
                    mem,
                    d: self.dst(cx, d, line)?,
                    a: self.src(cx, a, Some(ty), line)?,
                    bits: ty.bits(),
                }
            }
            "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor"
            | "shl" | "shr" | "addc" | "subc" | "copysign" => self.binary(cx, i)?,
            "mad" | "madc" | "fma" => self.ternary(cx, i)?,
            "neg" | "abs" | "not" | "cnot" | "clz" | "popc" | "brev" | "sqrt" | "rcp" | "rsqrt"
            | "ex2" | "lg2" | "sin" | "cos" | "tanh" => self.unary(cx, i)?,
            "bfi" => {
                let ty = Self::ty(i)?;
                let [d, a, b, c, e] = Self::operands::<5>(i)?;
                Op::Bfi {
                    ty,
                    d: self.dst(cx, d, line)?,
                    a: self.src(cx, a, Some(ty), line)?,
                    b: self.src(cx, b, Some(ty), line)?,
                    pos: self.src(cx, c, Some(Ty::U32), line)?,
                    len: self.src(cx, e, Some(Ty::U32), line)?,
                }
            }
            "bfe" => {
                let ty = Self::ty(i)?;
                let [d, a, b, c] = Self::operands::<4>(i)?;
                Op::Bfe {
                    ty,
                    d: self.dst(cx, d, line)?,
                    a: self.src(cx, a, Some(ty), line)?,
                    pos: self.src(cx, b, Some(Ty::U32), line)?,
                    len: self.src(cx, c, Some(Ty::U32), line)?,
                }
            }
            "setp" => self.setp(cx, i)?,
            "selp" => {
                let ty = Self::ty(i)?;
                let [d, a, b, c] = Self::operands::<4>(i)?;
                Op::Selp {
                    ty,
                    d: self.dst(cx, d, line)?,
                    a: self.src(cx, a, Some(ty), line)?,
                    b: self.src(cx, b, Some(ty), line)?,
                    c: self.pred(cx, c, line)?,
                }
            }
            "cvt" => {
                let tys = Self::tys(i);
                let [dty, aty] = tys[..] else {
                    return err(line, "cvt needs a destination and a source type");
                };
                let [d, a] = Self::operands::<2>(i)?;
                let integral = i
                    .mods
                    .iter()
                    .any(|m| matches!(m.as_str(), ".rni" | ".rzi" | ".rmi" | ".rpi"));
                if i.has(".relu") || i.has(".satfinite") {
                    return unsupported();
                }
                Op::Cvt {
                    dty,
                    aty,
                    rnd: rnd_of(i),
                    integral,
                    ftz: i.has(".ftz"),
                    sat: i.has(".sat"),
                    d: self.dst(cx, d, line)?,
                    a: self.src(cx, a, Some(aty), line)?,
                }
            }
            "bra" => Op::Bra { target: u32::MAX },
            "call" => self.call(cx, i)?,
            "ret" => Op::Ret,
            "exit" => Op::Exit,
            "trap" => Op::Trap,
            "bar" | "barrier" => {
                if i.has(".warp") {
                    let [m] = Self::operands::<1>(i)?;
                    Op::BarWarp {
                        mask: self.src(cx, m, Some(Ty::U32), line)?,
                    }
                } else if (i.has(".sync") || i.mods.is_empty() || i.has(".cta"))
                    && i.operands.len() == 1
                    && !i.has(".arrive")
                    && !i.has(".red")
                {
                    Op::Bar
                } else {
                    return unsupported();
                }
            }
            "shfl" => {
                if !i.has(".sync") {
                    return err(line, "shfl without .sync (removed since sm_70)");
                }
                let mode = if i.has(".up") {
                    ShflMode::Up
                } else if i.has(".down") {
                    ShflMode::Down
                } else if i.has(".bfly") {
                    ShflMode::Bfly
                } else if i.has(".idx") {
                    ShflMode::Idx
                } else {
                    return unsupported();
                };
                let [d, a, b, c, m] = Self::operands::<5>(i)?;
                let (d, p) = match d {
                    Operand::Pair(d, p) => (self.dst_opt(cx, d, line)?, self.dst_opt(cx, p, line)?),
                    o => (self.dst_opt(cx, o, line)?, None),
                };
                Op::Shfl {
                    mode,
                    d,
                    p,
                    a: self.src(cx, a, Some(Ty::B32), line)?,
                    b: self.src(cx, b, Some(Ty::U32), line)?,
                    c: self.src(cx, c, Some(Ty::U32), line)?,
                    mask: self.src(cx, m, Some(Ty::U32), line)?,
                }
            }
            "vote" => {
                if !i.has(".sync") {
                    return err(line, "vote without .sync (removed since sm_70)");
                }
                let mode = if i.has(".all") {
                    VoteMode::All
                } else if i.has(".any") {
                    VoteMode::Any
                } else if i.has(".uni") {
                    VoteMode::Uni
                } else if i.has(".ballot") {
                    VoteMode::Ballot
                } else {
                    return unsupported();
                };
                let [d, a, m] = Self::operands::<3>(i)?;
                Op::Vote {
                    mode,
                    d: self.dst(cx, d, line)?,
                    a: self.pred(cx, a, line)?,
                    mask: self.src(cx, m, Some(Ty::U32), line)?,
                }
            }
            "atom" | "red" => self.atom(cx, i)?,
            "membar" | "fence" | "prefetch" | "prefetchu" => Op::Nop,
            _ => return unsupported(),
        })
    }

    fn binary(&mut self, cx: &Cx<'_>, i: &ast::Instruction) -> Result<Op> {
        let line = i.line;
        let ty = Self::ty(i)?;
        let [d, a, b] = Self::operands::<3>(i)?;
        if ty == Ty::Pred {
            let op = match i.opcode.as_str() {
                "and" => BoolOp::And,
                "or" => BoolOp::Or,
                "xor" => BoolOp::Xor,
                _ => return err(line, format!("`{}` of predicates", i.opcode)),
            };
            return Ok(Op::PredLogic {
                op,
                d: self.dst(cx, d, line)?,
                a: self.pred(cx, a, line)?,
                b: self.pred(cx, b, line)?,
            });
        }
        let d = self.dst(cx, d, line)?;
        if ty.is_float() {
            let fp = match ty {
                Ty::F32 => Fp::F32,
                Ty::F64 => Fp::F64,
                _ => return err(line, format!("`{}` of {ty:?}", i.opcode)),
            };
            let op = match i.opcode.as_str() {
                "add" => FpOp::Add,
                "sub" => FpOp::Sub,
                "mul" => FpOp::Mul,
                "div" => FpOp::Div,
                "min" => FpOp::Min,
                "max" => FpOp::Max,
                "copysign" => FpOp::Copysign,
                _ => return err(line, format!("`{}` of floats", i.opcode)),
            };
            if i.has(".NaN") || i.has(".xorsign") || i.has(".abs") {
                return err(line, format!("unsupported `{}` modifiers", i.opcode));
            }
            let mode = if i.has(".approx") || i.has(".full") {
                Mode::Approx
            } else {
                Mode::Round(rnd_of(i).unwrap_or(Rnd::Nearest))
            };
            return Ok(Op::Fp {
                op,
                fp,
                mode,
                ftz: i.has(".ftz"),
                sat: i.has(".sat"),
                d,
                a: self.src(cx, a, Some(ty), line)?,
                b: self.src(cx, b, Some(ty), line)?,
            });
        }
        let op = match (i.opcode.as_str(), i.has(".hi"), i.has(".wide")) {
            ("add" | "addc", _, _) => IntOp::Add,
            ("sub" | "subc", _, _) => IntOp::Sub,
            ("mul", true, _) => IntOp::MulHi,
            ("mul", _, true) => IntOp::MulWide,
            ("mul", _, _) => IntOp::MulLo,
            ("div", _, _) => IntOp::Div,
            ("rem", _, _) => IntOp::Rem,
            ("min", _, _) => IntOp::Min,
            ("max", _, _) => IntOp::Max,
            ("and", _, _) => IntOp::And,
            ("or", _, _) => IntOp::Or,
            ("xor", _, _) => IntOp::Xor,
            ("shl", _, _) => IntOp::Shl,
            ("shr", _, _) => IntOp::Shr,
            _ => return err(line, format!("`{}` of integers", i.opcode)),
        };
        if i.has(".relu") {
            return err(line, "unsupported .relu");
        }
        let bty = if matches!(op, IntOp::Shl | IntOp::Shr) {
            Ty::U32
        } else {
            ty
        };
        Ok(Op::Int {
            op,
            ty,
            d,
            a: self.src(cx, a, Some(ty), line)?,
            b: self.src(cx, b, Some(bty), line)?,
            cc_out: i.has(".cc"),
            cc_in: i.opcode.ends_with('c') && i.opcode != "rem",
            sat: i.has(".sat"),
        })
    }

    fn ternary(&mut self, cx: &Cx<'_>, i: &ast::Instruction) -> Result<Op> {
        let line = i.line;
        let ty = Self::ty(i)?;
        let [d, a, b, c] = Self::operands::<4>(i)?;
        let d = self.dst(cx, d, line)?;
        if ty.is_float() {
            let fp = match ty {
                Ty::F32 => Fp::F32,
                Ty::F64 => Fp::F64,
                _ => return err(line, format!("`{}` of {ty:?}", i.opcode)),
            };
            return Ok(Op::Fma {
                fp,
                rnd: rnd_of(i).unwrap_or(Rnd::Nearest),
                ftz: i.has(".ftz"),
                sat: i.has(".sat"),
                d,
                a: self.src(cx, a, Some(ty), line)?,
                b: self.src(cx, b, Some(ty), line)?,
                c: self.src(cx, c, Some(ty), line)?,
            });
        }
        let product = if i.has(".hi") {
            IntOp::MulHi
        } else if i.has(".wide") {
            IntOp::MulWide
        } else {
            IntOp::MulLo
        };
        let cty = if product == IntOp::MulWide {
            match ty {
                Ty::U16 => Ty::U32,
                Ty::S16 => Ty::S32,
                Ty::U32 => Ty::U64,
                _ => Ty::S64,
            }
        } else {
            ty
        };
        if i.has(".sat") {
            return err(line, "unsupported mad.sat");
        }
        Ok(Op::Mad {
            product,
            ty,
            d,
            a: self.src(cx, a, Some(ty), line)?,
            b: self.src(cx, b, Some(ty), line)?,
            c: self.src(cx, c, Some(cty), line)?,
            cc_out: i.has(".cc"),
            cc_in: i.opcode == "madc",
        })
    }

    fn unary(&mut self, cx: &Cx<'_>, i: &ast::Instruction) -> Result<Op> {
        let line = i.line;
        let ty = Self::ty(i)?;
        let [d, a] = Self::operands::<2>(i)?;
        if ty == Ty::Pred {
            if i.opcode != "not" {
                return err(line, format!("`{}` of a predicate", i.opcode));
            }
            return Ok(Op::PredNot {
                d: self.dst(cx, d, line)?,
                a: self.pred(cx, a, line)?,
            });
        }
        let d = self.dst(cx, d, line)?;
        if ty.is_float() {
            let fp = match ty {
                Ty::F32 => Fp::F32,
                Ty::F64 => Fp::F64,
                _ => return err(line, format!("`{}` of {ty:?}", i.opcode)),
            };
            let op = match i.opcode.as_str() {
                "neg" => FpUnOp::Neg,
                "abs" => FpUnOp::Abs,
                "sqrt" => FpUnOp::Sqrt,
                "rcp" => FpUnOp::Rcp,
                "rsqrt" => FpUnOp::Rsqrt,
                "ex2" => FpUnOp::Ex2,
                "lg2" => FpUnOp::Lg2,
                "sin" => FpUnOp::Sin,
                "cos" => FpUnOp::Cos,
                "tanh" => FpUnOp::Tanh,
                _ => return err(line, format!("`{}` of floats", i.opcode)),
            };
            let approx_only = matches!(
                op,
                FpUnOp::Rsqrt
                    | FpUnOp::Ex2
                    | FpUnOp::Lg2
                    | FpUnOp::Sin
                    | FpUnOp::Cos
                    | FpUnOp::Tanh
            );
            let mode = if i.has(".approx") || i.has(".full") {
                Mode::Approx
            } else if approx_only {
                return err(line, format!("`{}` needs .approx", i.opcode));
            } else {
                Mode::Round(rnd_of(i).unwrap_or(Rnd::Nearest))
            };
            return Ok(Op::FpUn {
                op,
                fp,
                mode,
                ftz: i.has(".ftz"),
                d,
                a: self.src(cx, a, Some(ty), line)?,
            });
        }
        let op = match i.opcode.as_str() {
            "neg" => IntUnOp::Neg,
            "abs" => IntUnOp::Abs,
            "not" => IntUnOp::Not,
            "cnot" => IntUnOp::Cnot,
            "clz" => IntUnOp::Clz,
            "popc" => IntUnOp::Popc,
            "brev" => IntUnOp::Brev,
            _ => return err(line, format!("`{}` of integers", i.opcode)),
        };
        Ok(Op::IntUn {
            op,
            ty,
            d,
            a: self.src(cx, a, Some(ty), line)?,
        })
    }

    fn setp(&mut self, cx: &Cx<'_>, i: &ast::Instruction) -> Result<Op> {
        let line = i.line;
        let ty = Self::ty(i)?;
        let word = |m: &str| -> Option<Cmp> {
            Some(match m {
                ".eq" => Cmp::Eq,
                ".ne" => Cmp::Ne,
                ".lt" | ".lo" => Cmp::Lt,
                ".le" | ".ls" => Cmp::Le,
                ".gt" | ".hi" => Cmp::Gt,
                ".ge" | ".hs" => Cmp::Ge,
                ".equ" => Cmp::Equ,
                ".neu" => Cmp::Neu,
                ".ltu" => Cmp::Ltu,
                ".leu" => Cmp::Leu,
                ".gtu" => Cmp::Gtu,
                ".geu" => Cmp::Geu,
                ".num" => Cmp::Num,
                ".nan" => Cmp::Nan,
                _ => return None,
            })
        };
        let Some(cmp) = i.mods.iter().find_map(|m| word(m)) else {
            return err(line, "setp without a comparison");
        };
        let bool_op = i.mods.iter().find_map(|m| match m.as_str() {
            ".and" => Some(BoolOp::And),
            ".or" => Some(BoolOp::Or),
            ".xor" => Some(BoolOp::Xor),
            _ => None,
        });
        let (dst, a, b, c) = match (&i.operands[..], bool_op) {
            ([d, a, b], None) => (d, a, b, None),
            ([d, a, b, c], Some(_)) => (d, a, b, Some(c)),
            _ => return err(line, "setp with a wrong number of operands"),
        };
        let (p, q) = match dst {
            Operand::Pair(p, q) => (self.dst_opt(cx, p, line)?, self.dst_opt(cx, q, line)?),
            o => (self.dst_opt(cx, o, line)?, None),
        };
        let combine = match (bool_op, c) {
            (Some(op), Some(c)) => Some((op, self.pred(cx, c, line)?)),
            _ => None,
        };
        Ok(Op::Setp {
            cmp,
            ty,
            ftz: i.has(".ftz"),
            p,
            q,
            a: self.src(cx, a, Some(ty), line)?,
            b: self.src(cx, b, Some(ty), line)?,
            combine,
        })
    }

    fn call(&mut self, cx: &Cx<'_>, i: &ast::Instruction) -> Result<Op> {
        let line = i.line;
        let (rets, name, args) = match &i.operands[..] {
            [Operand::List(r), Operand::Name(n), Operand::List(a)] => (&r[..], n, &a[..]),
            [Operand::Name(n), Operand::List(a)] => (&[][..], n, &a[..]),
            [Operand::List(r), Operand::Name(n)] => (&r[..], n, &[][..]),
            [Operand::Name(n)] => (&[][..], n, &[][..]),
            _ => return err(line, "a call through a function pointer"),
        };
        let callee = &self.callees[name];
        let (params, returns) = (callee.params.clone(), callee.returns.clone());
        if params.len() != args.len() || returns.len() != rets.len() {
            return err(
                line,
                format!("a call of `{name}` with the wrong number of parameters"),
            );
        }
        let copy = |o: &Operand, (formal, size): (u32, u32), inward: bool| -> Result<ParamCopy> {
            let Operand::Name(n) = o else {
                return err(line, format!("a call argument {o:?} that is not a .param"));
            };
            let Some(Binding::CallParam { offset, size: s }) = cx.lookup(n) else {
                return err(line, format!("a call argument `{n}` that is not a .param"));
            };
            let size = size.min(s);
            Ok(if inward {
                ParamCopy {
                    from: offset,
                    to: formal,
                    size,
                }
            } else {
                ParamCopy {
                    from: formal,
                    to: offset,
                    size,
                }
            })
        };
        let ins = args
            .iter()
            .zip(params)
            .map(|(o, p)| copy(o, p, true))
            .collect::<Result<_>>()?;
        let outs = rets
            .iter()
            .zip(returns)
            .map(|(o, p)| copy(o, p, false))
            .collect::<Result<_>>()?;
        self.calls.push((self.code.len(), name.clone()));
        Ok(Op::Call {
            target: u32::MAX,
            ins,
            outs,
        })
    }

    fn atom(&mut self, cx: &Cx<'_>, i: &ast::Instruction) -> Result<Op> {
        let line = i.line;
        let ty = Self::ty(i)?;
        let op = i
            .mods
            .iter()
            .find_map(|m| {
                Some(match m.as_str() {
                    ".and" => AtomOp::And,
                    ".or" => AtomOp::Or,
                    ".xor" => AtomOp::Xor,
                    ".exch" => AtomOp::Exch,
                    ".cas" => AtomOp::Cas,
                    ".add" => AtomOp::Add,
                    ".inc" => AtomOp::Inc,
                    ".dec" => AtomOp::Dec,
                    ".min" => AtomOp::Min,
                    ".max" => AtomOp::Max,
                    _ => return None,
                })
            })
            .ok_or_else(|| ParseError {
                line,
                message: "an atomic without an operation".into(),
            })?;
        let red = i.opcode == "red";
        let ops = &i.operands[..];
        let (d, a, b, c) = match (red, ops) {
            (true, [a, b]) => (None, a, b, None),
            (false, [d, a, b]) => (Some(d), a, b, None),
            (false, [d, a, b, c]) => (Some(d), a, b, Some(c)),
            _ => return err(line, "an atomic with a wrong number of operands"),
        };
        let (mem, addr) = self.access(cx, i, a)?;
        Ok(Op::Atom {
            mem,
            op,
            ty,
            d: match d {
                Some(d) => self.dst_opt(cx, d, line)?,
                None => None,
            },
            addr,
            b: self.src(cx, b, Some(ty), line)?,
            c: match c {
                Some(c) => Some(self.src(cx, c, Some(ty), line)?),
                None => None,
            },
        })
    }
}
