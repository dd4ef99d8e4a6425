//! Numbers and locations in checks and answers, evaluated against the
//! program's symbols: `board+136`, `$C8`, `%1000_0001`, `boardOffset+3*8`,
//! `Logic.inc:66`. Symbols compare case-insensitively, as in ASM11.

use crate::image::Program;
use thiserror::Error;

/// Why a number or location cannot be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EvalError {
    /// A name that is not a symbol of the program.
    #[error("`{0}` is not a symbol of the program")]
    UnknownSymbol(String),
    /// Not an expression of numbers, symbols, `+`, `-`, `*`.
    #[error("`{0}` is not a number or an expression like `board+136`")]
    Syntax(String),
    /// A `File:LINE` whose file is not part of the program.
    #[error("no file `{0}` in the program")]
    UnknownFile(String),
    /// A `File:LINE` that produced no bytes.
    #[error("line {line} of `{file}` has no instruction")]
    EmptyLine {
        /// The file as written.
        file: String,
        /// The line.
        line: u32,
    },
    /// The value does not fit 16 bits where an address is needed.
    #[error("{0} is not an address ($0000..$FFFF)")]
    NotAnAddress(i64),
}

/// Parses a plain number: decimal, `$hex`, `0xhex`, `%bin`, `0bbin`
/// (underscores allowed), with an optional leading `-`.
pub fn parse_number(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, t),
    };
    let clean = |s: &str| s.replace('_', "");
    let v = if let Some(h) = t
        .strip_prefix('$')
        .or_else(|| t.strip_prefix("0x"))
        .or_else(|| t.strip_prefix("0X"))
    {
        i64::from_str_radix(&clean(h), 16).ok()?
    } else if let Some(b) = t
        .strip_prefix('%')
        .or_else(|| t.strip_prefix("0b"))
        .or_else(|| t.strip_prefix("0B"))
    {
        i64::from_str_radix(&clean(b), 2).ok()?
    } else if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '_') {
        clean(t).parse().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

/// Evaluates `term (("+"|"-") term)*`, `term := factor ("*" factor)*`,
/// `factor := number | symbol | "-" factor`.
pub fn eval_expr(text: &str, program: Option<&Program>) -> Result<i64, EvalError> {
    let syntax = || EvalError::Syntax(text.trim().to_string());
    let mut toks: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in text.chars() {
        if c == '+' || c == '-' || c == '*' {
            if !cur.trim().is_empty() {
                toks.push(cur.trim().to_string());
            }
            cur.clear();
            toks.push(c.to_string());
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        toks.push(cur.trim().to_string());
    }
    let mut pos = 0;
    let factor = |pos: &mut usize| -> Result<i64, EvalError> {
        let mut neg = false;
        while toks.get(*pos).map(String::as_str) == Some("-") {
            neg = !neg;
            *pos += 1;
        }
        let tok = toks.get(*pos).ok_or_else(syntax)?;
        *pos += 1;
        let v = if let Some(n) = parse_number(tok) {
            n
        } else if tok
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            let p = program.ok_or_else(|| EvalError::UnknownSymbol(tok.clone()))?;
            p.symbol(tok)
                .map(|s| s.value as i64)
                .ok_or_else(|| EvalError::UnknownSymbol(tok.clone()))?
        } else {
            return Err(syntax());
        };
        Ok(if neg { -v } else { v })
    };
    let term = |pos: &mut usize| -> Result<i64, EvalError> {
        let mut v = factor(pos)?;
        while toks.get(*pos).map(String::as_str) == Some("*") {
            *pos += 1;
            v = v.checked_mul(factor(pos)?).ok_or_else(syntax)?;
        }
        Ok(v)
    };
    let mut v = term(&mut pos)?;
    while let Some(op) = toks.get(pos) {
        pos += 1;
        let rhs = term(&mut pos)?;
        v = match op.as_str() {
            "+" => v.checked_add(rhs),
            "-" => v.checked_sub(rhs),
            _ => None,
        }
        .ok_or_else(syntax)?;
    }
    Ok(v)
}

/// Evaluates an address expression.
pub fn eval_address(text: &str, program: Option<&Program>) -> Result<u16, EvalError> {
    let v = eval_expr(text, program)?;
    u16::try_from(v).map_err(|_| EvalError::NotAnAddress(v))
}

/// The addresses a location names: a `File.inc:LINE` (every run of bytes
/// the line produced) or an address expression (`drawCell`, `readInput+3`).
pub fn resolve_location(text: &str, program: Option<&Program>) -> Result<Vec<u16>, EvalError> {
    let t = text.trim();
    if let Some((file, line)) = t.rsplit_once(':') {
        if let (Ok(line), Some(p)) = (line.trim().parse::<u32>(), program) {
            let file = file.trim();
            let want = file.to_ascii_lowercase();
            let id = p
                .files
                .iter()
                .position(|f| {
                    let path = f
                        .path
                        .to_string_lossy()
                        .replace('\\', "/")
                        .to_ascii_lowercase();
                    path == want || path.ends_with(&format!("/{want}"))
                })
                .ok_or_else(|| EvalError::UnknownFile(file.to_string()))?;
            let addrs: Vec<u16> = p.addrs_of_line(id, line).map(|l| l.addr).collect();
            if addrs.is_empty() {
                return Err(EvalError::EmptyLine {
                    file: file.to_string(),
                    line,
                });
            }
            return Ok(addrs);
        }
    }
    Ok(vec![eval_address(t, program)?])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::{LineEntry, SourceFile, Symbol, SymbolKind};

    pub(crate) fn program() -> Program {
        let sym = |name: &str, value: u16, kind| Symbol {
            name: name.into(),
            value,
            kind,
            defined_at: None,
            used_at: vec![],
            size: None,
        };
        let mut p = Program {
            symbols: vec![
                sym("board", 0x40, SymbolKind::Label),
                sym("boardOffset", 36, SymbolKind::Constant),
                sym("drawCell", 0xC17A, SymbolKind::Label),
            ],
            files: vec![
                SourceFile {
                    path: "fw/Viergewinnt.asm".into(),
                    text: String::new(),
                },
                SourceFile {
                    path: "fw/Board.inc".into(),
                    text: String::new(),
                },
            ],
            lines: vec![
                LineEntry {
                    addr: 0xC17A,
                    len: 1,
                    file: 1,
                    line: 20,
                },
                LineEntry {
                    addr: 0xC1A3,
                    len: 2,
                    file: 1,
                    line: 60,
                },
            ],
            ..Program::default()
        };
        p.finish();
        p
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_number("136"), Some(136));
        assert_eq!(parse_number("$C8"), Some(200));
        assert_eq!(parse_number("0xc8"), Some(200));
        assert_eq!(parse_number("%1000_0001"), Some(0x81));
        assert_eq!(parse_number("-1"), Some(-1));
        assert_eq!(parse_number("12a"), None);
        assert_eq!(parse_number(""), None);
        assert_eq!(parse_number("$"), None);
    }

    #[test]
    fn expressions_and_locations() {
        let p = program();
        assert_eq!(eval_expr("board+136", Some(&p)), Ok(0xC8));
        assert_eq!(eval_expr("BOARDOFFSET + 3*8", Some(&p)), Ok(60));
        assert_eq!(eval_expr("-2*-3", None), Ok(6));
        assert_eq!(
            eval_expr("nope", Some(&p)),
            Err(EvalError::UnknownSymbol("nope".into()))
        );
        assert!(matches!(eval_expr("1+", None), Err(EvalError::Syntax(_))));
        assert!(matches!(
            eval_expr("a b", Some(&p)),
            Err(EvalError::Syntax(_))
        ));
        assert_eq!(eval_address("-1", None), Err(EvalError::NotAnAddress(-1)));
        assert_eq!(resolve_location("drawCell", Some(&p)), Ok(vec![0xC17A]));
        assert_eq!(resolve_location("board.inc:60", Some(&p)), Ok(vec![0xC1A3]));
        assert!(matches!(
            resolve_location("Board.inc:61", Some(&p)),
            Err(EvalError::EmptyLine { .. })
        ));
        assert!(matches!(
            resolve_location("X.inc:1", Some(&p)),
            Err(EvalError::UnknownFile(_))
        ));
    }
}
