//! Instruction operands: parsing them, choosing the addressing mode from the
//! one opcode table (M68HC11 RM section 6.2 "addressing modes" and appendix A),
//! and encoding the operand bytes with range checks.
//!
//! The rule for direct vs. extended: a leading `<` on a memory operand forces
//! direct, a leading `>` forces extended (the ASM11 convention). Without
//! either, direct is chosen when the instruction has a direct mode and the
//! operand's value is already known in pass 1 and lies in $0000-$00FF; an
//! operand that is not known yet (forward reference) gets extended, in both
//! passes, so the sizes never change between passes. Anywhere else (after
//! `#`, in data and `equ` expressions, inside parentheses) `<`/`>` are the
//! low-byte / high-byte operators.

use super::diagnostics::{Code, Diagnostic, Span};
use super::expr::{eval, Env, EvalError, Expr, Parser};
use crate::cpu::opcodes::{entries_for, Mode, Op, OpcodeInfo, OPCODES};
use std::sync::OnceLock;

/// A forced choice between direct and extended addressing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Force {
    /// `<addr`
    Direct,
    /// `>addr`
    Extended,
}

/// One operand as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// `#expr`
    Imm(Expr, Span),
    /// An address or offset expression, maybe with `<`/`>`.
    Mem(Expr, Span, Option<Force>),
    /// Nothing before a comma (`,x`).
    Empty(Span),
    /// `x` or `y` after a comma.
    Reg(char, Span),
}

impl Operand {
    fn span(&self) -> Span {
        match self {
            Operand::Imm(_, s) | Operand::Mem(_, s, _) | Operand::Empty(s) | Operand::Reg(_, s) => {
                *s
            }
        }
    }
}

/// Parses an operand field into operands. `bit_op` allows whitespace instead
/// of commas between operands (`brset 3,y $80 label`).
pub fn parse_operands(p: &mut Parser, bit_op: bool) -> Result<Vec<Operand>, Diagnostic> {
    p.ws_separates = bit_op;
    let mut ops = Vec::new();
    if p.at_end() {
        return Ok(ops);
    }
    let mut after_comma = false;
    loop {
        p.skip_ws();
        let start = p.pos();
        if p.peek() == Some(',') {
            ops.push(Operand::Empty(p.span(start, start)));
        } else if let Some(r) = after_comma.then(|| p.index_register()).flatten() {
            ops.push(Operand::Reg(r, p.span(start, p.pos())));
        } else if p.eat('#') {
            let (e, _) = p.expr()?;
            ops.push(Operand::Imm(e, p.span(start, p.pos())));
        } else {
            let rest = p.rest();
            let force = match rest.as_bytes() {
                [b'<', next, ..] if !matches!(next, b'<' | b'=' | b'>') => Some(Force::Direct),
                [b'>', next, ..] if !matches!(next, b'>' | b'=') => Some(Force::Extended),
                _ => None,
            };
            if force.is_some() {
                p.eat(rest.chars().next().unwrap_or(' '));
            }
            let (e, span) = p.expr()?;
            let _ = span;
            ops.push(Operand::Mem(e, p.span(start, p.pos()), force));
        }
        if p.at_end() {
            break;
        }
        if p.eat(',') {
            after_comma = true;
            if p.at_end() {
                return Err(p.error_here("expected an operand after `,`"));
            }
            continue;
        }
        if bit_op {
            after_comma = false;
            continue;
        }
        return Err(p
            .error_here(format!("unexpected {} after the operand", p.found()))
            .hint("operands are separated by `,`; comments start with `;`"));
    }
    Ok(ops)
}

/// An instruction with its addressing mode chosen: the table entry and the
/// expressions for its operand slots. Slot meaning by mode: immediate,
/// direct, extended, indexed: `[value]`; relative: `[target]`; bit modes:
/// `[address or offset, mask, target]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The opcode table entry.
    pub info: &'static OpcodeInfo,
    /// Operand expressions and their spans.
    pub args: Vec<(Expr, Span)>,
    /// Cut a too-wide 8-bit immediate to its low byte with a warning instead
    /// of an error (AS11 does that).
    pub truncate: bool,
}

