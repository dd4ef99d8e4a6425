//! Breakpoint conditions: a small expression language over the registers and
//! condition-code flags of the M68HC11 programming model (RM section 3.1) and
//! memory, e.g. `A == 4`, `[coordy] == 5`, `B >= $80`, `[cellAddress].w == 136`.
//!
//! Grammar (lowest precedence first; all arithmetic on i64):
//! ```text
//! expr    := or
//! or      := and ( "||" and )*
//! and     := cmp ( "&&" cmp )*
//! cmp     := bitor ( ("=="|"!="|"<"|"<="|">"|">=") bitor )?
//! bitor   := bitxor ( "|" bitxor )*
//! bitxor  := bitand ( "^" bitand )*
//! bitand  := shift ( "&" shift )*
//! shift   := sum ( ("<<"|">>") sum )*
//! sum     := prod ( ("+"|"-") prod )*
//! prod    := unary ( ("*"|"/"|"%") unary )*
//! unary   := ("-"|"!"|"~") unary | primary
//! primary := number | "(" expr ")" | "[" expr "]" (".b"|".w")?
//!          | register | flag | symbol | "@" symbol
//! number  := $hex | 0xhex | %bin | 0bbin | decimal | 'c'
//! register:= A | B | D | X | Y | SP | PC | CCR | CYCLES   (any case)
//! flag    := C | Z | N | V | H | I | S  or  CCR.<letter> (CCR.X for the X mask)
//! ```
//! Register and flag names win over program symbols of the same name;
//! `@name` always means the symbol. `[e]` reads the byte at `e` (with `peek`,
//! so evaluating a condition never changes the machine), `[e].w` the
//! big-endian word at `e`, `e+1`.
//!
//! Nothing wraps quietly: a division by zero, a result past 64 bits and a
//! memory address outside $0000-$FFFF are errors where the condition is
//! parsed or bound (constants and symbols are folded then), and a
//! [`Fault`] where they depend on registers or memory.

use crate::image::Program;
use std::fmt;

/// A register or pseudo-register a condition can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    /// Accumulator A.
    A,
    /// Accumulator B.
    B,
    /// D = A:B.
    D,
    /// Index register X.
    X,
    /// Index register Y.
    Y,
    /// Stack pointer.
    Sp,
    /// Program counter (the address of the instruction about to run).
    Pc,
    /// Condition code register.
    Ccr,
    /// E-cycles since reset.
    Cycles,
}

/// What an expression reads when it is evaluated.
pub trait EvalContext {
    /// The value of a register.
    fn reg(&self, reg: Reg) -> u64;
    /// A byte of memory, without side effects.
    fn peek(&self, addr: u16) -> u8;
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnOp {
    Neg,
    Not,
    BitNot,
}

/// A parsed expression; symbols stay names until [`Expr::bind`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Num(i64),
    Reg(Reg),
    /// A CCR bit mask (0x01 for C ...): evaluates to 0 or 1.
    Flag(u8),
    /// A program symbol, with the column it was written at.
    Sym(String, usize),
    /// Memory read of 1 or 2 bytes; the column of its `[`.
    Mem(Box<Node>, u8, usize),
    /// An operation on values not all known before the run; the column
    /// of its operator.
    Un(UnOp, Box<Node>, usize),
    Bin(BinOp, Box<Node>, Box<Node>, usize),
}

/// Why a condition has no value as it is evaluated: what a constant would
/// have been refused for when the condition was parsed or bound, met with
/// the values of registers or memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// A division or remainder by zero.
    #[error("division by zero")]
    DivZero,
    /// A result that does not fit in 64 bits.
    #[error("the value does not fit in 64 bits")]
    Overflow,
    /// A memory read outside $0000-$FFFF (the first address outside).
    #[error("memory address {} is outside $0000-$FFFF", show_address(*.0))]
    Address(i64),
}

fn show_address(v: i64) -> String {
    if v < 0 {
        v.to_string()
    } else {
        format!("${v:X}")
    }
}

