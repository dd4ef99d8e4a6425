//! What a run left behind and how it is judged: observations of memory,
//! registers, LCD and serial, the assertions evaluated on them, and the
//! outcome of a check as feedback.

use super::*;

/// The address and bytes of a spec in a program's memory, or why they cannot be read.
pub(super) fn read_spec(
    program: &Program,
    peek: impl Fn(u16) -> u8,
    spec: &MemSpec,
) -> Result<(u16, Vec<u8>), String> {
    let base = spec_base(program, spec)?;
    Ok((base, read_at(base, spec.len, peek)))
}

/// The first address of a spec in a program, or why it has none.
pub(super) fn spec_base(program: &Program, spec: &MemSpec) -> Result<u16, String> {
    match &spec.symbol {
        Some(name) => {
            let s = program.symbol(name).ok_or_else(|| {
                format!(
                    "the program defines no symbol `{name}`; the checks read it, so keep that name"
                )
            })?;
            Ok(s.value.wrapping_add(spec.offset))
        }
        None => Ok(spec.offset),
    }
}

/// `len` bytes from `base` on.
pub(super) fn read_at(base: u16, len: u16, peek: impl Fn(u16) -> u8) -> Vec<u8> {
    (0..len).map(|i| peek(base.wrapping_add(i))).collect()
}

/// What a finished run looked like, for assertions.
#[derive(Clone, Debug)]
pub(super) struct Observation {
    pub(super) frame: Frame,
    /// The LCD's electronic volume register.
    pub(super) lcd_volume: u8,
    pub(super) regs: Registers,
    pub(super) serial: String,
    pub(super) memory: Vec<u8>,
    pub(super) cycles: u64,
    pub(super) program: Arc<Program>,
    /// The run ended in a loop nothing can leave (`bra *`, `End: nop / bra
    /// End`): a program that is meant to end so (the reference does too)
    /// gets no "stuck" note for it.
    pub(super) in_endless_loop: bool,
    /// The screen before the script's last N actions, for each N an
    /// `lcd = "unchanged"` assertion asks about.
    pub(super) before_last: Vec<(u32, Frame)>,
}

impl Observation {
    pub(super) fn take(m: &Machine, cycles: u64) -> Observation {
        Observation {
            frame: frame_of(m),
            lcd_volume: m.lcd().volume(),
            regs: m.registers(),
            serial: m.serial_text(),
            memory: m.peek_range(0, 0x10000),
            cycles,
            program: m.program().clone(),
            in_endless_loop: m.endless_loop_back().is_some(),
            before_last: Vec::new(),
        }
    }

    /// The bytes of a spec, or why they cannot be read.
    pub(super) fn read(&self, spec: &MemSpec) -> Result<(u16, Vec<u8>), String> {
        read_spec(
            &self.program,
            |a| self.memory.get(usize::from(a)).copied().unwrap_or(0),
            spec,
        )
    }

    pub(super) fn register(&self, reg: Reg) -> u16 {
        reg.read(&self.regs)
    }
}

