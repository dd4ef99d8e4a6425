//! Expressions of the course dialect: numbers (`$1F`, `%0101`, `@17`, `0x1F`,
//! `1Fh`, `31`, `'c'`), symbols, `*` (the location counter), unary `- ~ ! + < >`
//! (`<`/`>` = low/high byte inside an expression; also `low(x)`/`high(x)`)
//! and the binary operators
//! `* / % + - << >> & ^ | == != < <= > >= && ||`, with C-like precedence
//! except that `&`, `^`, `|` bind tighter than comparisons.
//!
//! Values are `i64`; arithmetic past 64 bits is an error (it never wraps
//! quietly, nor panics). Range checks happen where a value is used (byte,
//! word, direct page, offset).

use super::diagnostics::{Code, Diagnostic, Span};
use super::lexer::{is_ident_char, is_ident_start, is_open_char};
use super::source::cp1252_byte;
use crate::image::FileId;

/// Index of a symbol in the assembler's symbol table.
pub type SymId = u32;

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `~x`
    Not,
    /// `!x` (1 if x is 0, else 0)
    LogicalNot,
    /// `<x`: the low byte.
    Low,
    /// `>x`: the high byte.
    High,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `*`
    Mul,
    /// `/` (truncating)
    Div,
    /// `%` (remainder)
    Rem,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Shl,
    /// `>>` (arithmetic)
    Shr,
    /// `&`
    And,
    /// `^`
    Xor,
    /// `|`
    Or,
    /// `==` or `=`
    Eq,
    /// `!=` or `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&&`
    LogicalAnd,
    /// `||`
    LogicalOr,
}

/// A parsed expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A number or character constant.
    Num(i64),
    /// A symbol, with where it is written.
    Sym(SymId, Span),
    /// `*`: the address of the current line.
    Here,
    /// `::NAME` (ASM11): how many bytes the line labelled NAME places
    /// (`fcb`, `fcc`, `rmb`, ...), with where it is written.
    Size(SymId, Span),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation; the span is the operator's (for division by zero).
    Binary(BinOp, Box<Expr>, Box<Expr>, Span),
}

impl Expr {
    /// True if the expression mentions `*` (the current line's address).
    pub fn mentions_here(&self) -> bool {
        match self {
            Expr::Here => true,
            Expr::Num(_) | Expr::Sym(..) | Expr::Size(..) => false,
            Expr::Unary(_, e) => e.mentions_here(),
            Expr::Binary(_, a, b, _) => a.mentions_here() || b.mentions_here(),
        }
    }

    /// Calls `f` for every symbol the expression mentions.
    pub fn for_each_symbol(&self, f: &mut dyn FnMut(SymId, Span)) {
        match self {
            Expr::Num(_) | Expr::Here => {}
            Expr::Sym(id, span) | Expr::Size(id, span) => f(*id, *span),
            Expr::Unary(_, e) => e.for_each_symbol(f),
            Expr::Binary(_, a, b, _) => {
                a.for_each_symbol(f);
                b.for_each_symbol(f);
            }
        }
    }
}

/// Why an expression has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A symbol or `*` is not known yet (pass 1: forward reference).
    Unknown,
    /// A symbol is never defined.
    Undefined(SymId, Span),
    /// Division or remainder by zero at the operator's span.
    DivZero(Span),
    /// A shift by a count outside 0..63 (the operator's span, the count):
    /// no 64-bit value has a meaning there, so it is not quietly 0.
    BadShift(Span, i64),
    /// The result does not fit in 64 bits (the operator's span, if it has
    /// one): `65536*65536*65536*65536` is no number here, not 0.
    Overflow(Option<Span>),
}

/// What an expression needs from the assembler to be evaluated.
pub trait Env {
    /// The value of a symbol.
    fn value(&mut self, id: SymId, span: Span) -> Result<i64, EvalError>;
    /// The value of `*`.
    fn here(&self) -> Result<i64, EvalError>;
    /// The size of the data a symbol labels (`::NAME`); not known unless
    /// the environment says so.
    fn size(&mut self, id: SymId, span: Span) -> Result<i64, EvalError> {
        let _ = (id, span);
        Err(EvalError::Unknown)
    }
}