/// `op` on two values. Shift counts outside 0..63 shift everything out
/// (constant counts are refused when parsing).
fn apply_bin(op: BinOp, a: i64, b: i64) -> Result<i64, Fault> {
    let checked = |v: Option<i64>| v.ok_or(Fault::Overflow);
    Ok(match op {
        BinOp::Or => (a != 0 || b != 0) as i64,
        BinOp::And => (a != 0 && b != 0) as i64,
        BinOp::Eq => (a == b) as i64,
        BinOp::Ne => (a != b) as i64,
        BinOp::Lt => (a < b) as i64,
        BinOp::Le => (a <= b) as i64,
        BinOp::Gt => (a > b) as i64,
        BinOp::Ge => (a >= b) as i64,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::BitAnd => a & b,
        BinOp::Shl if (0..64).contains(&b) => a << b,
        BinOp::Shr if (0..64).contains(&b) => a >> b,
        BinOp::Shl => 0,
        BinOp::Shr => {
            if a < 0 {
                -1
            } else {
                0
            }
        }
        BinOp::Add => checked(a.checked_add(b))?,
        BinOp::Sub => checked(a.checked_sub(b))?,
        BinOp::Mul => checked(a.checked_mul(b))?,
        BinOp::Div | BinOp::Rem if b == 0 => return Err(Fault::DivZero),
        BinOp::Div => checked(a.checked_div(b))?,
        BinOp::Rem => checked(a.checked_rem(b))?,
    })
}

fn apply_un(op: UnOp, v: i64) -> Result<i64, Fault> {
    Ok(match op {
        UnOp::Neg => v.checked_neg().ok_or(Fault::Overflow)?,
        UnOp::Not => (v == 0) as i64,
        UnOp::BitNot => !v,
    })
}

/// The first address of a `width`-byte read at `v`, if all of it is in
/// $0000-$FFFF.
fn mem_address(v: i64, width: u8) -> Result<u16, Fault> {
    let last = v.saturating_add(i64::from(width) - 1);
    match (u16::try_from(v), u16::try_from(last)) {
        (Ok(a), Ok(_)) => Ok(a),
        _ if v < 0 => Err(Fault::Address(v)),
        _ => Err(Fault::Address(v.max(0x1_0000))),
    }
}

/// A binary node, computed now if both sides are constants; a fault of a
/// constant (`1/0`, `[cell+99999]` after binding) is an error at `col`.
fn bin_node(op: BinOp, l: Node, r: Node, col: usize) -> Result<Node, ConditionError> {
    let at = |f: Fault| syntax(col, f.to_string());
    if let (Node::Num(a), Node::Num(b)) = (&l, &r) {
        return apply_bin(op, *a, *b).map(Node::Num).map_err(at);
    }
    if matches!(op, BinOp::Div | BinOp::Rem) && r == Node::Num(0) {
        return Err(at(Fault::DivZero));
    }
    Ok(Node::Bin(op, Box::new(l), Box::new(r), col))
}

fn un_node(op: UnOp, e: Node, col: usize) -> Result<Node, ConditionError> {
    match e {
        Node::Num(v) => apply_un(op, v)
            .map(Node::Num)
            .map_err(|f| syntax(col, f.to_string())),
        e => Ok(Node::Un(op, Box::new(e), col)),
    }
}

fn mem_node(e: Node, width: u8, col: usize) -> Result<Node, ConditionError> {
    if let Node::Num(v) = e {
        mem_address(v, width).map_err(|f| syntax(col, f.to_string()))?;
    }
    Ok(Node::Mem(Box::new(e), width, col))
}

/// A condition expression as written, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    src: String,
    root: Node,
}

/// A condition whose symbols are resolved to addresses: ready to evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundExpr {
    root: Node,
}

/// Why a condition could not be parsed or bound. `column` is 1-based into
/// the condition text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConditionError {
    /// The text does not follow the grammar at this column.
    #[error("column {column}: {message}")]
    Syntax {
        /// 1-based column of the offending character.
        column: usize,
        /// What was expected or found.
        message: String,
    },
    /// A name that is neither a register, a flag nor a program symbol.
    #[error(
        "column {column}: unknown symbol `{name}` (not a register, flag or label of the program)"
    )]
    UnknownSymbol {
        /// 1-based column where the name starts.
        column: usize,
        /// The name as written.
        name: String,
    },
}