/// The table entries of each operation, indexed by `Op as usize`, built once
/// (a linear scan of the 308 entries per lookup showed up in profiles).
fn entries_by_op() -> &'static [Vec<&'static OpcodeInfo>] {
    static TABLE: OnceLock<Vec<Vec<&'static OpcodeInfo>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut v: Vec<Vec<&'static OpcodeInfo>> = Vec::new();
        for e in OPCODES {
            let i = e.op as usize;
            if v.len() <= i {
                v.resize_with(i + 1, Vec::new);
            }
            if let Some(list) = v.get_mut(i) {
                list.push(e);
            }
        }
        v
    })
}

fn has(op: Op, mode: Mode) -> Option<&'static OpcodeInfo> {
    entries_by_op()
        .get(op as usize)
        .and_then(|list| list.iter().find(|e| e.mode == mode).copied())
}

fn modes_of(op: Op) -> String {
    let list: Vec<String> = entries_for(op).map(|e| e.mode.to_string()).collect();
    list.join(", ")
}

fn is_bit_op(op: Op) -> bool {
    matches!(op, Op::Bset | Op::Bclr | Op::Brset | Op::Brclr)
}

/// True for `bset`/`bclr`/`brset`/`brclr`, whose operands may be separated by spaces.
pub fn allows_space_separated(op: Op) -> bool {
    is_bit_op(op)
}

fn no_mode(op: Op, what: &str, span: Span, mnemonic: &str) -> Diagnostic {
    Diagnostic::new(
        Code::ModeNotAvailable,
        span,
        format!("`{mnemonic}` has no {what} addressing mode"),
    )
    .hint(format!("`{mnemonic}` can use: {}", modes_of(op)))
}