/// Evaluates an expression.
pub fn eval(e: &Expr, env: &mut dyn Env) -> Result<i64, EvalError> {
    Ok(match e {
        Expr::Num(n) => *n,
        Expr::Sym(id, span) => env.value(*id, *span)?,
        Expr::Here => env.here()?,
        Expr::Size(id, span) => env.size(*id, *span)?,
        Expr::Unary(op, a) => {
            let v = eval(a, env)?;
            match op {
                UnOp::Neg => v.checked_neg().ok_or(EvalError::Overflow(None))?,
                UnOp::Not => !v,
                UnOp::LogicalNot => i64::from(v == 0),
                UnOp::Low => v & 0xFF,
                UnOp::High => (v >> 8) & 0xFF,
            }
        }
        Expr::Binary(op, a, b, span) => {
            let x = eval(a, env)?;
            let y = eval(b, env)?;
            let overflow = EvalError::Overflow(Some(*span));
            match op {
                BinOp::Div | BinOp::Rem if y == 0 => return Err(EvalError::DivZero(*span)),
                BinOp::Mul => x.checked_mul(y).ok_or(overflow)?,
                BinOp::Div => x.checked_div(y).ok_or(overflow)?,
                BinOp::Rem => x.checked_rem(y).ok_or(overflow)?,
                BinOp::Add => x.checked_add(y).ok_or(overflow)?,
                BinOp::Sub => x.checked_sub(y).ok_or(overflow)?,
                BinOp::Shl | BinOp::Shr if !(0..64).contains(&y) => {
                    return Err(EvalError::BadShift(*span, y))
                }
                BinOp::Shl => x.wrapping_shl(y as u32),
                BinOp::Shr => x >> y,
                BinOp::And => x & y,
                BinOp::Xor => x ^ y,
                BinOp::Or => x | y,
                BinOp::Eq => i64::from(x == y),
                BinOp::Ne => i64::from(x != y),
                BinOp::Lt => i64::from(x < y),
                BinOp::Le => i64::from(x <= y),
                BinOp::Gt => i64::from(x > y),
                BinOp::Ge => i64::from(x >= y),
                BinOp::LogicalAnd => i64::from(x != 0 && y != 0),
                BinOp::LogicalOr => i64::from(x != 0 || y != 0),
            }
        }
    })
}

/// A cursor over an operand field that parses expressions, strings and the
/// punctuation between operands.
pub struct Parser<'a, 'i> {
    text: &'a str,
    pos: usize,
    base: usize,
    file: FileId,
    /// When true, whitespace followed by an operator glued to its right operand
    /// (`3,y %1000 label`, `$40 -1`) ends the expression: the bit instructions
    /// allow operands separated by spaces only.
    pub ws_separates: bool,
    intern: &'i mut dyn FnMut(&str) -> SymId,
    /// When true, binary operators have no precedence and group left to
    /// right (the AS11 rule: `2+3*4` is 20).
    pub left_to_right: bool,
    /// ASM11's operators: a single `<` or `>` between two values shifts
    /// (`#JMP<8|3`, `~1~>16`; comparisons are written with blanks around
    /// them in conditions, `#if ROM < $D000`, which split there first),
    /// `\` is the remainder, as `%`, and `[` before a value is its low byte
    /// (a register's offset: `sta [TFLG1,x` with TFLG1 = REGS+$23 is
    /// `sta $23,x`).
    pub asm11_operators: bool,
    /// Operators and parentheses parsed so far in the current expression;
    /// capped so that parsing, evaluation and dropping never recurse deeply.
    nodes: usize,
}

/// Most operators and parentheses one expression may have.
pub const MAX_EXPR_NODES: usize = 256;

type PResult<T> = Result<T, Diagnostic>;