impl ConditionError {
    /// The 1-based column the error points at.
    pub fn column(&self) -> usize {
        match self {
            ConditionError::Syntax { column, .. }
            | ConditionError::UnknownSymbol { column, .. } => *column,
        }
    }

    /// The source line with a caret under the offending column, then the message.
    pub fn render(&self, src: &str) -> String {
        format!(
            "{src}\n{}^\n{self}",
            " ".repeat(self.column().saturating_sub(1))
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Num(i64),
    Ident(String),
    At,
    Punct(&'static str),
    End,
}

const PUNCTS: &[&str] = &[
    "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "<", ">", "|", "^", "&", "+", "-", "*", "/",
    "%", "!", "~", "(", ")", "[", "]", ".",
];

fn syntax(column: usize, message: impl Into<String>) -> ConditionError {
    ConditionError::Syntax {
        column,
        message: message.into(),
    }
}

/// Splits the text into tokens with their 1-based columns.
fn lex(src: &str) -> Result<Vec<(Tok, usize)>, ConditionError> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let col = i + 1;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let digits = |start: usize, radix: u32| -> (usize, Option<i64>) {
            let mut j = start;
            while j < bytes.len() && (bytes[j] as char).is_digit(radix) {
                j += 1;
            }
            let text = &src[start..j];
            let value = if text.is_empty() {
                None
            } else {
                i64::from_str_radix(text, radix).ok()
            };
            (j, value)
        };
        // `%` is binary only when a binary digit follows and the previous
        // token cannot end an operand (otherwise it is the remainder operator).
        let prev_is_operand = matches!(
            out.last(),
            Some((Tok::Num(_), _))
                | Some((Tok::Ident(_), _))
                | Some((Tok::Punct(")"), _))
                | Some((Tok::Punct("]"), _))
        );
        let radix_prefix = match c {
            b'$' => Some((1, 16)),
            b'%' if !prev_is_operand && matches!(bytes.get(i + 1), Some(b'0') | Some(b'1')) => {
                Some((1, 2))
            }
            b'0' if matches!(bytes.get(i + 1), Some(b'x') | Some(b'X')) => Some((2, 16)),
            b'0' if matches!(bytes.get(i + 1), Some(b'b') | Some(b'B'))
                && matches!(bytes.get(i + 2), Some(b'0') | Some(b'1')) =>
            {
                Some((2, 2))
            }
            _ => None,
        };
        if let Some((skip, radix)) = radix_prefix {
            let (end, value) = digits(i + skip, radix);
            let value =
                value.ok_or_else(|| syntax(col, "expected digits after the radix prefix"))?;
            if end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                return Err(syntax(end + 1, "unexpected character in a number"));
            }
            out.push((Tok::Num(value), col));
            i = end;
        } else if c.is_ascii_digit() {
            let (end, value) = digits(i, 10);
            let value = value.ok_or_else(|| syntax(col, "number too large"))?;
            if end < bytes.len() && (bytes[end].is_ascii_alphabetic() || bytes[end] == b'_') {
                return Err(syntax(end + 1, "unexpected character in a number"));
            }
            out.push((Tok::Num(value), col));
            i = end;
        } else if c == b'\'' {
            let ch = src[i + 1..]
                .chars()
                .next()
                .ok_or_else(|| syntax(col, "expected a character after '"))?;
            let after = i + 1 + ch.len_utf8();
            if bytes.get(after) != Some(&b'\'') {
                return Err(syntax(after + 1, "expected closing ' after the character"));
            }
            out.push((Tok::Num(ch as i64), col));
            i = after + 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            out.push((Tok::Ident(src[i..j].to_string()), col));
            i = j;
        } else if c == b'@' {
            out.push((Tok::At, col));
            i += 1;
        } else if let Some(p) = PUNCTS.iter().find(|p| src[i..].starts_with(**p)) {
            out.push((Tok::Punct(p), col));
            i += p.len();
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(syntax(col, format!("unexpected character `{ch}`")));
        }
    }
    out.push((Tok::End, src.len() + 1));
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    /// Parentheses, brackets and prefix operators open around this point.
    depth: usize,
    /// Operators and brackets parsed so far (a flat `1+1+...` chain nests
    /// just as deep when evaluated and dropped).
    nodes: usize,
}