/// Chooses the addressing mode for `op` with these operands. `known` gives
/// an operand's value if it is already known in pass 1.
pub fn select(
    op: Op,
    mnemonic: &str,
    mnemonic_span: Span,
    ops: Vec<Operand>,
    known: &mut dyn FnMut(&Expr) -> Option<i64>,
) -> Result<Chosen, Diagnostic> {
    let all_span = match (ops.first(), ops.last()) {
        (Some(a), Some(b)) => a.span().to(b.span()),
        _ => mnemonic_span,
    };
    let chosen = |mode: Mode, args: Vec<(Expr, Span)>| -> Result<Chosen, Diagnostic> {
        match has(op, mode) {
            Some(info) => Ok(Chosen {
                info,
                args,
                truncate: false,
            }),
            None => Err(no_mode(op, &mode.to_string(), all_span, mnemonic)),
        }
    };
    let index_mode = |r: char, x: Mode, y: Mode| if r == 'x' { x } else { y };
    if is_bit_op(op) {
        let branch = matches!(op, Op::Brset | Op::Brclr);
        let usage = if branch {
            format!("write `{mnemonic} addr,#mask,target` or `{mnemonic} offset,x,#mask,target`")
        } else {
            format!("write `{mnemonic} addr,#mask` or `{mnemonic} offset,x,#mask`")
        };
        let mut it = ops.into_iter();
        let first = it.next();
        let second = it.next();
        let (mode, addr, mask_op) = match (first, second) {
            (Some(Operand::Mem(e, s, force)), Some(Operand::Reg(r, _))) => {
                if force.is_some() {
                    return Err(Diagnostic::new(
                        Code::Operands,
                        s,
                        "`<`/`>` cannot be used on an index offset",
                    ));
                }
                let mode = if branch {
                    index_mode(r, Mode::BitBranchIndexedX, Mode::BitBranchIndexedY)
                } else {
                    index_mode(r, Mode::BitIndexedX, Mode::BitIndexedY)
                };
                (mode, (e, s), it.next())
            }
            (Some(Operand::Empty(s)), Some(Operand::Reg(r, _))) => {
                let mode = if branch {
                    index_mode(r, Mode::BitBranchIndexedX, Mode::BitBranchIndexedY)
                } else {
                    index_mode(r, Mode::BitIndexedX, Mode::BitIndexedY)
                };
                (mode, (Expr::Num(0), s), it.next())
            }
            (Some(Operand::Mem(e, s, force)), second) => {
                if force == Some(Force::Extended) {
                    return Err(no_mode(op, "extended", s, mnemonic)
                        .hint("to reach an address above $FF, load it into X first: `ldx #addr` then use `0,x`"));
                }
                let mode = if branch {
                    Mode::BitBranchDirect
                } else {
                    Mode::BitDirect
                };
                (mode, (e, s), second)
            }
            (Some(Operand::Imm(_, s)), _) => {
                return Err(Diagnostic::new(
                    Code::Operands,
                    s,
                    format!(
                        "the first operand of `{mnemonic}` is an address, not an immediate value"
                    ),
                )
                .hint(usage));
            }
            _ => {
                return Err(Diagnostic::new(
                    Code::Operands,
                    all_span,
                    format!("`{mnemonic}` needs an address and a bit mask"),
                )
                .hint(usage));
            }
        };
        let mask = match mask_op {
            Some(Operand::Imm(e, s)) | Some(Operand::Mem(e, s, None)) => (e, s),
            _ => {
                return Err(Diagnostic::new(
                    Code::Operands,
                    all_span,
                    format!("`{mnemonic}` needs a bit mask"),
                )
                .hint(usage))
            }
        };
        let mut args = vec![addr, mask];
        if branch {
            match it.next() {
                Some(Operand::Mem(e, s, None)) => args.push((e, s)),
                _ => {
                    return Err(Diagnostic::new(
                        Code::Operands,
                        all_span,
                        format!("`{mnemonic}` needs a branch target"),
                    )
                    .hint(usage))
                }
            }
        }
        if let Some(extra) = it.next() {
            return Err(Diagnostic::new(
                Code::Operands,
                extra.span(),
                format!("too many operands for `{mnemonic}`"),
            )
            .hint(usage));
        }
        return chosen(mode, args);
    }

    if has(op, Mode::Relative).is_some() {
        let mut it = ops.into_iter();
        return match (it.next(), it.next()) {
            (Some(Operand::Mem(e, s, None)), None) => chosen(Mode::Relative, vec![(e, s)]),
            (Some(Operand::Imm(_, s)), None) => Err(Diagnostic::new(
                Code::Operands,
                s,
                format!("`{mnemonic}` needs a target address, not an immediate value"),
            )),
            (None, _) => Err(Diagnostic::new(
                Code::Operands,
                mnemonic_span,
                format!("`{mnemonic}` needs a branch target"),
            )),
            _ => Err(Diagnostic::new(
                Code::Operands,
                all_span,
                format!("`{mnemonic}` takes exactly one operand, the branch target"),
            )),
        };
    }

    let mut it = ops.into_iter();
    match (it.next(), it.next(), it.next()) {
        (None, _, _) => match has(op, Mode::Inherent) {
            Some(info) => Ok(Chosen {
                info,
                args: vec![],
                truncate: false,
            }),
            None => Err(Diagnostic::new(
                Code::Operands,
                mnemonic_span,
                format!("`{mnemonic}` needs an operand"),
            )
            .hint(format!("`{mnemonic}` can use: {}", modes_of(op)))),
        },
        (Some(first), _, _) if has(op, Mode::Inherent).is_some() => Err(Diagnostic::new(
            Code::Operands,
            first.span().to(all_span),
            format!("`{mnemonic}` takes no operand"),
        )
        .hint("comments start with `;`")),
        (Some(Operand::Imm(e, s)), None, _) => {
            if has(op, Mode::Imm8).is_some() {
                chosen(Mode::Imm8, vec![(e, s)])
            } else if has(op, Mode::Imm16).is_some() {
                chosen(Mode::Imm16, vec![(e, s)])
            } else {
                Err(no_mode(op, "immediate", s, mnemonic))
            }
        }
        (Some(Operand::Mem(e, s, force)), None, _) => {
            let direct = has(op, Mode::Direct).is_some();
            let mode = match force {
                Some(Force::Direct) => Mode::Direct,
                Some(Force::Extended) => Mode::Extended,
                None => {
                    let small = known(&e).is_some_and(|v| (0..=0xFF).contains(&v));
                    if direct && small {
                        Mode::Direct
                    } else {
                        Mode::Extended
                    }
                }
            };
            chosen(mode, vec![(e, s)])
        }
        (Some(Operand::Mem(e, s, force)), Some(Operand::Reg(r, _)), None) => {
            if force.is_some() {
                return Err(Diagnostic::new(
                    Code::Operands,
                    s,
                    "`<`/`>` cannot be used on an index offset",
                ));
            }
            chosen(index_mode(r, Mode::IndexedX, Mode::IndexedY), vec![(e, s)])
        }
        (Some(Operand::Empty(s)), Some(Operand::Reg(r, _)), None) => chosen(
            index_mode(r, Mode::IndexedX, Mode::IndexedY),
            vec![(Expr::Num(0), s)],
        ),
        _ => Err(Diagnostic::new(
            Code::Operands,
            all_span,
            format!("cannot read the operands of `{mnemonic}`"),
        )
        .hint(format!(
            "operand forms: `#value`, `address`, `offset,x`, `offset,y`; `{mnemonic}` can use: {}",
            modes_of(op)
        ))),
    }
}