impl<'a, 'i> Parser<'a, 'i> {
    /// A parser over `text`, which starts at byte `base` of file `file`;
    /// `intern` maps a symbol name to its id.
    pub fn new(
        text: &'a str,
        base: usize,
        file: FileId,
        intern: &'i mut dyn FnMut(&str) -> SymId,
    ) -> Parser<'a, 'i> {
        Parser {
            text,
            pos: 0,
            base,
            file,
            ws_separates: false,
            left_to_right: false,
            asm11_operators: false,
            intern,
            nodes: 0,
        }
    }

    /// The span of `from..to` (offsets into the text).
    pub fn span(&self, from: usize, to: usize) -> Span {
        Span::new(self.file, self.base + from, self.base + to)
    }

    /// Current offset into the text.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves back to an earlier offset (from [`Parser::pos`]).
    pub fn reset(&mut self, pos: usize) {
        self.pos = pos.min(self.text.len());
    }

    /// The text not yet consumed.
    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// Skips spaces and tabs; true if any were skipped.
    pub fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c == ' ' || c == '\t' {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.pos > start
    }

    /// True when only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.text.len()
    }

    /// The next character.
    pub fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.text[self.pos..].chars().nth(n)
    }

    /// Consumes `c` (after whitespace) if it is next.
    pub fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// If the next word (after whitespace) is `x` or `y` standing alone,
    /// consumes it and returns it in lower case.
    pub fn index_register(&mut self) -> Option<char> {
        self.skip_ws();
        let c = self.peek()?.to_ascii_lowercase();
        if c != 'x' && c != 'y' {
            return None;
        }
        if self.peek_at(1).is_some_and(is_ident_char) {
            return None;
        }
        self.pos += 1;
        Some(c)
    }

    /// A syntax error at the current position.
    pub fn error_here(&self, message: impl Into<String>) -> Diagnostic {
        let len = self.peek().map_or(0, char::len_utf8);
        Diagnostic::new(Code::Syntax, self.span(self.pos, self.pos + len), message)
    }

    /// A description of what comes next, for messages.
    pub fn found(&self) -> String {
        match self.peek() {
            None => "the end of the line".to_string(),
            Some(_) => {
                let word: String = self.rest().chars().take(12).collect();
                format!("`{}`", word.trim_end())
            }
        }
    }

    /// Parses a quoted string if one is next (`"..."` or `'...'`): its
    /// characters and the span including the quotes.
    pub fn string(&mut self) -> PResult<Option<(String, Span)>> {
        self.skip_ws();
        let Some(q) = self.peek().filter(|&c| c == '"' || c == '\'') else {
            return Ok(None);
        };
        self.delimited(q).map(Some)
    }

    /// Parses text between two `delim` characters (the first is next).
    pub fn delimited(&mut self, delim: char) -> PResult<(String, Span)> {
        let start = self.pos;
        self.pos += delim.len_utf8();
        match self.text[self.pos..].find(delim) {
            Some(i) => {
                let s = self.text[self.pos..self.pos + i].to_string();
                self.pos += i + delim.len_utf8();
                Ok((s, self.span(start, self.pos)))
            }
            None => {
                let span = self.span(start, self.text.len());
                self.pos = self.text.len();
                Err(Diagnostic::new(
                    Code::UnterminatedString,
                    span,
                    format!("unterminated string: no closing {delim}"),
                )
                .hint(format!("add a closing {delim}")))
            }
        }
    }

    /// Parses one expression and returns it with its span.
    pub fn expr(&mut self) -> PResult<(Expr, Span)> {
        self.skip_ws();
        self.nodes = 0;
        let start = self.pos;
        let e = self.binary(0)?;
        Ok((e, self.span(start, self.pos)))
    }

    /// Counts one operator or parenthesis against [`MAX_EXPR_NODES`].
    fn node(&mut self) -> PResult<()> {
        self.nodes += 1;
        if self.nodes > MAX_EXPR_NODES {
            return Err(self.error_here(format!(
                "expression too complex (more than {MAX_EXPR_NODES} operators and parentheses)"
            )));
        }
        Ok(())
    }

    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        loop {
            let save = self.pos;
            let had_ws = self.skip_ws();
            let Some((op, prec, len)) = self.peek_binop() else {
                self.pos = save;
                break;
            };
            if prec < min_prec && !self.left_to_right {
                self.pos = save;
                break;
            }
            if self.ws_separates && had_ws {
                let first = self.peek().unwrap_or(' ');
                let after = self.text[self.pos + len..].chars().next();
                let glued = after.is_some_and(|c| c != ' ' && c != '\t') || after.is_none();
                if matches!(first, '-' | '+' | '*' | '%' | '<' | '>') && glued {
                    self.pos = save;
                    break;
                }
            }
            let op_span = self.span(self.pos, self.pos + len);
            self.node()?;
            self.pos += len;
            let rhs = if self.left_to_right {
                self.unary()?
            } else {
                self.binary(prec + 1)?
            };
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), op_span);
        }
        Ok(lhs)
    }

    fn peek_binop(&self) -> Option<(BinOp, u8, usize)> {
        let r = self.rest().as_bytes();
        let two = |a: u8, b: u8| r.len() >= 2 && r[0] == a && r[1] == b;
        Some(match r.first()? {
            b'|' if two(b'|', b'|') => (BinOp::LogicalOr, 1, 2),
            b'&' if two(b'&', b'&') => (BinOp::LogicalAnd, 2, 2),
            b'|' => (BinOp::Or, 3, 1),
            b'^' => (BinOp::Xor, 4, 1),
            b'&' => (BinOp::And, 5, 1),
            b'=' if two(b'=', b'=') => (BinOp::Eq, 6, 2),
            b'=' => (BinOp::Eq, 6, 1),
            b'!' if two(b'!', b'=') => (BinOp::Ne, 6, 2),
            b'<' if two(b'<', b'>') => (BinOp::Ne, 6, 2),
            b'<' if two(b'<', b'=') => (BinOp::Le, 7, 2),
            b'>' if two(b'>', b'=') => (BinOp::Ge, 7, 2),
            b'<' if two(b'<', b'<') => (BinOp::Shl, 8, 2),
            b'>' if two(b'>', b'>') => (BinOp::Shr, 8, 2),
            b'<' if self.asm11_operators => (BinOp::Shl, 8, 1),
            b'>' if self.asm11_operators => (BinOp::Shr, 8, 1),
            b'<' => (BinOp::Lt, 7, 1),
            b'>' => (BinOp::Gt, 7, 1),
            b'+' => (BinOp::Add, 9, 1),
            b'-' => (BinOp::Sub, 9, 1),
            b'*' => (BinOp::Mul, 10, 1),
            b'/' => (BinOp::Div, 10, 1),
            b'%' => (BinOp::Rem, 10, 1),
            b'\\' if self.asm11_operators => (BinOp::Rem, 10, 1),
            _ => return None,
        })
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.skip_ws();
        let op = match self.peek() {
            Some('-') => Some(UnOp::Neg),
            Some('~') => Some(UnOp::Not),
            Some('!') => Some(UnOp::LogicalNot),
            Some('<') => Some(UnOp::Low),
            Some('>') => Some(UnOp::High),
            Some('[') if self.asm11_operators => Some(UnOp::Low),
            Some('+') => {
                self.node()?;
                self.pos += 1;
                return self.unary();
            }
            _ => None,
        };
        if let Some(op) = op {
            self.node()?;
            self.pos += 1;
            let inner = self.unary()?;
            // Fold constants so `-1` stays a plain number.
            if let Expr::Num(n) = inner {
                return Ok(Expr::Num(
                    eval(&Expr::Unary(op, Box::new(Expr::Num(n))), &mut NoEnv).unwrap_or(n),
                ));
            }
            return Ok(Expr::Unary(op, Box::new(inner)));
        }
        self.primary()
    }

    fn primary(&mut self) -> PResult<Expr> {
        self.skip_ws();
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(self.error_here("expected a value, found the end of the line"));
        };
        match c {
            '(' => {
                self.node()?;
                self.pos += 1;
                let e = self.binary(0)?;
                if !self.eat(')') {
                    return Err(self.error_here(format!("expected `)`, found {}", self.found())));
                }
                Ok(e)
            }
            '*' => {
                self.pos += 1;
                Ok(Expr::Here)
            }
            // `#A+#B`: AS11 sources repeat the immediate mark before each
            // term of an immediate operand; it changes nothing.
            '#' => {
                self.pos += 1;
                self.primary()
            }
            '$' => {
                self.pos += 1;
                self.radix_digits(start, 16, "`$` must be followed by hexadecimal digits")
            }
            '%' => {
                self.pos += 1;
                self.radix_digits(start, 2, "`%` must be followed by binary digits (0 and 1)")
            }
            '@' => {
                self.pos += 1;
                self.radix_digits(start, 8, "`@` must be followed by octal digits (0-7)")
            }
            '&' if self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) => {
                // `&10`: an explicit decimal number.
                self.pos += 1;
                self.radix_digits(start, 10, "`&` must be followed by decimal digits")
            }
            '\'' if is_open_char(self.rest()) => {
                // `'A` without its closing quote: one character.
                self.pos += 1;
                let ch = self.peek().unwrap_or(' ');
                self.pos += ch.len_utf8();
                cp1252_byte(ch).map(|b| Expr::Num(b as i64)).ok_or_else(|| {
                    Diagnostic::new(
                        Code::BadCharacter,
                        self.span(start, self.pos),
                        format!("`{ch}` has no byte in Windows-1252"),
                    )
                })
            }
            '\'' | '"' => {
                let (s, span) = self.delimited(c)?;
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(ch), None) => match cp1252_byte(ch) {
                        Some(b) => Ok(Expr::Num(b as i64)),
                        None => Err(Diagnostic::new(
                            Code::BadCharacter,
                            span,
                            format!("`{ch}` has no byte in Windows-1252"),
                        )),
                    },
                    (None, _) => Err(Diagnostic::new(
                        Code::Syntax,
                        span,
                        "empty character constant",
                    )),
                    _ => Err(Diagnostic::new(
                        Code::Syntax,
                        span,
                        "a character constant holds one character",
                    )
                    .hint("strings belong in `dc.b` or `fcc`")),
                }
            }
            // `::NAME`: the size of what NAME labels (ASM11).
            ':' if self.peek_at(1) == Some(':') && self.peek_at(2).is_some_and(is_ident_start) => {
                self.pos += 2;
                let name_start = self.pos;
                let end = self
                    .rest()
                    .char_indices()
                    .find(|&(_, ch)| !is_ident_char(ch))
                    .map_or(self.text.len(), |(i, _)| self.pos + i);
                let name = &self.text[name_start..end];
                self.pos = end;
                let id = (self.intern)(name);
                Ok(Expr::Size(id, self.span(start, end)))
            }
            c if c.is_ascii_digit() => self.number(start),
            c if is_ident_start(c) => {
                let end = self
                    .rest()
                    .char_indices()
                    .find(|&(_, ch)| !is_ident_char(ch))
                    .map_or(self.text.len(), |(i, _)| self.pos + i);
                let name = &self.text[self.pos..end];
                self.pos = end;
                // `high(x)` / `low(x)`: the byte functions of ASM11 (a name
                // glued to `(` cannot mean anything else).
                let byte_fn = if name.eq_ignore_ascii_case("high") {
                    Some(UnOp::High)
                } else if name.eq_ignore_ascii_case("low") {
                    Some(UnOp::Low)
                } else {
                    None
                };
                if let (Some(op), Some('(')) = (byte_fn, self.peek()) {
                    let inner = self.primary()?;
                    return Ok(match inner {
                        Expr::Num(n) => Expr::Num(
                            eval(&Expr::Unary(op, Box::new(Expr::Num(n))), &mut NoEnv).unwrap_or(n),
                        ),
                        e => Expr::Unary(op, Box::new(e)),
                    });
                }
                let id = (self.intern)(name);
                Ok(Expr::Sym(id, self.span(start, end)))
            }
            _ => Err(self.error_here(format!("expected a value, found {}", self.found()))),
        }
    }

    fn word_end(&self) -> usize {
        self.rest()
            .char_indices()
            .find(|&(_, ch)| !ch.is_alphanumeric() && ch != '_')
            .map_or(self.text.len(), |(i, _)| self.pos + i)
    }

    fn radix_digits(&mut self, start: usize, radix: u32, what: &str) -> PResult<Expr> {
        let end = self.word_end();
        let digits = &self.text[self.pos..end];
        self.pos = end;
        let span = self.span(start, end);
        if digits.is_empty() {
            return Err(Diagnostic::new(Code::BadNumber, span, what.to_string()));
        }
        parse_radix(digits, radix)
            .map(Expr::Num)
            .ok_or_else(|| bad_number(span, &self.text[start..end]))
    }

    fn number(&mut self, start: usize) -> PResult<Expr> {
        let end = self.word_end();
        let word = &self.text[start..end];
        self.pos = end;
        let span = self.span(start, end);
        let lower = word.to_ascii_lowercase();
        let value = if let Some(hex) = lower.strip_prefix("0x") {
            parse_radix(hex, 16)
        } else if let Some(hex) = lower.strip_suffix('h') {
            parse_radix(hex, 16)
        } else if let Some(bin) = lower.strip_prefix("0b") {
            parse_radix(bin, 2)
        } else {
            parse_radix(&lower, 10)
        };
        value.map(Expr::Num).ok_or_else(|| bad_number(span, word))
    }
}