/// Deepest nesting of parentheses, brackets and prefix operators: the
/// parser, evaluation and dropping recurse once per level, and a thread's
/// stack must hold them all.
pub const MAX_DEPTH: usize = 64;

/// Most operators and brackets one condition may have.
pub const MAX_NODES: usize = 256;

impl Parser {
    /// Counts one more operator or bracket; an error past [`MAX_NODES`].
    fn count(&mut self) -> Result<(), ConditionError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(syntax(
                self.col(),
                format!(
                    "the expression has more than {MAX_NODES} operators and brackets; split it up"
                ),
            ));
        }
        Ok(())
    }

    /// Enters one nesting level; an error past [`MAX_DEPTH`].
    fn enter(&mut self) -> Result<(), ConditionError> {
        self.depth += 1;
        self.count()?;
        if self.depth > MAX_DEPTH {
            return Err(syntax(
                self.col(),
                format!("the expression nests more than {MAX_DEPTH} levels of brackets and prefix operators"),
            ));
        }
        Ok(())
    }

    fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map(|t| &t.0).unwrap_or(&Tok::End)
    }
    fn col(&self) -> usize {
        self.toks.get(self.pos).map(|t| t.1).unwrap_or(1)
    }
    fn bump(&mut self) {
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
    }
    fn eat(&mut self, p: &str) -> bool {
        if matches!(self.peek(), Tok::Punct(q) if *q == p) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, p: &str) -> Result<(), ConditionError> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(syntax(self.col(), format!("expected `{p}`")))
        }
    }

    fn binary_level(
        &mut self,
        ops: &[(&str, BinOp)],
        next: fn(&mut Parser) -> Result<Node, ConditionError>,
        repeat: bool,
    ) -> Result<Node, ConditionError> {
        let mut lhs = next(self)?;
        loop {
            let found = ops
                .iter()
                .find(|(p, _)| matches!(self.peek(), Tok::Punct(q) if q == p));
            let Some((_, op)) = found else { return Ok(lhs) };
            let op = *op;
            let col = self.col();
            self.count()?;
            self.bump();
            let rhs = next(self)?;
            if matches!(op, BinOp::Shl | BinOp::Shr) {
                if let Node::Num(n) = rhs {
                    if !(0..64).contains(&n) {
                        return Err(syntax(
                            self.col(),
                            format!("shift by {n}: shift counts are 0..63 (values have 64 bits)"),
                        ));
                    }
                }
            }
            lhs = bin_node(op, lhs, rhs, col)?;
            if !repeat {
                return Ok(lhs);
            }
        }
    }

    fn or(&mut self) -> Result<Node, ConditionError> {
        self.binary_level(&[("||", BinOp::Or)], Parser::and, true)
    }
    fn and(&mut self) -> Result<Node, ConditionError> {
        self.binary_level(&[("&&", BinOp::And)], Parser::cmp, true)
    }
    fn cmp(&mut self) -> Result<Node, ConditionError> {
        let ops = [
            ("==", BinOp::Eq),
            ("!=", BinOp::Ne),
            ("<=", BinOp::Le),
            (">=", BinOp::Ge),
            ("<", BinOp::Lt),
            (">", BinOp::Gt),
        ];
        self.binary_level(&ops, Parser::bitor, false)
    }
    fn bitor(&mut self) -> Result<Node, ConditionError> {
        self.binary_level(&[("|", BinOp::BitOr)], Parser::bitxor, true)
    }
    fn bitxor(&mut self) -> Result<Node, ConditionError> {
        self.binary_level(&[("^", BinOp::BitXor)], Parser::bitand, true)
    }
    fn bitand(&mut self) -> Result<Node, ConditionError> {
        self.binary_level(&[("&", BinOp::BitAnd)], Parser::shift, true)
    }
    fn shift(&mut self) -> Result<Node, ConditionError> {
        self.binary_level(&[("<<", BinOp::Shl), (">>", BinOp::Shr)], Parser::sum, true)
    }
    fn sum(&mut self) -> Result<Node, ConditionError> {
        self.binary_level(&[("+", BinOp::Add), ("-", BinOp::Sub)], Parser::prod, true)
    }
    fn prod(&mut self) -> Result<Node, ConditionError> {
        let ops = [("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)];
        self.binary_level(&ops, Parser::unary, true)
    }
    fn unary(&mut self) -> Result<Node, ConditionError> {
        for (p, op) in [("-", UnOp::Neg), ("!", UnOp::Not), ("~", UnOp::BitNot)] {
            let col = self.col();
            if self.eat(p) {
                self.enter()?;
                let inner = self.unary()?;
                self.depth -= 1;
                return un_node(op, inner, col);
            }
        }
        self.primary()
    }
    fn primary(&mut self) -> Result<Node, ConditionError> {
        let col = self.col();
        match self.peek().clone() {
            Tok::Num(n) => {
                self.bump();
                Ok(Node::Num(n))
            }
            Tok::Punct("(") => {
                self.enter()?;
                self.bump();
                let e = self.or()?;
                self.expect(")")?;
                self.depth -= 1;
                Ok(e)
            }
            Tok::Punct("[") => {
                self.enter()?;
                self.bump();
                let e = self.or()?;
                self.expect("]")?;
                self.depth -= 1;
                let mut width = 1;
                if self.eat(".") {
                    let wcol = self.col();
                    match self.peek() {
                        Tok::Ident(w) if w.eq_ignore_ascii_case("w") => width = 2,
                        Tok::Ident(w) if w.eq_ignore_ascii_case("b") => width = 1,
                        _ => return Err(syntax(wcol, "expected `b` or `w` after `].`")),
                    }
                    self.bump();
                }
                mem_node(e, width, col)
            }
            Tok::At => {
                self.bump();
                match self.peek().clone() {
                    Tok::Ident(name) => {
                        self.bump();
                        Ok(Node::Sym(name, col + 1))
                    }
                    _ => Err(syntax(self.col(), "expected a symbol name after `@`")),
                }
            }
            Tok::Ident(name) => {
                self.bump();
                if name.eq_ignore_ascii_case("ccr") && self.eat(".") {
                    let fcol = self.col();
                    let Tok::Ident(flag) = self.peek().clone() else {
                        return Err(syntax(
                            fcol,
                            "expected a flag letter (S X H I N Z V C) after `CCR.`",
                        ));
                    };
                    let mask = flag_mask(&flag, true).ok_or_else(|| {
                        syntax(
                            fcol,
                            format!("`{flag}` is not a CCR flag (S X H I N Z V C)"),
                        )
                    })?;
                    self.bump();
                    return Ok(Node::Flag(mask));
                }
                if let Some(r) = reg_named(&name) {
                    Ok(Node::Reg(r))
                } else if let Some(mask) = flag_mask(&name, false) {
                    Ok(Node::Flag(mask))
                } else {
                    Ok(Node::Sym(name, col))
                }
            }
            Tok::End => Err(syntax(
                col,
                "expected a value, found the end of the condition",
            )),
            Tok::Punct(p) => Err(syntax(col, format!("expected a value, found `{p}`"))),
        }
    }
}

fn reg_named(name: &str) -> Option<Reg> {
    let r = match name.to_ascii_lowercase().as_str() {
        "a" => Reg::A,
        "b" => Reg::B,
        "d" => Reg::D,
        "x" => Reg::X,
        "y" => Reg::Y,
        "sp" => Reg::Sp,
        "pc" => Reg::Pc,
        "ccr" => Reg::Ccr,
        "cycles" => Reg::Cycles,
        _ => return None,
    };
    Some(r)
}

/// The CCR mask for a flag letter; `X` only when written as `CCR.X`, since a
/// bare `X` is the index register.
fn flag_mask(name: &str, qualified: bool) -> Option<u8> {
    let m = match name.to_ascii_uppercase().as_str() {
        "S" => 0x80,
        "X" if qualified => 0x40,
        "H" => 0x20,
        "I" => 0x10,
        "N" => 0x08,
        "Z" => 0x04,
        "V" => 0x02,
        "C" => 0x01,
        _ => return None,
    };
    Some(m)
}

impl Expr {
    /// Parses a condition. Errors point at a 1-based column of `src`.
    pub fn parse(src: &str) -> Result<Expr, ConditionError> {
        let toks = lex(src)?;
        let mut p = Parser {
            toks,
            pos: 0,
            depth: 0,
            nodes: 0,
        };
        let root = p.or()?;
        if !matches!(p.peek(), Tok::End) {
            return Err(syntax(
                p.col(),
                "expected an operator or the end of the condition",
            ));
        }
        Ok(Expr {
            src: src.to_string(),
            root,
        })
    }

    /// The text as written.
    pub fn source(&self) -> &str {
        &self.src
    }

    /// Resolves symbol names against `program` (case-insensitively), so a
    /// condition survives re-assembly: bind it again to the new program.
    pub fn bind(&self, program: &Program) -> Result<BoundExpr, ConditionError> {
        self.bind_with(&|name| program.symbol(name).map(|s| s.value))
    }

    /// Resolves symbol names with a lookup function.
    pub fn bind_with(
        &self,
        lookup: &dyn Fn(&str) -> Option<u16>,
    ) -> Result<BoundExpr, ConditionError> {
        Ok(BoundExpr {
            root: bind_node(&self.root, lookup)?,
        })
    }
}

fn bind_node(n: &Node, lookup: &dyn Fn(&str) -> Option<u16>) -> Result<Node, ConditionError> {
    Ok(match n {
        Node::Sym(name, column) => match lookup(name) {
            Some(v) => Node::Num(v as i64),
            None => {
                return Err(ConditionError::UnknownSymbol {
                    column: *column,
                    name: name.clone(),
                })
            }
        },
        // Built again, so what the symbols' values make constant is
        // computed and checked now.
        Node::Mem(e, w, col) => mem_node(bind_node(e, lookup)?, *w, *col)?,
        Node::Un(op, e, col) => un_node(*op, bind_node(e, lookup)?, *col)?,
        Node::Bin(op, l, r, col) => {
            bin_node(*op, bind_node(l, lookup)?, bind_node(r, lookup)?, *col)?
        }
        other => other.clone(),
    })
}

impl BoundExpr {
    /// Evaluates to a number (comparisons give 0 or 1), or the fault met:
    /// a division by a register or byte that is zero, a result past 64
    /// bits, a memory address outside $0000-$FFFF.
    pub fn value(&self, ctx: &dyn EvalContext) -> Result<i64, Fault> {
        eval(&self.root, ctx)
    }

    /// True when the value is non-zero; a condition that meets a
    /// [`Fault`] does not hold.
    pub fn holds(&self, ctx: &dyn EvalContext) -> bool {
        matches!(self.value(ctx), Ok(v) if v != 0)
    }
}

fn eval(n: &Node, ctx: &dyn EvalContext) -> Result<i64, Fault> {
    Ok(match n {
        Node::Num(v) => *v,
        Node::Reg(r) => ctx.reg(*r) as i64,
        Node::Flag(mask) => ((ctx.reg(Reg::Ccr) as u8 & mask) != 0) as i64,
        // Unbound symbols never reach evaluation through the public API.
        Node::Sym(..) => 0,
        Node::Mem(e, width, _) => {
            let addr = mem_address(eval(e, ctx)?, *width)?;
            if *width == 2 {
                u16::from_be_bytes([ctx.peek(addr), ctx.peek(addr.wrapping_add(1))]) as i64
            } else {
                ctx.peek(addr) as i64
            }
        }
        Node::Un(op, e, _) => apply_un(*op, eval(e, ctx)?)?,
        Node::Bin(op, l, r, _) => {
            let a = eval(l, ctx)?;
            // Short-circuit like C so `[x] && ...` reads no more than needed.
            match op {
                BinOp::Or if a != 0 => 1,
                BinOp::And if a == 0 => 0,
                _ => apply_bin(*op, a, eval(r, ctx)?)?,
            }
        }
    })
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.src)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Ctx {
        a: u8,
        b: u8,
        x: u16,
        ccr: u8,
        mem: Vec<u8>,
    }
    impl EvalContext for Ctx {
        fn reg(&self, r: Reg) -> u64 {
            match r {
                Reg::A => self.a as u64,
                Reg::B => self.b as u64,
                Reg::D => u16::from_be_bytes([self.a, self.b]) as u64,
                Reg::X => self.x as u64,
                Reg::Ccr => self.ccr as u64,
                _ => 0,
            }
        }
        fn peek(&self, addr: u16) -> u8 {
            self.mem.get(addr as usize).copied().unwrap_or(0)
        }
    }

    fn ctx() -> Ctx {
        let mut mem = vec![0; 0x400];
        mem[0x50] = 5; // coordy
        mem[0x60] = 0x00; // cellAddress hi
        mem[0x61] = 136; // cellAddress lo
        Ctx {
            a: 4,
            b: 0x90,
            x: 0x1234,
            ccr: 0x04 | 0x40,
            mem,
        }
    }

    fn lookup(name: &str) -> Option<u16> {
        match name.to_ascii_lowercase().as_str() {
            "coordy" => Some(0x50),
            "celladdress" => Some(0x60),
            "c" => Some(0x99),
            _ => None,
        }
    }

    fn eval_str(s: &str) -> i64 {
        Expr::parse(s)
            .unwrap_or_else(|e| panic!("{}", e.render(s)))
            .bind_with(&lookup)
            .unwrap_or_else(|e| panic!("{}", e.render(s)))
            .value(&ctx())
            .unwrap_or_else(|f| panic!("{s}: {f}"))
    }

    #[test]
    fn the_issue_examples() {
        assert_eq!(eval_str("A == 4"), 1);
        assert_eq!(eval_str("[coordy] == 5"), 1);
        assert_eq!(eval_str("B >= $80"), 1);
        assert_eq!(eval_str("[cellAddress].w == 136"), 1);
        assert_eq!(eval_str("[cellAddress] == 136"), 0);
    }

    #[test]
    fn precedence_numbers_and_flags() {
        assert_eq!(eval_str("1 + 2 * 3"), 7);
        assert_eq!(eval_str("(1 + 2) * 3"), 9);
        assert_eq!(
            eval_str("%1010 + 0b11 + 0x10 + $10 + 'A'"),
            10 + 3 + 16 + 16 + 65
        );
        assert_eq!(eval_str("7 % 4"), 3);
        assert_eq!(eval_str("D == $0490"), 1);
        assert_eq!(eval_str("Z && !C"), 1);
        assert_eq!(eval_str("CCR.X"), 1);
        assert_eq!(eval_str("X == $1234"), 1, "bare X is the index register");
        assert_eq!(eval_str("@c"), 0x99, "@ forces the symbol");
        assert_eq!(eval_str("A == 3 || [coordy+0] == 5"), 1);
        assert_eq!(eval_str("1 << 4 | 1"), 17);
        assert_eq!(eval_str("-1 < 0 && ~0 == -1"), 1);
        assert_eq!(eval_str("7 / (A - 2)"), 3);
    }

    #[test]
    fn errors_point_at_the_column() {
        let e = Expr::parse("A == ").unwrap_err();
        assert_eq!(e.column(), 6);
        assert!(e.to_string().contains("end of the condition"));
        let e = Expr::parse("A = 4").unwrap_err();
        assert_eq!(e.column(), 3, "{e}");
        let e = Expr::parse("[coordy.q] == 1").unwrap_err();
        assert_eq!(e.column(), 8);
        let e = Expr::parse("(A == 4").unwrap_err();
        assert_eq!(e.column(), 8);
        assert!(e.to_string().contains("`)`"));
        let e = Expr::parse("A == 4 $").unwrap_err();
        assert_eq!(e.column(), 8);
        let e = Expr::parse("CCR.Q").unwrap_err();
        assert_eq!(e.column(), 5);
        let e = Expr::parse("A == #4").unwrap_err();
        assert_eq!(e.column(), 6);
        let bound = Expr::parse("[nosuch] == 1").unwrap().bind_with(&lookup);
        let e = bound.unwrap_err();
        assert_eq!(e.column(), 2);
        assert_eq!(e.render("[nosuch] == 1"), "[nosuch] == 1\n ^\ncolumn 2: unknown symbol `nosuch` (not a register, flag or label of the program)");
    }

    #[test]
    fn never_panics_on_odd_input() {
        for s in [
            "",
            "'",
            "'a",
            "$",
            "%",
            "0x",
            "[",
            "]",
            "@",
            "@1",
            "((((",
            "9999999999999999999999",
            "ä",
            "A.w",
            "CCR.",
            "[1].",
            "1 %% 2",
        ] {
            let _ = Expr::parse(s).map(|e| e.bind_with(&lookup).map(|b| b.value(&ctx())));
        }
    }

    #[test]
    fn depth_and_size_are_capped() {
        for deep in [
            "(".repeat(100_000) + "1" + &")".repeat(100_000),
            "[".repeat(100_000) + "1" + &"]".repeat(100_000),
            "-".repeat(100_000) + "1",
            "!~".repeat(50_000) + "1",
            "1".to_string() + &"+1".repeat(100_000),
        ] {
            let e = Expr::parse(&deep).unwrap_err().to_string();
            assert!(
                e.contains("nests more than 64") || e.contains("more than 256"),
                "{e}"
            );
        }
        let ok = "(".repeat(60) + "1" + &")".repeat(60);
        assert_eq!(
            Expr::parse(&ok)
                .unwrap()
                .bind_with(&lookup)
                .unwrap()
                .value(&ctx()),
            Ok(1)
        );
    }

    #[test]
    fn nothing_wraps_or_divides_by_zero_quietly() {
        // Constants are refused where the condition is parsed, at the
        // operator or bracket.
        for (text, column, what) in [
            ("1/0", 2, "division by zero"),
            ("5%0", 2, "division by zero"),
            ("A / 0 == 1", 3, "division by zero"),
            ("[$10000] == 0", 1, "$10000 is outside"),
            ("[-1] == 0", 1, "-1 is outside"),
            ("[$FFFF].w == 0", 1, "$10000 is outside"),
            ("65536*65536*65536*65536 == 0", 18, "64 bits"),
            ("-(1 << 63) < 0", 1, "64 bits"),
        ] {
            let e = Expr::parse(text).unwrap_err();
            assert_eq!(e.column(), column, "{text}: {e}");
            assert!(e.to_string().contains(what), "{text}: {e}");
        }
        assert_eq!(eval_str("[$FFFF] == 0"), 1);
        // Symbols are constants once bound.
        let e = Expr::parse("[coordy+$FFFF] == 0")
            .unwrap()
            .bind_with(&lookup)
            .unwrap_err();
        assert!(e.to_string().contains("$1004F is outside"), "{e}");
        let e = Expr::parse("A % (coordy - $50)")
            .unwrap()
            .bind_with(&lookup)
            .unwrap_err();
        assert!(e.to_string().contains("division by zero"), "{e}");
        // Registers and memory are known only as the condition is
        // evaluated: a fault there, and the condition does not hold.
        let at = |s: &str| {
            Expr::parse(s)
                .unwrap()
                .bind_with(&lookup)
                .unwrap()
                .value(&ctx())
        };
        assert_eq!(at("[coordy] / (A - 4)"), Err(Fault::DivZero));
        assert_eq!(at("[X + $F000]"), Err(Fault::Address(0x1_0234)));
        assert_eq!(at("[A - 5]"), Err(Fault::Address(-1)));
        assert_eq!(at("X * $7FFFFFFFFFFFFFFF"), Err(Fault::Overflow));
        let div = Expr::parse("A / (B - $90) == 0").unwrap();
        assert!(!div.bind_with(&lookup).unwrap().holds(&ctx()));
    }

    #[test]
    fn shifts_past_64_bits_are_errors() {
        let e = Expr::parse("1 << 64").unwrap_err().to_string();
        assert!(e.contains("shift by 64"), "{e}");
        assert!(Expr::parse("1 >> 99").is_err());
        assert_eq!(eval_str("1 << 63 != 0"), 1);
    }
}