/// Encodes a chosen instruction at `addr`. Every operand problem is reported
/// (not only the first); `None` if any was an error. Undefined symbols are
/// reported by `env` itself.
pub fn encode(
    chosen: &Chosen,
    addr: u16,
    env: &mut dyn Env,
    report: &mut dyn FnMut(Diagnostic),
) -> Option<Vec<u8>> {
    let info = chosen.info;
    let m = info.op.mnemonic();
    let mut enc = Encoder {
        chosen,
        env,
        report,
        out: info.opcode_bytes(),
        ok: true,
    };
    let range = |what: &'static str, hint: String| {
        move |v: i64, span: Span| {
            Diagnostic::new(
                Code::OutOfRange,
                span,
                format!("{what} {} is out of range", show(v)),
            )
            .hint(hint.clone())
        }
    };
    match info.mode {
        Mode::Inherent | Mode::Relative => {}
        Mode::Imm8 if chosen.truncate => enc.low_byte(),
        Mode::Imm8 => enc.field(0, -128, 0xFF, 1, range(
            "immediate value",
            format!("`{m} #` takes an 8-bit value, -128..255 ($00-$FF); write `#<(...)` for the low byte"),
        )),
        Mode::Imm16 => enc.field(0, -32768, 0xFFFF, 2, range(
            "immediate value",
            format!("`{m} #` takes a 16-bit value, -32768..65535 ($0000-$FFFF)"),
        )),
        Mode::Direct => enc.field(0, 0, 0xFF, 1, range(
            "direct address",
            "direct addressing reaches $0000-$00FF; write `>addr` (or no `<`) for extended addressing".to_string(),
        )),
        Mode::BitDirect | Mode::BitBranchDirect => enc.field(0, 0, 0xFF, 1, range(
            "direct address",
            format!("`{m}` reaches $0000-$00FF directly; for higher addresses load X first: `ldx #addr` then `{m} 0,x,...`"),
        )),
        Mode::Extended => enc.field(0, 0, 0xFFFF, 2, range(
            "address",
            "extended addressing reaches $0000-$FFFF".to_string(),
        )),
        Mode::IndexedX | Mode::IndexedY | Mode::BitIndexedX | Mode::BitIndexedY
        | Mode::BitBranchIndexedX | Mode::BitBranchIndexedY => enc.field(0, 0, 0xFF, 1, range(
            "index offset",
            "indexed addressing takes an unsigned offset 0..255 ($00-$FF); for other offsets change X or Y first (`ldx #addr`, `abx`, `dex`)".to_string(),
        )),
    }
    if matches!(
        info.mode,
        Mode::BitDirect
            | Mode::BitIndexedX
            | Mode::BitIndexedY
            | Mode::BitBranchDirect
            | Mode::BitBranchIndexedX
            | Mode::BitBranchIndexedY
    ) {
        enc.field(
            1,
            -128,
            0xFF,
            1,
            range("bit mask", "a bit mask is 8 bits, $00-$FF".to_string()),
        );
    }
    let target_slot = match info.mode {
        Mode::Relative => Some(0),
        Mode::BitBranchDirect | Mode::BitBranchIndexedX | Mode::BitBranchIndexedY => Some(2),
        _ => None,
    };
    if let Some(slot) = target_slot {
        let next = addr as i64 + info.byte_len() as i64;
        let disp = match enc.value(slot) {
            Some((target, _)) if (-128..=127).contains(&(target.saturating_sub(next))) => {
                Some(target - next)
            }
            Some((target, span)) => {
                let disp = target.saturating_sub(next);
                let far = if disp > 0 {
                    format!("{disp} bytes forward")
                } else {
                    format!("{} bytes back", disp.unsigned_abs())
                };
                let d = Diagnostic::new(
                    Code::BranchOutOfRange,
                    span,
                    format!(
                        "branch target {} is {far}; a branch reaches -128..+127",
                        show(target)
                    ),
                );
                (enc.report)(match info.op {
                    Op::Bra => d.hint("use `jmp` instead"),
                    Op::Bsr => d.hint("use `jsr` instead"),
                    Op::Brset | Op::Brclr => d.hint("branch to a nearby `jmp` to the target"),
                    _ => d.hint("invert the condition and branch over a `jmp` to the target"),
                });
                None
            }
            None => None,
        };
        enc.push(disp, 1);
    }
    enc.ok.then_some(enc.out)
}