fn bad_number(span: Span, word: &str) -> Diagnostic {
    let d = Diagnostic::new(
        Code::BadNumber,
        span,
        format!("`{word}` is not a valid number"),
    );
    if word
        .chars()
        .any(|c| c.is_ascii_hexdigit() && c.is_ascii_alphabetic())
    {
        d.hint("hexadecimal numbers are written `$1F`, `0x1F` or `1Fh`; binary `%0101`")
    } else {
        d.hint("numbers are decimal (`31`), `$1F`, `%0101`, `@17`, `0x1F` or `1Fh`")
    }
}

fn parse_radix(digits: &str, radix: u32) -> Option<i64> {
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    if digits.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)? as i64;
        v = v.checked_mul(radix as i64)?.checked_add(d)?;
    }
    Some(v)
}

struct NoEnv;

impl Env for NoEnv {
    fn value(&mut self, _: SymId, _: Span) -> Result<i64, EvalError> {
        Err(EvalError::Unknown)
    }
    fn here(&self) -> Result<i64, EvalError> {
        Err(EvalError::Unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Vals(Vec<(String, i64)>);

    impl Env for Vals {
        fn value(&mut self, id: SymId, span: Span) -> Result<i64, EvalError> {
            self.0
                .get(id as usize)
                .map(|v| v.1)
                .ok_or(EvalError::Undefined(id, span))
        }
        fn here(&self) -> Result<i64, EvalError> {
            Ok(0xC000)
        }
    }

    fn value(text: &str) -> Result<i64, String> {
        // Ids follow the order of the values in `Vals` below.
        let mut names: Vec<String> = vec!["boardsize".into(), "map_page".into()];
        let mut intern = |n: &str| {
            let l = n.to_lowercase();
            match names.iter().position(|x| *x == l) {
                Some(i) => i as SymId,
                None => {
                    names.push(l);
                    (names.len() - 1) as SymId
                }
            }
        };
        let mut p = Parser::new(text, 0, 0, &mut intern);
        let (e, _) = p.expr().map_err(|d| d.message)?;
        if !p.at_end() {
            return Err(format!("trailing {}", p.rest()));
        }
        let mut env = Vals(vec![("boardsize".into(), 336), ("map_page".into(), 0)]);
        eval(&e, &mut env).map_err(|e| format!("{e:?}"))
    }

    #[test]
    fn numbers_in_every_notation() {
        for (t, v) in [
            ("$1F", 31),
            ("%0101", 5),
            ("@17", 15),
            ("0x1F", 31),
            ("1Fh", 31),
            ("0FFh", 255),
            ("31", 31),
            ("'A'", 65),
            ("\"ä\"", 0xE4),
            ("0b101", 5),
            ("$ffff", 65535),
        ] {
            assert_eq!(value(t), Ok(v), "{t}");
        }
        assert!(value("12a").unwrap_err().contains("not a valid number"));
        assert!(value("$").is_err());
        assert!(value("%102").is_err());
        assert!(value("99999999999999999999").is_err());
    }

    #[test]
    fn operators_and_precedence() {
        for (t, v) in [
            ("1+2*3", 7),
            ("(1+2)*3", 9),
            ("-1", -1),
            ("~0", -1),
            ("10/3", 3),
            ("10%3", 1),
            ("1<<4|1", 17),
            ("$1234>>8", 0x12),
            ("<$1234", 0x34),
            (">$1234", 0x12),
            ("$F0&$3C^$FF", (0xF0 & 0x3C) ^ 0xFF),
            ("boardSize - 1", 335),
            ("$00+MAP_PAGE", 0),
            ("* + 2", 0xC002),
            ("1 == 1 && 2 > 1", 1),
            ("3 <> 3", 0),
            ("!0", 1),
            ("-(2+3)", -5),
        ] {
            assert_eq!(value(t), Ok(v), "{t}");
        }
        assert!(value("1/0").unwrap_err().contains("DivZero"));
        // Shift counts outside 0..63 are errors, not a quiet 0 or -1.
        for t in ["1<<64", "1<<-1", "-8>>64", "1>>-3"] {
            assert!(value(t).unwrap_err().contains("BadShift"), "{t}");
        }
        assert_eq!(value("1<<63"), Ok(i64::MIN));
        // Past 64 bits is an error, never a wrapped value.
        for t in [
            "65536*65536*65536*65536+$C000",
            "$7FFFFFFFFFFFFFFF+1",
            "-(1<<63)",
            "(1<<63)-1",
            "(1<<63)/-1",
        ] {
            assert!(value(t).unwrap_err().contains("Overflow"), "{t}");
        }
        assert_eq!(value("$7FFFFFFFFFFFFFFF"), Ok(i64::MAX));
        assert_eq!(value("-8>>1"), Ok(-4));
        assert!(value("nope").unwrap_err().contains("Undefined"));
        assert!(value("(1").unwrap_err().contains("expected `)`"));
        assert!(value("'ab'").is_err());
        // A character constant without its closing quote (AS11 style).
        assert_eq!(value("'a"), Ok(97));
        assert_eq!(value("&10+1"), Ok(11));
        // Deep nesting and long chains are refused, not a stack overflow.
        assert!(value(&"(".repeat(100_000))
            .unwrap_err()
            .contains("too complex"));
        assert!(value(&"-".repeat(100_000))
            .unwrap_err()
            .contains("too complex"));
        assert!(value(&"1+".repeat(100_000))
            .unwrap_err()
            .contains("too complex"));
        assert_eq!(value(&format!("{}1", "1+".repeat(200))), Ok(201));
    }

    #[test]
    fn whitespace_can_separate_operands() {
        let mut intern = |_: &str| 0;
        let mut p = Parser::new("$40 %1000 -1", 0, 0, &mut intern);
        p.ws_separates = true;
        assert_eq!(p.expr().map(|e| e.0), Ok(Expr::Num(0x40)));
        assert_eq!(p.expr().map(|e| e.0), Ok(Expr::Num(8)));
        assert_eq!(p.expr().map(|e| e.0), Ok(Expr::Num(-1)));
        let mut p = Parser::new("$40 - 1", 0, 0, &mut intern);
        p.ws_separates = true;
        assert!(matches!(p.expr().map(|e| e.0), Ok(Expr::Binary(..))));
    }
}
