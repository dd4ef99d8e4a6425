//! Checks that look inside a run instead of at its end: stop at a debugger
//! breakpoint (`LOC[:N][ if COND]`, see [`crate::debug::breakpoint`]),
//! optionally run on until the subroutine returns (JSR pushes the return
//! address, RTS pulls it: M68HC11 RM 6.4.2), and assert registers, flags and
//! memory there; and random Connect-4 games judged move by move by
//! assertions rather than by a reference solution.

use super::{
    drop_keys, evaluate, game_rng, hex_bytes, locate, run_chunked, run_script, Booted, Cut, Grader,
    Observation, Outcome, RunFailure, StackGuard, CHUNK_CYCLES, GAME_BUDGET_FAILURES,
};
use crate::cpu::Registers;
use crate::debug::breakpoint::Breakpoints as DebugBreakpoints;
use crate::debug::session::TargetView;
use crate::grade::assignment::{BreakCheck, Games, MemSpec, Reg};
use crate::machine::{Breakpoints, Machine, StopConditions, StopReason};
use crate::script::Script;
use std::fmt::Write as _;

/// Runs `m` (a key script may be in progress) until `arrived` accepts a stop
/// at one of `addrs`, within `budget` E-cycles. The key script goes on as the
/// program runs; when it is done, the program runs on alone.
fn run_to(
    m: &mut Machine,
    addrs: &[u16],
    budget: u64,
    guard: &mut Option<StackGuard>,
    mut arrived: impl FnMut(&Machine) -> bool,
) -> Result<(), Cut> {
    let mut stop = StopConditions::budget(CHUNK_CYCLES);
    stop.breakpoints = addrs.iter().copied().collect::<Breakpoints>();
    if stop.breakpoints.contains(m.registers().pc) && arrived(m) {
        return Ok(());
    }
    run_chunked(m, &mut stop, budget, guard, |m, reason| {
        // A run never stops at its own first instruction, so an arrival
        // that ends a chunk is taken here, or it would be missed.
        let at_addr = match reason {
            StopReason::Breakpoint(_) => true,
            _ => addrs.contains(&m.registers().pc),
        };
        (at_addr && arrived(m)).then_some(())
    })
}

/// Where a breakpoint check ended: the registers at the breakpoint (after
/// `set`) and the run observed at the end (the breakpoint, or the return).
pub(super) struct BreakRun {
    at_break: Registers,
    obs: Observation,
    machine: Machine,
}

impl Grader {
    /// Plays a breakpoint check's keys until its breakpoint holds, applies
    /// `set`, and with `finish` runs on until the subroutine returns.
    pub(super) fn run_break(&self, booted: &Booted, b: &BreakCheck) -> Result<BreakRun, String> {
        let mut m = booted.machine.clone();
        let mut guard = booted.guard.clone();
        let program = m.program().clone();
        let script = Script::parse_keys(&b.keys).map_err(|e| e.to_string())?;
        let budget = b.max_cycles.unwrap_or(self.assignment.limits.max_cycles);
        let mut bps = DebugBreakpoints::new();
        let id = bps
            .add_spec(&b.at, &program)
            .map_err(|e| format!("{e}; the check stops there, so keep that name"))?;
        let addrs = bps.get(id).map(|bp| bp.addrs.clone()).unwrap_or_default();
        let start = m.cycles();
        m.start_script_with(&script, self.timings.scenario);
        let mut arrivals = 0u32;
        let mut last = None;
        let reached = run_to(&mut m, &addrs, budget, &mut guard, |m| {
            let pc = m.registers().pc;
            if last == Some((m.cycles(), pc)) {
                return false;
            }
            last = Some((m.cycles(), pc));
            arrivals += 1;
            bps.check(pc, &TargetView(m)).is_some()
        });
        let keys = if b.keys.is_empty() {
            "after the start".to_string()
        } else {
            format!("with keys `{}`", b.keys)
        };
        let place = addrs
            .first()
            .map(|&a| locate(&program, a))
            .unwrap_or_default();
        match reached {
            Ok(()) => {}
            Err(Cut::Failed(f)) => {
                return Err(format!(
                    "before the breakpoint `{}` was reached ({keys}): {f}",
                    b.at
                ))
            }
            Err(Cut::Budget) => {
                let hits = bps.get(id).map_or(0, |bp| bp.hits);
                let mut text = format!(
                    "the program never stopped at the breakpoint `{}` ({place}) {keys} within {budget} E-cycles",
                    b.at
                );
                if arrivals == 0 {
                    text.push_str(": it never got there; is the routine still called on this way?");
                } else {
                    let _ = write!(
                        text,
                        ": it got there {arrivals} time(s), the condition held {hits} time(s), but the breakpoint waits for that to happen {} time(s)",
                        bps.get(id).and_then(|bp| bp.spec.hit_count).unwrap_or(1)
                    );
                }
                return Err(text);
            }
        }
        if !b.set.is_empty() {
            let mut r = m.registers();
            for &(reg, v) in &b.set {
                reg.write(&mut r, v);
            }
            m.set_registers(r);
        }
        let at_break = m.registers();
        if b.finish {
            let sp = at_break.sp;
            let ret = m.peek_word(sp.wrapping_add(1));
            let sp_after = sp.wrapping_add(2);
            let left = budget.saturating_sub(m.cycles() - start).max(1);
            // Back at the return address with the stack as before the JSR
            // (a recursive call returning to the same place has a lower SP).
            run_to(&mut m, &[ret], left, &mut guard, |m| {
                m.registers().sp >= sp_after
            })
            .map_err(|e| match e {
                Cut::Failed(f) => format!(
                    "after the breakpoint `{}`, before the subroutine returned to {}: {f}",
                    b.at,
                    locate(&program, ret)
                ),
                Cut::Budget => format!(
                    "stopped at `{}`, but the subroutine did not return to {} (the return address on the stack) within the budget of {budget} E-cycles; does it end with rts, with as many pulls as pushes?",
                    b.at,
                    locate(&program, ret)
                ),
            })?;
        }
        let obs = Observation::take(&m, m.cycles() - start);
        Ok(BreakRun {
            at_break,
            obs,
            machine: m,
        })
    }