struct Encoder<'c, 'e, 'r> {
    chosen: &'c Chosen,
    env: &'e mut dyn Env,
    report: &'r mut dyn FnMut(Diagnostic),
    out: Vec<u8>,
    ok: bool,
}

impl Encoder<'_, '_, '_> {
    fn value(&mut self, slot: usize) -> Option<(i64, Span)> {
        let (e, span) = self.chosen.args.get(slot)?;
        match eval(e, self.env) {
            Ok(v) => Some((v, *span)),
            Err(err) => {
                if let Some(d) = eval_error(err, *span) {
                    (self.report)(d);
                }
                None
            }
        }
    }

    fn field(
        &mut self,
        slot: usize,
        lo: i64,
        hi: i64,
        len: usize,
        err: impl Fn(i64, Span) -> Diagnostic,
    ) {
        let v = match self.value(slot) {
            Some((v, _)) if (lo..=hi).contains(&v) => Some(v),
            Some((v, span)) => {
                (self.report)(err(v, span));
                None
            }
            None => None,
        };
        self.push(v, len);
    }

    /// Slot 0 as its low byte; a warning if that dropped set bits.
    fn low_byte(&mut self) {
        let v = self.value(0).map(|(v, span)| {
            if !(-128..=0xFF).contains(&v) {
                (self.report)(
                    Diagnostic::new(
                        Code::Truncated,
                        span,
                        format!(
                            "immediate value {} cut to its low byte ${:02X}",
                            show(v),
                            v & 0xFF
                        ),
                    )
                    .hint("AS11 keeps the low byte; write `#<(...)` (or mask it) to say so"),
                );
            }
            v & 0xFF
        });
        self.push(v, 1);
    }

    fn push(&mut self, v: Option<i64>, len: usize) {
        match (v, len) {
            (Some(v), 1) => self.out.push(v as u8),
            (Some(v), _) => self.out.extend_from_slice(&(v as u16).to_be_bytes()),
            (None, _) => {
                self.ok = false;
                self.out.extend(std::iter::repeat_n(0, len));
            }
        }
    }
}

/// A value as shown in messages: `$1F (31)`, or a negative decimal.
pub fn show(v: i64) -> String {
    if v < 0 {
        format!("{v}")
    } else if v <= 0xFF {
        format!("${v:02X} ({v})")
    } else {
        format!("${v:04X} ({v})")
    }
}

/// The diagnostic for a failed evaluation; `None` for undefined symbols,
/// which the evaluation environment reports itself (with the name and hints).
pub fn eval_error(err: EvalError, span: Span) -> Option<Diagnostic> {
    match err {
        EvalError::Unknown => Some(
            Diagnostic::new(Code::NotKnownYet, span, "value is not known at this point")
                .hint("define the symbols it uses before this line"),
        ),
        EvalError::Undefined(..) => None,
        EvalError::DivZero(s) => Some(Diagnostic::new(Code::DivisionByZero, s, "division by zero")),
        EvalError::BadShift(s, n) => Some(
            Diagnostic::new(Code::OutOfRange, s, format!("shift by {n}"))
                .hint("a shift count must be 0 to 63"),
        ),
        EvalError::Overflow(s) => Some(
            Diagnostic::new(
                Code::OutOfRange,
                s.unwrap_or(span),
                "the value does not fit in 64 bits",
            )
            .hint("values are 64-bit signed numbers; check the multiplications and sums here"),
        ),
    }
}