pub(super) fn hex_bytes(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("${x:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the bytes at `spec` differ from what was wanted: short ones in full,
/// long ones (a board) by count and the first differing 8-byte row.
pub(super) fn describe_bytes(
    spec: &MemSpec,
    addr: u16,
    got: &[u8],
    want: &[u8],
    whose: &str,
) -> String {
    if got.len() <= 8 {
        return format!(
            "{spec} (${addr:04X}) is {}, {whose} {}",
            hex_bytes(got),
            hex_bytes(want)
        );
    }
    let diffs = got.iter().zip(want).filter(|(a, b)| a != b).count();
    let first = got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(0);
    let from = first - first % 8;
    let to = (from + 8).min(got.len());
    let at = match &spec.symbol {
        Some(name) => format!("{name}+{}", usize::from(spec.offset) + from),
        None => format!("${:04X}", usize::from(spec.offset) + from),
    };
    format!(
        "{spec} differs in {diffs} byte(s); from {at} (${:04X}) on it is {}, {whose} {}",
        usize::from(addr) + from,
        hex_bytes(got.get(from..to).unwrap_or(&[])),
        hex_bytes(want.get(from..to).unwrap_or(&[]))
    )
}

pub(super) fn value_bytes(v: u64, len: usize) -> Vec<u8> {
    (0..len)
        .rev()
        .map(|i| if i < 8 { (v >> (8 * i)) as u8 } else { 0 })
        .collect()
}

/// The outcome of one check on one submission before it becomes a [`CheckResult`].
pub(super) struct Outcome {
    pub(super) fraction: f64,
    pub(super) text: String,
    pub(super) lcd: Option<LcdEvidence>,
    /// False when the check did not run: its advice would not help.
    pub(super) advice: bool,
}

impl Outcome {
    pub(super) fn pass(text: impl Into<String>) -> Outcome {
        Outcome {
            fraction: 1.0,
            text: text.into(),
            lcd: None,
            advice: true,
        }
    }

    pub(super) fn fail(text: impl Into<String>) -> Outcome {
        Outcome {
            fraction: 0.0,
            text: text.into(),
            lcd: None,
            advice: true,
        }
    }

    pub(super) fn not_run(why: impl std::fmt::Display) -> Outcome {
        Outcome {
            advice: false,
            ..Outcome::fail(format!("not run: {why}"))
        }
    }
}

/// Every check not run: the first says why in full, the rest refer to it.
pub(super) fn all_not_run(checks: &[Check], why: &str, short: &str) -> Vec<CheckResult> {
    checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let text = if i == 0 { why } else { short };
            to_result(c, Outcome::not_run(text))
        })
        .collect()
}

pub(super) fn to_result(check: &Check, o: Outcome) -> CheckResult {
    let passed = o.fraction >= 1.0;
    let mut output = o.text;
    if !passed && o.advice && !check.feedback.is_empty() {
        if !output.is_empty() {
            output.push('\n');
        }
        output.push_str(&check.feedback);
    }
    CheckResult {
        name: check.name.clone(),
        score: round2(check.points * o.fraction.clamp(0.0, 1.0)),
        max_score: check.points,
        passed,
        visibility: check.visibility,
        output,
        lcd: o.lcd,
    }
}