    /// Runs a breakpoint check on a booted submission.
    pub(super) fn check_break(&self, index: usize, booted: &Booted, b: &BreakCheck) -> Outcome {
        let run = match self.run_break(booted, b) {
            Ok(r) => r,
            Err(e) => return Outcome::fail(e),
        };
        let reference = self.reference.as_ref().and_then(|r| r.breaks.get(&index));
        let (mut failures, lcd) = evaluate(&b.expect, &run.obs, reference);
        for &reg in &b.preserved {
            // At the first instruction of a subroutine SP is 2 below the
            // caller's: JSR pushed the return address, RTS takes it back.
            let before = match reg {
                Reg::Sp => run.at_break.sp.wrapping_add(2),
                _ => reg.read(&run.at_break),
            };
            let after = run.obs.register(reg);
            if before != after {
                failures.push(format!(
                    "register {} was ${before:04X} {} and is ${after:04X} after the return",
                    reg.name(),
                    if reg == Reg::Sp {
                        "before the call"
                    } else {
                        "at the breakpoint"
                    }
                ));
            }
        }
        if failures.is_empty() {
            return Outcome::pass("passed");
        }
        let when = if b.finish {
            format!(
                "after the subroutine at `{}` returned (stopped there at {})",
                b.at,
                locate(run.machine.program(), run.at_break.pc)
            )
        } else {
            format!(
                "at the breakpoint `{}` ({})",
                b.at,
                locate(run.machine.program(), run.at_break.pc)
            )
        };
        let keys = if b.keys.is_empty() {
            String::new()
        } else {
            format!(", keys `{}`", b.keys)
        };
        let set = if b.set.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = b
                .set
                .iter()
                .map(|(r, v)| format!("{}=${v:X}", r.name().to_uppercase()))
                .collect();
            format!(", with {} set at the breakpoint", list.join(" "))
        };
        Outcome {
            lcd,
            ..Outcome::fail(format!(
                "{when}{keys}{set}:\n  - {}",
                failures.join("\n  - ")
            ))
        }
    }

    /// Plays a games check on a booted submission.
    pub(super) fn check_games(&self, booted: &Booted, g: &Games) -> Outcome {
        let budget = self.assignment.limits.max_cycles;
        let (mut passed, mut out_of_cycles, mut skipped) = (0u32, 0u32, 0u32);
        let mut first_failure: Option<String> = None;
        let mut moves_played = 0u32;
        for game in 0..g.games {
            if out_of_cycles >= GAME_BUDGET_FAILURES {
                skipped = g.games - game;
                break;
            }
            let mut m = booted.machine.clone();
            let mut guard = booted.guard.clone();
            let mut rng = game_rng(g.seed, game);
            let mut cursor = g.start_column;
            let mut keys_so_far: Vec<String> = Vec::new();
            let mut failure_text = None;
            for n in 0..g.max_moves {
                let cells = match read_board(&m, &g.board) {
                    Ok(c) => c,
                    Err(e) => {
                        failure_text = Some(e);
                        break;
                    }
                };
                let open: Vec<u8> = (0..7u8)
                    .filter(|&c| cells.get(usize::from(c)) == Some(&Cell::Empty))
                    .collect();
                let Some(&target) = open.get(rng.below(open.len() as u64) as usize) else {
                    break;
                };
                let script = Script {
                    actions: drop_keys(cursor, target, 7, false),
                };
                keys_so_far.push(script.to_string());
                cursor = target;
                moves_played += 1;
                let what = format!("move {} (player 1 drops in column {target})", n + 1);
                if let Err(e) = run_script(&mut m, &script, self.timings.game, budget, &mut guard) {
                    if matches!(e, RunFailure::Budget { .. }) {
                        out_of_cycles += 1;
                    }
                    failure_text = Some(format!("in {what}: {e}"));
                    break;
                }
                let obs = Observation::take(&m, 0);
                let mut problems = Vec::new();
                let ones = match read_board(&m, &g.board) {
                    Ok(c) => c.iter().filter(|c| **c == Cell::One).count(),
                    Err(e) => {
                        failure_text = Some(e);
                        break;
                    }
                };
                if ones != (n + 1) as usize {
                    problems.push(format!(
                        "player 1 has {ones} stone(s) after {} drop(s) of its own: a stone went missing or landed for the wrong player",
                        n + 1
                    ));
                }
                let ended = match &g.until {
                    Some(spec) => match obs.read(spec) {
                        Ok((_, b)) => b.iter().any(|&x| x != 0),
                        Err(e) => {
                            problems.push(e);
                            false
                        }
                    },
                    None => false,
                };
                let list = if ended { &g.game_over } else { &g.each_move };
                problems.extend(evaluate(list, &obs, None).0);
                if !problems.is_empty() {
                    failure_text = Some(format!(
                        "after {what}{}:\n  - {}",
                        if ended { ", which ended the game" } else { "" },
                        problems.join("\n  - ")
                    ));
                    break;
                }
                if ended {
                    break;
                }
            }
            match failure_text {
                None => passed += 1,
                Some(t) => {
                    if first_failure.is_none() {
                        first_failure = Some(format!(
                            "game {} {t}\n  keys from the start: {}",
                            game + 1,
                            keys_so_far.join(",")
                        ));
                    }
                }
            }
        }
        let mut text = format!(
            "{passed} of {} random games ({moves_played} moves of player 1) kept every rule after every move",
            g.games
        );
        if let Some(t) = first_failure {
            let _ = write!(text, "\nfirst failure: {t}");
        }
        if skipped > 0 {
            let _ = write!(
                text,
                "\nthe last {skipped} game(s) were not played: {GAME_BUDGET_FAILURES} games already ran out of cycles"
            );
        }
        Outcome {
            fraction: f64::from(passed) / f64::from(g.games.max(1)),
            ..Outcome::fail(text)
        }
    }
}

