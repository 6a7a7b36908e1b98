//! PTX text to [`ast::Module`]: the module directives, variables, and the
//! functions and kernels with their statements.

use crate::ast::{self, Function, Instruction, Literal, Operand, ParamDecl, Space, Statement};
use crate::error::ParseError;
use crate::lex::{Tok, Token, tokens};

struct Parser {
    toks: Vec<Token>,
    at: usize,
}

type Result<T> = std::result::Result<T, ParseError>;

/// Parses a module.
pub(crate) fn module(text: &str) -> Result<ast::Module> {
    let mut p = Parser {
        toks: tokens(text)?,
        at: 0,
    };
    let mut m = ast::Module::default();
    while !p.done() {
        p.top_level(&mut m)?;
    }
    Ok(m)
}

impl Parser {
    fn done(&self) -> bool {
        self.at >= self.toks.len()
    }

    fn line(&self) -> u32 {
        self.toks
            .get(self.at)
            .or_else(|| self.toks.last())
            .map_or(0, |t| t.line)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.at + k).map(|t| &t.tok)
    }

    fn next(&mut self) -> Result<Tok> {
        let t = self
            .toks
            .get(self.at)
            .ok_or_else(|| self.error("unexpected end of the module"))?;
        self.at += 1;
        Ok(t.tok.clone())
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line(),
            message: message.into(),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> Result<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{c}`, found {:?}", self.peek())))
        }
    }

    fn is_dot(&self, d: &str) -> bool {
        matches!(self.peek(), Some(Tok::Dot(s)) if s == d)
    }

    fn eat_dot(&mut self, d: &str) -> bool {
        if self.is_dot(d) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Result<String> {
        match self.next()? {
            Tok::Ident(s) => Ok(s),
            t => Err(self.error(format!("expected a name, found {t:?}"))),
        }
    }

    fn int(&mut self) -> Result<u64> {
        match self.next()? {
            Tok::Int(v) => Ok(v),
            t => Err(self.error(format!("expected an integer, found {t:?}"))),
        }
    }

    /// Skips to the token after the next `;` at this nesting level.
    fn skip_statement(&mut self) -> Result<()> {
        while !self.eat_punct(';') {
            self.next()?;
        }
        Ok(())
    }

    fn top_level(&mut self, m: &mut ast::Module) -> Result<()> {
        let line = self.line();
        match self.next()? {
            Tok::Dot(d) if d == ".version" => {
                let t = self.next()?;
                // `9.0` lexes as a decimal float.
                m.version = match t {
                    Tok::F64(bits) => {
                        let v = f64::from_bits(bits);
                        let major = v.trunc() as u32;
                        (major, ((v - v.trunc()) * 10.0).round() as u32)
                    }
                    Tok::Int(v) => (v as u32, 0),
                    t => return Err(self.error(format!("bad .version {t:?}"))),
                };
            }
            Tok::Dot(d) if d == ".target" => {
                m.target = self.ident()?;
                while self.eat_punct(',') {
                    self.ident()?;
                }
            }
            Tok::Dot(d) if d == ".address_size" => m.address_size = self.int()? as u32,
            Tok::Dot(d) if d == ".visible" || d == ".weak" || d == ".extern" => {
                let external = d == ".extern";
                if self.is_dot(".func") || self.is_dot(".entry") {
                    let f = self.function()?;
                    m.functions.push(f);
                } else {
                    for mut v in self.var_decl(line)? {
                        v.external = external;
                        m.vars.push(v);
                    }
                }
            }
            Tok::Dot(d) if d == ".func" || d == ".entry" => {
                self.at -= 1;
                let f = self.function()?;
                m.functions.push(f);
            }
            Tok::Dot(d) if Space::of(&d).is_some() => {
                self.at -= 1;
                m.vars.extend(self.var_decl(line)?);
            }
            Tok::Dot(d) if d == ".file" || d == ".section" || d == ".loc" => {
                self.skip_statement()?
            }
            t => return Err(self.error(format!("unexpected {t:?} at module level"))),
        }
        Ok(())
    }

    /// `.space {.align N} .type name{<N>|[N]|[]} {= {...}};` (the space first).
    fn var_decl(&mut self, line: u32) -> Result<Vec<ast::VarDecl>> {
        let space = match self.next()? {
            Tok::Dot(d) => Space::of(&d).ok_or_else(|| self.error(format!("bad space {d}")))?,
            t => return Err(self.error(format!("expected a state space, found {t:?}"))),
        };
        let mut align = None;
        let mut ty = None;
        loop {
            match self.peek() {
                Some(Tok::Dot(d)) if d == ".align" => {
                    self.at += 1;
                    align = Some(self.int()? as u32);
                }
                Some(Tok::Dot(d)) if d == ".v2" || d == ".v4" || d == ".ptr" => self.at += 1,
                Some(Tok::Dot(d)) => {
                    ty = Some(d.clone());
                    self.at += 1;
                }
                _ => break,
            }
        }
        let ty = ty.ok_or_else(|| self.error("a declaration without a type"))?;
        let mut out = vec![];
        loop {
            let name = self.ident()?;
            let mut decl = ast::VarDecl {
                space,
                align,
                ty: ty.clone(),
                name,
                count: None,
                array: None,
                init: vec![],
                external: false,
                line,
            };
            if self.eat_punct('<') {
                decl.count = Some(self.int()? as u32);
                self.expect_punct('>')?;
            }
            if self.eat_punct('[') {
                if self.eat_punct(']') {
                    decl.array = Some(None);
                } else {
                    decl.array = Some(Some(self.int()?));
                    self.expect_punct(']')?;
                }
            }
            if self.eat_punct('=') {
                if self.eat_punct('{') {
                    loop {
                        decl.init.push(self.literal()?);
                        if !self.eat_punct(',') {
                            break;
                        }
                    }
                    self.expect_punct('}')?;
                } else {
                    decl.init.push(self.literal()?);
                }
            }
            out.push(decl);
            if !self.eat_punct(',') {
                break;
            }
        }
        self.expect_punct(';')?;
        Ok(out)
    }

    fn literal(&mut self) -> Result<Literal> {
        let neg = self.eat_punct('-');
        let lit = match self.next()? {
            Tok::Int(v) => Literal::Int(if neg { v.wrapping_neg() } else { v }),
            Tok::F32(v) => Literal::F32(if neg { v ^ 0x8000_0000 } else { v }),
            Tok::F64(v) => Literal::F64(if neg { v ^ (1 << 63) } else { v }),
            t => return Err(self.error(format!("expected a literal, found {t:?}"))),
        };
        Ok(lit)
    }

    /// `(.param .type name, ...)`.
    fn params(&mut self) -> Result<Vec<ParamDecl>> {
        let mut out = vec![];
        self.expect_punct('(')?;
        if self.eat_punct(')') {
            return Ok(out);
        }
        loop {
            if !self.eat_dot(".param") && !self.eat_dot(".reg") {
                return Err(self.error("expected `.param`"));
            }
            let mut align = None;
            let mut ty = None;
            while let Some(Tok::Dot(d)) = self.peek().cloned() {
                self.at += 1;
                match d.as_str() {
                    ".align" => align = Some(self.int()? as u32),
                    ".ptr" | ".global" | ".shared" | ".local" | ".const" => {}
                    _ => ty = Some(d),
                }
            }
            let name = self.ident()?;
            let mut array = None;
            if self.eat_punct('[') {
                array = Some(self.int()?);
                self.expect_punct(']')?;
            }
            out.push(ParamDecl {
                name,
                ty: ty.ok_or_else(|| self.error("a parameter without a type"))?,
                align,
                array,
            });
            if self.eat_punct(')') {
                return Ok(out);
            }
            self.expect_punct(',')?;
        }
    }

    /// `.func (ret) name(params) {body}` or `.entry name(params) {body}`.
    fn function(&mut self) -> Result<Function> {
        let line = self.line();
        let entry = match self.next()? {
            Tok::Dot(d) if d == ".entry" => true,
            Tok::Dot(d) if d == ".func" => false,
            t => return Err(self.error(format!("expected .func or .entry, found {t:?}"))),
        };
        let returns = if !entry && self.is_punct('(') {
            self.params()?
        } else {
            vec![]
        };
        let name = self.ident()?;
        let params = if self.is_punct('(') {
            self.params()?
        } else {
            vec![]
        };
        // Performance directives (`.maxntid 256, 1, 1`), `.noreturn`.
        while let Some(Tok::Dot(_)) = self.peek() {
            self.at += 1;
            while matches!(self.peek(), Some(Tok::Int(_))) {
                self.at += 1;
                self.eat_punct(',');
            }
        }
        if self.eat_punct(';') {
            return Ok(Function {
                name,
                entry,
                returns,
                params,
                body: None,
                line,
            });
        }
        self.expect_punct('{')?;
        let mut body = vec![];
        let mut depth = 1;
        loop {
            let line = self.line();
            match self.peek() {
                None => return Err(self.error(format!("`{name}` does not end"))),
                Some(Tok::Punct('{')) => {
                    self.at += 1;
                    depth += 1;
                    body.push(Statement::Open);
                }
                Some(Tok::Punct('}')) => {
                    self.at += 1;
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                    body.push(Statement::Close);
                }
                Some(Tok::Dot(d)) if d == ".pragma" || d == ".loc" => self.skip_statement()?,
                Some(Tok::Dot(d)) if Space::of(d).is_some() => {
                    for v in self.var_decl(line)? {
                        body.push(Statement::Decl(v));
                    }
                }
                Some(Tok::Ident(_)) if self.peek_at(1) == Some(&Tok::Punct(':')) => {
                    let label = self.ident()?;
                    self.at += 1;
                    body.push(Statement::Label(label));
                }
                _ => {
                    let inst = self.instruction(line)?;
                    body.push(Statement::Inst(inst));
                }
            }
        }
        Ok(Function {
            name,
            entry,
            returns,
            params,
            body: Some(body),
            line,
        })
    }

    fn instruction(&mut self, line: u32) -> Result<Instruction> {
        let mut guard = None;
        if self.eat_punct('@') {
            let neg = self.eat_punct('!');
            guard = Some((self.ident()?, neg));
        }
        let opcode = self.ident()?;
        let mut mods = vec![];
        while let Some(Tok::Dot(d)) = self.peek() {
            mods.push(d.clone());
            self.at += 1;
        }
        let mut operands = vec![];
        if !self.eat_punct(';') {
            loop {
                operands.push(self.operand()?);
                if self.eat_punct(';') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        Ok(Instruction {
            guard,
            opcode,
            mods,
            operands,
            line,
        })
    }

    fn operand(&mut self) -> Result<Operand> {
        let first = self.single_operand()?;
        if self.eat_punct('|') {
            let second = self.single_operand()?;
            return Ok(Operand::Pair(Box::new(first), Box::new(second)));
        }
        Ok(first)
    }

    fn single_operand(&mut self) -> Result<Operand> {
        match self.peek().cloned() {
            Some(Tok::Punct('!')) => {
                self.at += 1;
                Ok(Operand::Not(Box::new(self.single_operand()?)))
            }
            Some(Tok::Punct('[')) => {
                self.at += 1;
                let base = match self.peek().cloned() {
                    Some(Tok::Int(_)) => Operand::Lit(self.literal()?),
                    _ => self.name_operand()?,
                };
                let mut offset = 0i64;
                while self.is_punct('+') || self.is_punct('-') {
                    let minus = self.next()? == Tok::Punct('-');
                    let v = match self.literal()? {
                        Literal::Int(v) => v as i64,
                        _ => return Err(self.error("a float in an address")),
                    };
                    offset = offset.wrapping_add(if minus { v.wrapping_neg() } else { v });
                }
                self.expect_punct(']')?;
                Ok(Operand::Addr {
                    base: Box::new(base),
                    offset,
                })
            }
            Some(Tok::Punct('{')) => {
                self.at += 1;
                let mut v = vec![];
                loop {
                    v.push(self.single_operand()?);
                    if self.eat_punct('}') {
                        return Ok(Operand::Vector(v));
                    }
                    self.expect_punct(',')?;
                }
            }
            Some(Tok::Punct('(')) => {
                self.at += 1;
                let mut v = vec![];
                if self.eat_punct(')') {
                    return Ok(Operand::List(v));
                }
                loop {
                    v.push(self.single_operand()?);
                    if self.eat_punct(')') {
                        return Ok(Operand::List(v));
                    }
                    self.expect_punct(',')?;
                }
            }
            Some(Tok::Punct('-') | Tok::Int(_) | Tok::F32(_) | Tok::F64(_)) => {
                Ok(Operand::Lit(self.literal()?))
            }
            Some(Tok::Ident(_)) => self.name_operand(),
            t => Err(self.error(format!("expected an operand, found {t:?}"))),
        }
    }

    fn name_operand(&mut self) -> Result<Operand> {
        let name = self.ident()?;
        Ok(if name == "_" {
            Operand::Sink
        } else if name.starts_with('%') {
            Operand::Reg(name)
        } else {
            Operand::Name(name)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"
.version 9.0
.target sm_80
.address_size 64

.shared .align 8 .b8 walk_smem[336];
.extern .shared .align 16 .b8 dyn_smem[];
.global .align 4 .b8 table[4] = {1, 2, 3, 4};

.func  (.param .align 8 .b8 func_retval0[8]) f(
	.param .b64 f_param_0
)
{
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [f_param_0];
	st.param.b64 	[func_retval0+0], %rd1;
	ret;
}

.visible .entry k(
	.param .u64 k_param_0,
	.param .align 8 .b8 k_param_1[144]
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [k_param_0];
	setp.lt.s32 	%p1|%p2, %r1, -1;
	@!%p1 bra 	$L__BB0_2;
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd1;
	.param .align 8 .b8 retval0[8];
	call.uni (retval0),
	f,
	(
	param0
	);
	ld.param.b64 	%rd2, [retval0+0];
	}
$L__BB0_2:
	ld.shared.v2.u64 	{%rd2, %rd3}, [%r1+-8];
	ret;
}
"#;

    #[test]
    fn a_module_parses_into_its_parts() {
        let m = module(SAMPLE).unwrap();
        assert_eq!(m.version, (9, 0));
        assert_eq!((m.target.as_str(), m.address_size), ("sm_80", 64));
        assert_eq!(m.vars.len(), 3);
        assert!(m.vars[1].external && m.vars[1].array == Some(None));
        assert_eq!(m.vars[2].init.len(), 4);
        assert_eq!(m.functions.len(), 2);
        let f = &m.functions[0];
        assert!(!f.entry && f.returns.len() == 1 && f.returns[0].size() == 8);
        let k = &m.functions[1];
        assert!(k.entry);
        assert_eq!(k.params[1].size(), 144);
        assert_eq!(k.params[1].alignment(), 8);
        let body = k.body.as_ref().unwrap();
        let insts: Vec<&Instruction> = body
            .iter()
            .filter_map(|s| match s {
                Statement::Inst(i) => Some(i),
                _ => None,
            })
            .collect();
        assert_eq!(insts[1].operands[0], {
            Operand::Pair(
                Box::new(Operand::Reg("%p1".into())),
                Box::new(Operand::Reg("%p2".into())),
            )
        });
        assert_eq!(
            insts[1].operands[2],
            Operand::Lit(Literal::Int(-1i64 as u64))
        );
        assert_eq!(insts[2].guard, Some(("%p1".into(), true)));
        let call = insts.iter().find(|i| i.opcode == "call").unwrap();
        assert_eq!(call.operands.len(), 3);
        assert_eq!(call.operands[1], Operand::Name("f".into()));
        let ld = insts.iter().rev().nth(1).unwrap();
        assert_eq!(
            ld.operands[1],
            Operand::Addr {
                base: Box::new(Operand::Reg("%r1".into())),
                offset: -8
            }
        );
        assert!(matches!(&ld.operands[0], Operand::Vector(v) if v.len() == 2));
        assert!(
            body.iter()
                .any(|s| matches!(s, Statement::Label(l) if l == "$L__BB0_2"))
        );
    }

    #[test]
    fn errors_name_their_line() {
        let e = module(".version 9.0\n.target sm_80\n.entry k() { add.s32 %r1 %r2; }").unwrap_err();
        assert_eq!(e.line, 3);
    }
}
