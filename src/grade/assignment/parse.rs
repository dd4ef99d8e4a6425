//! From the TOML text to typed checks: the raw schema (unknown keys are
//! errors) and its validation, every mistake named with the check it is in.

use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    pub(super) assignment: RawHeader,
    #[serde(default)]
    pub(super) limits: Limits,
    #[serde(default)]
    pub(super) check: Vec<RawCheck>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHeader {
    pub(super) id: String,
    pub(super) title: String,
    pub(super) entry: String,
    pub(super) reference: Option<String>,
    #[serde(default)]
    pub(super) provided: Vec<String>,
    #[serde(default)]
    pub(super) required_symbols: Vec<String>,
    /// The source dialect of the reference and the submissions.
    #[serde(default)]
    pub(super) dialect: crate::asm::Dialect,
    /// The board: `trainer11` (default), `evb` or a board file next to
    /// assignment.toml (docs/boards.md).
    pub(super) board: Option<String>,
    /// Informational; Gradescope applies `after_due_date` itself.
    #[serde(default)]
    #[allow(dead_code)]
    pub(super) due: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    pub(super) description: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) enum RawKind {
    Assembles,
    Scenario,
    Differential,
    Breakpoint,
    Games,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCheck {
    pub(super) name: String,
    pub(super) kind: RawKind,
    pub(super) points: f64,
    #[serde(default)]
    pub(super) visibility: Visibility,
    #[serde(default)]
    pub(super) feedback: String,
    // scenario
    pub(super) keys: Option<String>,
    pub(super) max_cycles: Option<u64>,
    #[serde(default)]
    pub(super) expect: Vec<RawExpect>,
    // differential
    pub(super) games: Option<u32>,
    pub(super) seed: Option<u64>,
    pub(super) generator: Option<String>,
    pub(super) columns: Option<u8>,
    pub(super) rows: Option<u8>,
    pub(super) start_column: Option<u8>,
    pub(super) alphabet: Option<Vec<String>>,
    pub(super) max_moves: Option<u32>,
    pub(super) until: Option<String>,
    pub(super) after_end: Option<u32>,
    pub(super) compare_lcd: Option<bool>,
    pub(super) compare: Option<Vec<String>>,
    // breakpoint
    pub(super) at: Option<String>,
    pub(super) set: Option<std::collections::BTreeMap<String, u16>>,
    pub(super) finish: Option<bool>,
    pub(super) preserved: Option<Vec<String>>,
    // games
    pub(super) board: Option<String>,
    pub(super) each_move: Option<Vec<RawExpect>>,
    pub(super) game_over: Option<Vec<RawExpect>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExpect {
    #[serde(alias = "memory")]
    pub(super) symbol: Option<String>,
    pub(super) register: Option<String>,
    pub(super) lcd: Option<String>,
    pub(super) lcd_volume: Option<i64>,
    pub(super) serial: Option<String>,
    pub(super) serial_contains: Option<String>,
    pub(super) serial_regex: Option<String>,
    pub(super) serial_reference: Option<bool>,
    pub(super) cycles_at_most: Option<u64>,
    pub(super) flag: Option<String>,
    connect4: Option<String>,
    pub(super) stones: Option<String>,
    pub(super) equals: Option<u64>,
    pub(super) bytes: Option<Vec<u8>>,
    pub(super) same_as_reference: Option<bool>,
    pub(super) frame: Option<String>,
    pub(super) frame_file: Option<String>,
    pub(super) region: Option<[u32; 4]>,
    pub(super) last_keys: Option<u32>,
}

/// Names the fields that a kind does not take, so a typo is not silently ignored.
pub(super) fn reject_fields(
    rc: &RawCheck,
    kind: &str,
    fields: &[(&str, bool)],
) -> Result<(), String> {
    let _ = rc;
    match fields.iter().find(|(_, present)| *present) {
        Some((name, _)) => Err(format!("`{name}` does not apply to kind = \"{kind}\"")),
        None => Ok(()),
    }
}

pub(super) fn convert_kind(
    rc: &RawCheck,
    dir: &Path,
    has_reference: bool,
) -> Result<CheckKind, String> {
    let scenario_fields = [
        ("keys", rc.keys.is_some()),
        ("max_cycles", rc.max_cycles.is_some()),
        ("expect", !rc.expect.is_empty()),
    ];
    let differential_fields = [
        ("games", rc.games.is_some()),
        ("seed", rc.seed.is_some()),
        ("generator", rc.generator.is_some()),
        ("columns", rc.columns.is_some()),
        ("rows", rc.rows.is_some()),
        ("start_column", rc.start_column.is_some()),
        ("alphabet", rc.alphabet.is_some()),
        ("max_moves", rc.max_moves.is_some()),
        ("until", rc.until.is_some()),
        ("after_end", rc.after_end.is_some()),
        ("compare_lcd", rc.compare_lcd.is_some()),
        ("compare", rc.compare.is_some()),
    ];
    let break_fields = [
        ("at", rc.at.is_some()),
        ("set", rc.set.is_some()),
        ("finish", rc.finish.is_some()),
        ("preserved", rc.preserved.is_some()),
    ];
    let games_fields = [
        ("board", rc.board.is_some()),
        ("each_move", rc.each_move.is_some()),
        ("game_over", rc.game_over.is_some()),
    ];
    match rc.kind {
        RawKind::Assembles => {
            reject_fields(rc, "assembles", &scenario_fields)?;
            reject_fields(rc, "assembles", &differential_fields)?;
            reject_fields(rc, "assembles", &break_fields)?;
            reject_fields(rc, "assembles", &games_fields)?;
            Ok(CheckKind::Assembles)
        }
        RawKind::Breakpoint => {
            reject_fields(rc, "breakpoint", &differential_fields)?;
            reject_fields(rc, "breakpoint", &games_fields)?;
            convert_break(rc, dir, has_reference).map(CheckKind::Breakpoint)
        }
        RawKind::Games => {
            reject_fields(rc, "games", &scenario_fields)?;
            reject_fields(rc, "games", &break_fields)?;
            convert_games(rc, dir).map(CheckKind::Games)
        }
        RawKind::Scenario => {
            reject_fields(rc, "scenario", &differential_fields)?;
            reject_fields(rc, "scenario", &break_fields)?;
            reject_fields(rc, "scenario", &games_fields)?;
            let keys = rc.keys.clone().unwrap_or_default();
            // Parsed now so a typo fails the assignment, not every student.
            let script =
                crate::script::Script::parse_keys(&keys).map_err(|e| format!("keys: {e}"))?;
            let expect = convert_list(&rc.expect, dir, "expect")?;
            if expect.is_empty() {
                return Err("a scenario needs at least one `expect`".into());
            }
            let actions = script.actions.len();
            if let Some(n) = expect
                .iter()
                .filter_map(Assertion::unchanged_last_keys)
                .find(|&n| n as usize > actions)
            {
                return Err(format!(
                    "lcd = \"unchanged\" with last_keys = {n}, but `keys` has {actions} item(s)"
                ));
            }
            if !has_reference && expect.iter().any(Assertion::uses_reference) {
                return Err(
                    "compares with the reference, but `[assignment]` names no `reference`".into(),
                );
            }
            Ok(CheckKind::Scenario(Scenario {
                keys,
                max_cycles: rc.max_cycles,
                expect,
            }))
        }
        RawKind::Differential => {
            reject_fields(rc, "differential", &scenario_fields)?;
            reject_fields(rc, "differential", &break_fields)?;
            reject_fields(rc, "differential", &games_fields)?;
            if !has_reference {
                return Err("a differential check needs `reference` in `[assignment]`".into());
            }
            let games = rc.games.unwrap_or(20);
            if games == 0 || games > 10_000 {
                return Err("`games` must be 1..10000".into());
            }
            let generator = match rc.generator.as_deref().unwrap_or("connect4") {
                "connect4" => {
                    if rc.alphabet.is_some() {
                        return Err("`alphabet` belongs to generator = \"keys\"".into());
                    }
                    let columns = rc.columns.unwrap_or(7);
                    let rows = rc.rows.unwrap_or(6);
                    let start_column = rc.start_column.unwrap_or(columns / 2);
                    if columns == 0 || rows == 0 || start_column >= columns {
                        return Err(
                            "`columns`, `rows` must be > 0 and `start_column` < `columns`".into(),
                        );
                    }
                    Generator::Connect4 {
                        columns,
                        rows,
                        start_column,
                    }
                }
                "keys" => {
                    if rc.columns.is_some() || rc.rows.is_some() || rc.start_column.is_some() {
                        return Err(
                            "`columns`, `rows`, `start_column` belong to generator = \"connect4\""
                                .into(),
                        );
                    }
                    let alphabet = rc.alphabet.clone().unwrap_or_default();
                    if alphabet.is_empty() {
                        return Err("generator = \"keys\" needs a non-empty `alphabet`".into());
                    }
                    Generator::Keys { alphabet }
                }
                other => {
                    return Err(format!(
                        "unknown generator `{other}`: use \"connect4\" or \"keys\""
                    ))
                }
            };
            let until = rc.until.as_deref().map(MemSpec::parse).transpose()?;
            let compare = rc
                .compare
                .clone()
                .unwrap_or_default()
                .iter()
                .map(|s| MemSpec::parse(s))
                .collect::<Result<Vec<_>, _>>()?;
            let compare_lcd = rc.compare_lcd.unwrap_or(true);
            if !compare_lcd && compare.is_empty() {
                return Err(
                    "compares nothing: set `compare_lcd = true` or list `compare` symbols".into(),
                );
            }
            Ok(CheckKind::Differential(Differential {
                games,
                seed: rc.seed.unwrap_or(1),
                generator,
                max_moves: rc.max_moves.unwrap_or(60).max(1),
                until,
                after_end: rc.after_end.unwrap_or(0),
                compare_lcd,
                compare,
            }))
        }
    }
}

/// The assertions of an `expect`-like list, numbered in errors.
pub(super) fn convert_list(
    list: &[RawExpect],
    dir: &Path,
    what: &str,
) -> Result<Vec<Assertion>, String> {
    list.iter()
        .enumerate()
        .map(|(i, e)| convert_expect(e, dir).map_err(|m| format!("{what} {}: {m}", i + 1)))
        .collect()
}

pub(super) fn parse_reg(name: &str) -> Result<Reg, String> {
    Reg::parse(name)
        .ok_or_else(|| format!("unknown register `{name}`: use a, b, d, x, y, sp, pc or ccr"))
}

/// `lcd = "unchanged"` compares with the screen before a scenario's last
/// keys: only scenarios have such keys.
fn no_unchanged(expect: &[Assertion], what: &str) -> Result<(), String> {
    match expect.iter().any(|a| a.unchanged_last_keys().is_some()) {
        true => Err(format!(
            "lcd = \"unchanged\" belongs to scenarios (their last keys); {what} has none"
        )),
        false => Ok(()),
    }
}

pub(super) fn convert_break(
    rc: &RawCheck,
    dir: &Path,
    has_reference: bool,
) -> Result<BreakCheck, String> {
    let at = rc
        .at
        .clone()
        .ok_or("kind = \"breakpoint\" needs `at`, a breakpoint spec like \"drawBoard\" or \"drawCell:3 if A == 4\"")?;
    // Parsed now so a typo fails the assignment, not every student; it is
    // placed in each submission's program when the check runs.
    crate::debug::breakpoint::BreakSpec::parse(&at).map_err(|e| e.to_string())?;
    let keys = rc.keys.clone().unwrap_or_default();
    crate::script::Script::parse_keys(&keys).map_err(|e| format!("keys: {e}"))?;
    let set = rc
        .set
        .iter()
        .flatten()
        .map(|(name, v)| {
            let reg = parse_reg(name)?;
            if matches!(reg, Reg::A | Reg::B | Reg::Ccr) && *v > 0xFF {
                return Err(format!("`set`: {v} does not fit in register {name}"));
            }
            if reg == Reg::Pc {
                return Err("`set` may not change the PC".into());
            }
            Ok((reg, *v))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let finish = rc.finish.unwrap_or(false);
    let preserved = rc
        .preserved
        .iter()
        .flatten()
        .map(|n| parse_reg(n))
        .collect::<Result<Vec<_>, _>>()?;
    if !preserved.is_empty() && !finish {
        return Err(
            "`preserved` compares the return with the breakpoint: set `finish = true`".into(),
        );
    }
    let expect = convert_list(&rc.expect, dir, "expect")?;
    no_unchanged(&expect, "a breakpoint check")?;
    if expect.is_empty() && preserved.is_empty() {
        return Err("a breakpoint check needs `expect` or `preserved`".into());
    }
    if !has_reference && expect.iter().any(Assertion::uses_reference) {
        return Err("compares with the reference, but `[assignment]` names no `reference`".into());
    }
    if expect
        .iter()
        .any(|a| matches!(a, Assertion::CyclesAtMost(_)))
    {
        return Err("`cycles_at_most` belongs to scenarios".into());
    }
    Ok(BreakCheck {
        keys,
        at,
        set,
        finish,
        preserved,
        max_cycles: rc.max_cycles,
        expect,
    })
}

pub(super) fn convert_games(rc: &RawCheck, dir: &Path) -> Result<Games, String> {
    let games = rc.games.unwrap_or(20);
    if games == 0 || games > 10_000 {
        return Err("`games` must be 1..10000".into());
    }
    if rc.generator.as_deref().is_some_and(|g| g != "connect4") {
        return Err(
            "kind = \"games\" plays Connect 4: `generator` can only be \"connect4\"".into(),
        );
    }
    if rc.columns.is_some_and(|c| c != 7) || rc.rows.is_some_and(|r| r != 6) {
        return Err("kind = \"games\" plays on the firmware's 7x6 board".into());
    }
    let unused = [
        ("alphabet", rc.alphabet.is_some()),
        ("after_end", rc.after_end.is_some()),
        ("compare_lcd", rc.compare_lcd.is_some()),
        ("compare", rc.compare.is_some()),
    ];
    reject_fields(rc, "games", &unused)?;
    let board = MemSpec::parse(rc.board.as_deref().unwrap_or("board"))?;
    let board = MemSpec { len: 336, ..board };
    let start_column = rc.start_column.unwrap_or(3);
    if start_column >= 7 {
        return Err("`start_column` must be 0..6".into());
    }
    let each_move = convert_list(rc.each_move.as_deref().unwrap_or(&[]), dir, "each_move")?;
    let game_over = convert_list(rc.game_over.as_deref().unwrap_or(&[]), dir, "game_over")?;
    no_unchanged(&each_move, "a games check")?;
    no_unchanged(&game_over, "a games check")?;
    if each_move
        .iter()
        .chain(&game_over)
        .any(|a| a.uses_reference() || matches!(a, Assertion::CyclesAtMost(_)))
    {
        return Err("games compare with no reference and count no cycles: use fixed values".into());
    }
    Ok(Games {
        games,
        seed: rc.seed.unwrap_or(1),
        board,
        start_column,
        max_moves: rc.max_moves.unwrap_or(30).max(1),
        until: rc.until.as_deref().map(MemSpec::parse).transpose()?,
        each_move,
        game_over,
    })
}

pub(super) fn convert_expect(e: &RawExpect, dir: &Path) -> Result<Assertion, String> {
    let subjects = [
        ("symbol", e.symbol.is_some()),
        ("register", e.register.is_some()),
        ("lcd", e.lcd.is_some()),
        ("lcd_volume", e.lcd_volume.is_some()),
        ("serial", e.serial.is_some()),
        ("serial_contains", e.serial_contains.is_some()),
        ("serial_regex", e.serial_regex.is_some()),
        ("serial_reference", e.serial_reference.is_some()),
        ("cycles_at_most", e.cycles_at_most.is_some()),
        ("flag", e.flag.is_some()),
        ("connect4", e.connect4.is_some()),
    ];
    let given: Vec<&str> = subjects.iter().filter(|s| s.1).map(|s| s.0).collect();
    let [subject] = given.as_slice() else {
        return Err(format!(
            "name exactly one of symbol, register, flag, lcd, lcd_volume, serial, serial_contains, serial_regex, serial_reference, cycles_at_most, connect4 (found {})",
            if given.is_empty() { "none".to_string() } else { given.join(", ") }
        ));
    };
    let value_fields = [
        ("equals", e.equals.is_some()),
        ("bytes", e.bytes.is_some()),
        ("same_as_reference", e.same_as_reference.is_some()),
    ];
    let lcd_fields = [
        ("frame", e.frame.is_some()),
        ("frame_file", e.frame_file.is_some()),
        ("region", e.region.is_some()),
        ("last_keys", e.last_keys.is_some()),
    ];
    if e.stones.is_some() && *subject != "connect4" {
        return Err(format!("`stones` does not go with `{subject}`"));
    }
    let only = |allowed: &[&str]| -> Result<(), String> {
        let extra = value_fields
            .iter()
            .chain(lcd_fields.iter())
            .find(|(n, present)| *present && !allowed.contains(n));
        match extra {
            Some((n, _)) => Err(format!("`{n}` does not go with `{subject}`")),
            None => Ok(()),
        }
    };
    let expected = || -> Result<Expected, String> {
        let chosen = value_fields.iter().filter(|f| f.1).count();
        if chosen != 1 {
            return Err(format!(
                "`{subject}` needs exactly one of `equals`, `bytes`, `same_as_reference = true`"
            ));
        }
        if let Some(v) = e.equals {
            return Ok(Expected::Value(v));
        }
        if let Some(b) = &e.bytes {
            return Ok(Expected::Bytes(b.clone()));
        }
        match e.same_as_reference {
            Some(true) => Ok(Expected::Reference),
            _ => Err("`same_as_reference = false` checks nothing; remove it".into()),
        }
    };
    match *subject {
        "symbol" => {
            only(&["equals", "bytes", "same_as_reference"])?;
            let spec = MemSpec::parse(e.symbol.as_deref().unwrap_or_default())?;
            let expected = expected()?;
            match &expected {
                Expected::Bytes(b) if b.len() != spec.len as usize => {
                    return Err(format!(
                        "`{spec}` is {} byte(s) but `bytes` lists {}",
                        spec.len,
                        b.len()
                    ))
                }
                Expected::Value(v) if spec.len < 8 && *v >> (8 * spec.len) != 0 => {
                    return Err(format!(
                        "{v} does not fit in the {} byte(s) of `{spec}`",
                        spec.len
                    ))
                }
                Expected::Value(_) if spec.len > 8 => {
                    return Err(format!(
                        "`equals` needs at most 8 bytes; use `bytes` for `{spec}`"
                    ))
                }
                _ => {}
            }
            Ok(Assertion::Memory { spec, expected })
        }
        "register" => {
            only(&["equals", "same_as_reference"])?;
            let name = e.register.as_deref().unwrap_or_default();
            let reg = Reg::parse(name).ok_or_else(|| {
                format!("unknown register `{name}`: use a, b, d, x, y, sp, pc or ccr")
            })?;
            Ok(Assertion::Register {
                reg,
                expected: expected()?,
            })
        }
        "lcd" => {
            only(&["frame", "frame_file", "region", "last_keys"])?;
            let lcd = e.lcd.as_deref().unwrap_or_default();
            if e.last_keys.is_some() && lcd != "unchanged" {
                return Err(format!(
                    "`last_keys` goes with lcd = \"unchanged\", not lcd = \"{lcd}\""
                ));
            }
            let region = match e.region {
                Some([x, y, w, h]) => Rect::new(x, y, w, h).ok_or_else(|| {
                    format!("region [{x}, {y}, {w}, {h}] is empty or leaves the 128x64 LCD")
                })?,
                None => Rect::FULL,
            };
            let expected = match lcd {
                "unchanged" => match e.last_keys {
                    Some(n) if n > 0 => LcdExpected::Unchanged { last_keys: n },
                    _ => {
                        return Err(
                            "lcd = \"unchanged\" needs `last_keys = N` (N >= 1): the screen before the scenario's last N keys is what it must still show"
                                .into(),
                        )
                    }
                },
                "reference" => {
                    if e.frame.is_some() || e.frame_file.is_some() {
                        return Err("lcd = \"reference\" takes no `frame`".into());
                    }
                    LcdExpected::Reference
                }
                "frame" => {
                    let text = match (&e.frame, &e.frame_file) {
                        (Some(t), None) => t.clone(),
                        (None, Some(f)) => crate::grade::read_course_file(&dir.join(f))
                            .map_err(|err| format!("frame_file `{f}`: {err}"))?,
                        _ => {
                            return Err(
                                "lcd = \"frame\" needs one of `frame` or `frame_file`".into()
                            )
                        }
                    };
                    LcdExpected::Frame(Box::new(Frame::parse(&text)?))
                }
                other => {
                    return Err(format!(
                        "lcd = \"{other}\": use \"reference\", \"frame\" or \"unchanged\""
                    ))
                }
            };
            Ok(Assertion::Lcd { expected, region })
        }
        "lcd_volume" => {
            only(&[])?;
            let v = e.lcd_volume.unwrap_or_default();
            let v = u8::try_from(v).ok().filter(|v| *v <= 63).ok_or_else(|| {
                format!("lcd_volume = {v}: the LCD's electronic volume is 0..63 (the byte after the $81 command)")
            })?;
            Ok(Assertion::LcdVolume(v))
        }
        "serial" => {
            only(&[])?;
            Ok(Assertion::Serial(SerialExpected::Equals(
                e.serial.clone().unwrap_or_default(),
            )))
        }
        "serial_contains" => {
            only(&[])?;
            Ok(Assertion::Serial(SerialExpected::Contains(
                e.serial_contains.clone().unwrap_or_default(),
            )))
        }
        "serial_regex" => {
            only(&[])?;
            let re = e.serial_regex.as_deref().unwrap_or_default();
            let re = regex::Regex::new(re).map_err(|err| format!("serial_regex: {err}"))?;
            Ok(Assertion::Serial(SerialExpected::Regex(re)))
        }
        "serial_reference" => {
            only(&[])?;
            if e.serial_reference != Some(true) {
                return Err("`serial_reference = false` checks nothing; remove it".into());
            }
            Ok(Assertion::Serial(SerialExpected::Reference))
        }
        "flag" => {
            only(&["equals"])?;
            let name = e.flag.as_deref().unwrap_or_default();
            let flag = match name.to_ascii_uppercase().as_str() {
                f @ ("S" | "X" | "H" | "I" | "N" | "Z" | "V" | "C") => f.chars().next(),
                _ => None,
            }
            .ok_or_else(|| format!("unknown flag `{name}`: use one of S X H I N Z V C"))?;
            let set = match e.equals {
                Some(0) => false,
                Some(1) => true,
                _ => return Err(format!("flag `{name}` needs `equals = 0` or `equals = 1`")),
            };
            Ok(Assertion::Flag { flag, set })
        }
        "connect4" => {
            only(&[])?;
            let board = MemSpec::parse(e.connect4.as_deref().unwrap_or_default())?;
            let equal = match e.stones.as_deref().unwrap_or("alternate") {
                "alternate" => false,
                "equal" => true,
                other => {
                    return Err(format!(
                        "stones = \"{other}\": use \"alternate\" or \"equal\""
                    ))
                }
            };
            Ok(Assertion::Connect4 {
                board: MemSpec { len: 336, ..board },
                equal,
            })
        }
        _ => {
            only(&[])?;
            Ok(Assertion::CyclesAtMost(
                e.cycles_at_most.unwrap_or_default(),
            ))
        }
    }
}