impl BreakRun {
    /// The observation the reference's run leaves for `same_as_reference`.
    pub(super) fn into_observation(self) -> Observation {
        self.obs
    }
}

/// The CCR mask of a flag letter (S X H I N Z V C, bit 7 to bit 0); the
/// assignment parser admits only these letters.
pub(super) fn flag_mask(flag: char) -> u8 {
    use crate::cpu::registers::flags;
    match flag {
        'S' => flags::S,
        'X' => flags::X,
        'H' => flags::H,
        'I' => flags::I,
        'N' => flags::N,
        'Z' => flags::Z,
        'V' => flags::V,
        _ => flags::C,
    }
}

/// The three cell pictures of the firmware (`cellToBuffer`, and the stones
/// `stone1ToBuffer` / `stone2ToBuffer` OR into an empty cell).
const EMPTY: [u8; 8] = [0xFF, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0xFF];
const STONE1: [u8; 8] = [0xFF, 0x81, 0x99, 0xBD, 0xBD, 0x99, 0x81, 0xFF];
const STONE2: [u8; 8] = [0xFF, 0x81, 0x99, 0xA5, 0xA5, 0x99, 0x81, 0xFF];

/// What a buffer cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    One,
    Two,
    Other,
}

fn cell_of(bytes: &[u8]) -> Cell {
    if bytes == EMPTY {
        Cell::Empty
    } else if bytes == STONE1 {
        Cell::One
    } else if bytes == STONE2 {
        Cell::Two
    } else {
        Cell::Other
    }
}

