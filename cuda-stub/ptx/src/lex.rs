//! Tokens of PTX text: identifiers (with their `%`, `$`, `_` and `.`
//! prefixes), numbers (decimal, hex, octal, `0f`/`0d` float bits, decimal
//! floats), strings and punctuation, each with the line it starts on.

use crate::error::ParseError;

/// A token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// A name: `%r1`, `$L__BB0_1`, `_Z10offsets`, `walk_smem`, `%tid`.
    Ident(String),
    /// A directive or modifier starting with a dot: `.reg`, `.u32`.
    Dot(String),
    /// An integer literal (its bits; negatives are two's complement of the
    /// unary minus the parser applies).
    Int(u64),
    /// An `0f` literal (f32 bits).
    F32(u32),
    /// An `0d` literal, or a decimal float (f64 bits).
    F64(u64),
    /// A string literal's contents.
    Str(String),
    /// One punctuation character.
    Punct(char),
}

/// A token and the 1-based line it starts on.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) line: u32,
}

fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || matches!(c, b'_' | b'$' | b'%')
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$')
}

/// The tokens of `text`.
pub(crate) fn tokens(text: &str) -> Result<Vec<Token>, ParseError> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 4);
    let (mut i, mut line) = (0usize, 1u32);
    let err = |line: u32, msg: String| ParseError { line, message: msg };
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    if b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 2;
            }
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += 1;
                }
                if i >= b.len() {
                    return Err(err(line, "unterminated string".into()));
                }
                out.push(Token {
                    tok: Tok::Str(text[start..i].to_string()),
                    line,
                });
                i += 1;
            }
            b'.' if b.get(i + 1).is_some_and(|&n| ident_start(n)) => {
                let start = i;
                i += 1;
                while i < b.len() && ident_char(b[i]) {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Dot(text[start..i].to_string()),
                    line,
                });
            }
            c if ident_start(c) => {
                let start = i;
                i += 1;
                while i < b.len() && ident_char(b[i]) {
                    i += 1;
                }
                // Special registers have a component: `%tid.x`, `%ctaid.y`.
                if c == b'%'
                    && b.get(i) == Some(&b'.')
                    && b.get(i + 1)
                        .is_some_and(|&n| matches!(n, b'x' | b'y' | b'z'))
                    && !b.get(i + 2).is_some_and(|&n| ident_char(n))
                {
                    i += 2;
                }
                out.push(Token {
                    tok: Tok::Ident(text[start..i].to_string()),
                    line,
                });
            }
            c if c.is_ascii_digit() => {
                let (tok, len) = number(&text[i..]).map_err(|m| err(line, m))?;
                out.push(Token { tok, line });
                i += len;
            }
            b',' | b';' | b':' | b'{' | b'}' | b'[' | b']' | b'(' | b')' | b'+' | b'-' | b'!'
            | b'@' | b'|' | b'<' | b'>' | b'=' => {
                out.push(Token {
                    tok: Tok::Punct(c as char),
                    line,
                });
                i += 1;
            }
            _ => {
                return Err(err(line, format!("unexpected character {:?}", c as char)));
            }
        }
    }
    Ok(out)
}

/// A number at the start of `s`, and how many bytes it takes.
fn number(s: &str) -> Result<(Tok, usize), String> {
    let b = s.as_bytes();
    let word_end = |from: usize| {
        from + b[from..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count()
    };
    if b.len() > 1 && b[0] == b'0' && matches!(b[1], b'f' | b'F' | b'd' | b'D') {
        let end = word_end(2);
        let digits = &s[2..end];
        return if matches!(b[1], b'f' | b'F') && digits.len() == 8 {
            let v = u32::from_str_radix(digits, 16).map_err(|e| format!("{s:.10}: {e}"))?;
            Ok((Tok::F32(v), end))
        } else if digits.len() == 16 {
            let v = u64::from_str_radix(digits, 16).map_err(|e| format!("{s:.18}: {e}"))?;
            Ok((Tok::F64(v), end))
        } else {
            Err(format!("bad float literal {}", &s[..end]))
        };
    }
    if b.len() > 1 && b[0] == b'0' && matches!(b[1], b'x' | b'X') {
        let end = word_end(2);
        let digits = s[2..end].trim_end_matches(['U', 'u']);
        let v = u64::from_str_radix(digits, 16).map_err(|e| format!("{}: {e}", &s[..end]))?;
        return Ok((Tok::Int(v), end));
    }
    // Decimal (or octal with a leading 0), possibly a decimal float.
    let mut end = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let is_float = b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(u8::is_ascii_digit)
        || matches!(b.get(end), Some(b'e' | b'E'));
    if is_float {
        if b.get(end) == Some(&b'.') {
            end += 1;
            end += b[end..].iter().take_while(|c| c.is_ascii_digit()).count();
        }
        if matches!(b.get(end), Some(b'e' | b'E')) {
            end += 1;
            if matches!(b.get(end), Some(b'+' | b'-')) {
                end += 1;
            }
            end += b[end..].iter().take_while(|c| c.is_ascii_digit()).count();
        }
        let v: f64 = s[..end]
            .parse()
            .map_err(|e| format!("{}: {e}", &s[..end]))?;
        return Ok((Tok::F64(v.to_bits()), end));
    }
    let digits = &s[..end];
    let v = if digits.len() > 1 && digits.starts_with('0') {
        u64::from_str_radix(&digits[1..], 8)
    } else {
        digits.parse::<u64>()
    }
    .map_err(|e| format!("{digits}: {e}"))?;
    if matches!(b.get(end), Some(b'U' | b'u')) {
        end += 1;
    }
    Ok((Tok::Int(v), end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokens(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn instructions_split_into_their_parts() {
        assert_eq!(
            toks("@!%p1 ld.shared.u64 %rd44, [%r1+-128]; // comment"),
            vec![
                Tok::Punct('@'),
                Tok::Punct('!'),
                Tok::Ident("%p1".into()),
                Tok::Ident("ld".into()),
                Tok::Dot(".shared".into()),
                Tok::Dot(".u64".into()),
                Tok::Ident("%rd44".into()),
                Tok::Punct(','),
                Tok::Punct('['),
                Tok::Ident("%r1".into()),
                Tok::Punct('+'),
                Tok::Punct('-'),
                Tok::Int(128),
                Tok::Punct(']'),
                Tok::Punct(';'),
            ]
        );
    }

    #[test]
    fn literals_keep_their_bits() {
        assert_eq!(
            toks("0f3F800000 0d3FF0000000000000 0x10 010 7 1.5"),
            vec![
                Tok::F32(0x3F80_0000),
                Tok::F64(0x3FF0_0000_0000_0000),
                Tok::Int(16),
                Tok::Int(8),
                Tok::Int(7),
                Tok::F64(1.5f64.to_bits()),
            ]
        );
    }

    #[test]
    fn special_registers_keep_their_component_and_lines_count() {
        let t = tokens("mov.u32 %r1, %tid.x;\n/* a\nb */ %ctaid.y").unwrap();
        assert!(matches!(&t[4].tok, Tok::Ident(s) if s == "%tid.x"));
        assert_eq!(t.last().unwrap().line, 3);
    }
}