/// Evaluates assertions on a finished run; returns the failures and LCD evidence.
pub(super) fn evaluate(
    expect: &[Assertion],
    got: &Observation,
    reference: Option<&Observation>,
) -> (Vec<String>, Option<LcdEvidence>) {
    let mut failures = Vec::new();
    let mut lcd = None;
    for a in expect {
        match a {
            Assertion::Memory { spec, expected } => {
                let (addr, bytes) = match got.read(spec) {
                    Ok(x) => x,
                    Err(e) => {
                        failures.push(e);
                        continue;
                    }
                };
                let want = match expected {
                    Expected::Value(v) => value_bytes(*v, bytes.len()),
                    Expected::Bytes(b) => b.clone(),
                    Expected::Reference => match reference.map(|r| r.read(spec)) {
                        Some(Ok((_, b))) => b,
                        Some(Err(e)) => {
                            failures.push(format!("reference solution: {e}"));
                            continue;
                        }
                        None => continue,
                    },
                };
                if bytes != want {
                    let whose = if *expected == Expected::Reference {
                        "the reference has"
                    } else {
                        "expected"
                    };
                    failures.push(describe_bytes(spec, addr, &bytes, &want, whose));
                }
            }
            Assertion::Register { reg, expected } => {
                let v = got.register(*reg);
                let want = match expected {
                    Expected::Value(v) => *v as u16,
                    Expected::Bytes(_) => continue,
                    Expected::Reference => match reference {
                        Some(r) => r.register(*reg),
                        None => continue,
                    },
                };
                if v != want {
                    failures.push(format!(
                        "register {} is ${v:04X}, expected ${want:04X}",
                        reg.name()
                    ));
                }
            }
            Assertion::Lcd { expected, region } => {
                let want = match expected {
                    LcdExpected::Frame(f) => **f,
                    LcdExpected::Reference => match reference {
                        Some(r) => r.frame,
                        None => continue,
                    },
                    LcdExpected::Unchanged { last_keys } => {
                        match got.before_last.iter().find(|(n, _)| n == last_keys) {
                            Some((_, f)) => *f,
                            None => {
                                failures.push(format!(
                                    "the LCD before the last {last_keys} key(s) was not kept (the script has fewer)"
                                ));
                                continue;
                            }
                        }
                    }
                };
                if let Some(d) = got.frame.diff(&want, *region) {
                    let (n, x, y) = (d.pixels, d.first.0, d.first.1);
                    failures.push(match expected {
                        LcdExpected::Reference => format!(
                            "the LCD differs from the reference solution's in {n} pixel(s) of {region}, first at x={x}, y={y}"
                        ),
                        LcdExpected::Frame(_) => format!(
                            "the LCD differs from the expected picture in {n} pixel(s) of {region}, first at x={x}, y={y}"
                        ),
                        LcdExpected::Unchanged { last_keys } => format!(
                            "the last {last_keys} key(s) changed {n} pixel(s) of {region}, first at x={x}, y={y}; after them the screen must stay as it was"
                        ),
                    });
                    lcd.get_or_insert(LcdEvidence {
                        actual: got.frame,
                        expected: want,
                        region: *region,
                    });
                }
            }
            Assertion::LcdVolume(want) => {
                if got.lcd_volume != *want {
                    failures.push(format!(
                        "the LCD's electronic volume is {} (${:02X}), expected {want} (the byte after a $81 command)",
                        got.lcd_volume, got.lcd_volume
                    ));
                }
            }
            Assertion::Serial(s) => {
                let text = &got.serial;
                let ok = match s {
                    SerialExpected::Equals(t) => text == t,
                    SerialExpected::Contains(t) => text.contains(t.as_str()),
                    SerialExpected::Regex(r) => r.is_match(text),
                    SerialExpected::Reference => reference.is_none_or(|r| &r.serial == text),
                };
                if !ok {
                    let want = match s {
                        SerialExpected::Equals(t) => format!("exactly {t:?}"),
                        SerialExpected::Contains(t) => format!("something containing {t:?}"),
                        SerialExpected::Regex(r) => format!("text matching /{}/", r.as_str()),
                        SerialExpected::Reference => format!(
                            "what the reference sent, {:?}",
                            reference.map(|r| r.serial.as_str()).unwrap_or_default()
                        ),
                    };
                    let shown: String = text.chars().take(200).collect();
                    failures.push(format!("the serial output was {shown:?}, expected {want}"));
                }
            }
            Assertion::Flag { flag, set } => {
                let is_set = got.regs.ccr & stops::flag_mask(*flag) != 0;
                if is_set != *set {
                    failures.push(format!(
                        "flag {flag} is {}, expected {} (CCR ${:02X})",
                        u8::from(is_set),
                        u8::from(*set),
                        got.regs.ccr
                    ));
                }
            }
            Assertion::Connect4 { board, equal } => match got.read(board) {
                Ok((_, bytes)) => failures.extend(stops::connect4_problem(&bytes, *equal)),
                Err(e) => failures.push(e),
            },
            Assertion::CyclesAtMost(max) => {
                if got.cycles > *max {
                    failures.push(format!(
                        "took {} E-cycles, more than the {max} allowed",
                        got.cycles
                    ));
                }
            }
        }
    }
    (failures, lcd)
}

/// A note when the program sits in a loop nothing can leave: a branch to
/// itself (`bra *`), or a few instructions and a jump back (`inx / bra
/// busy`) that the run halted in.
pub(super) fn stuck_note(m: &Machine) -> Option<String> {
    let pc = m.registers().pc;
    let ins = Instruction::decode(pc, |a| m.peek(a)).ok()?;
    if ins.jump_target() == Some(pc) {
        return Some(format!(
            "the program is stuck in a loop on itself at {} (`{ins}`)",
            locate(m.program(), pc)
        ));
    }
    let back = m.endless_loop_back()?;
    let mut text = Vec::new();
    let mut at = pc;
    while at <= back && text.len() <= 16 {
        let i = Instruction::decode(at, |a| m.peek(a)).ok()?;
        text.push(i.to_string());
        at = at.wrapping_add(i.len());
    }
    Some(format!(
        "the program is stuck in an endless loop at {} (`{}`) that nothing can leave",
        locate(m.program(), pc),
        text.join("; ")
    ))
}