/// The 42 cells, row 0 (top) first, from a 336-byte buffer.
fn cells(bytes: &[u8]) -> Vec<Cell> {
    bytes.chunks(8).map(cell_of).collect()
}

fn read_board(m: &Machine, spec: &MemSpec) -> Result<Vec<Cell>, String> {
    let (_, bytes) = super::read_spec(m.program(), |a| m.peek(a), spec)?;
    Ok(cells(&bytes))
}

/// What is wrong with a Viergewinnt buffer (336 bytes), if anything: a cell
/// that is no picture of the game, a hole under a stone, or stones that do
/// not alternate (`equal`: player 2 must have answered).
pub(super) fn connect4_problem(bytes: &[u8], equal: bool) -> Option<String> {
    let cells = cells(bytes);
    if cells.len() != 42 {
        return Some(format!("the buffer has {} bytes, not 336", bytes.len()));
    }
    let at = |col: usize, row: usize| cells.get(row * 7 + col).copied().unwrap_or(Cell::Other);
    for row in 0..6 {
        for col in 0..7 {
            if at(col, row) == Cell::Other {
                let off = row * 56 + col * 8;
                return Some(format!(
                    "the cell in column {col}, row {row} (board+{off}) holds {}: neither empty nor a stone",
                    hex_bytes(bytes.get(off..off + 8).unwrap_or(&[]))
                ));
            }
        }
    }
    for col in 0..7 {
        for row in 0..5 {
            if at(col, row) != Cell::Empty && at(col, row + 1) == Cell::Empty {
                return Some(format!(
                    "column {col} has a stone in row {row} above an empty cell: stones fall to the bottom"
                ));
            }
        }
    }
    let ones = cells.iter().filter(|c| **c == Cell::One).count();
    let twos = cells.iter().filter(|c| **c == Cell::Two).count();
    let ok = if equal {
        ones == twos
    } else {
        ones == twos || ones == twos + 1
    };
    if !ok {
        let want = if equal {
            "as many (player 2 answers every stone)"
        } else {
            "as many or one fewer (the players take turns, player 1 first)"
        };
        return Some(format!(
            "player 1 has {ones} stone(s) and player 2 {twos}: player 2 should have {want}"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(cells: &[(usize, usize, [u8; 8])]) -> Vec<u8> {
        let mut b: Vec<u8> = (0..42).flat_map(|_| EMPTY).collect();
        for &(col, row_from_bottom, pic) in cells {
            let off = (5 - row_from_bottom) * 56 + col * 8;
            b[off..off + 8].copy_from_slice(&pic);
        }
        b
    }

    #[test]
    fn legal_positions_pass() {
        assert_eq!(connect4_problem(&board(&[]), true), None);
        let b = board(&[(3, 0, STONE1), (3, 1, STONE2)]);
        assert_eq!(connect4_problem(&b, true), None);
        let b = board(&[(3, 0, STONE1)]);
        assert_eq!(connect4_problem(&b, false), None);
        assert!(connect4_problem(&b, true)
            .unwrap()
            .contains("player 2 should"));
    }

    #[test]
    fn broken_positions_are_named() {
        let b = board(&[(3, 1, STONE1), (2, 0, STONE2)]);
        let e = connect4_problem(&b, true).unwrap();
        assert!(e.contains("column 3 has a stone in row 4"), "{e}");
        let b = board(&[(0, 0, STONE2), (1, 0, STONE2)]);
        assert!(connect4_problem(&b, false)
            .unwrap()
            .contains("player 1 has 0"));
        let b = board(&[(6, 0, [0xFF; 8])]);
        let e = connect4_problem(&b, false).unwrap();
        assert!(e.contains("column 6, row 5 (board+328)"), "{e}");
        assert!(connect4_problem(&[0; 10], false).is_some());
    }

    #[test]
    fn registers_set_and_read() {
        let mut r = Registers::default();
        Reg::D.write(&mut r, 0x1234);
        assert_eq!((r.a, r.b), (0x12, 0x34));
        Reg::Sp.write(&mut r, 0x3FF0);
        assert_eq!(Reg::Sp.read(&r), 0x3FF0);
        assert_eq!(Reg::D.read(&r), 0x1234);
        assert_eq!(flag_mask('C'), 1);
        assert_eq!(flag_mask('S'), 0x80);
    }
}
