//! Random games: the deterministic generator, the moves it makes, and the
//! differential check that plays them on the submission and the reference.

use super::*;
use rayon::prelude::*;
use std::collections::HashSet;

/// For each game, the earlier game it shares the most first moves with
/// and how many (at least one), if any: the same keys, and the same
/// frames and bytes expected after each (the reference played them alike).
pub(super) fn shared_openings(games: &[Vec<RefMove>]) -> Vec<Option<(usize, usize)>> {
    let same = |a: &RefMove, b: &RefMove| {
        a.script == b.script && a.frame == b.frame && a.compared == b.compared
    };
    (0..games.len())
        .map(|g| {
            (0..g)
                .map(|e| {
                    let len = games[g]
                        .iter()
                        .zip(&games[e])
                        .take_while(|(a, b)| same(a, b))
                        .count();
                    (e, len)
                })
                .filter(|&(_, len)| len > 0)
                .max_by_key(|&(e, len)| (len, std::cmp::Reverse(e)))
        })
        .collect()
}

/// Games that ran out of cycles before the rest are not played (they would too).
pub(super) const GAME_BUDGET_FAILURES: u32 = 2;

/// Longest wait for idle after a move of a differential game (1 s of board time).
pub(super) const GAME_SETTLE_CAP: u64 = 2_000_000;

/// One move of a reference game: the keys and what the reference showed after them.
#[derive(Clone, Debug)]
pub(super) struct RefMove {
    pub(super) script: Script,
    pub(super) label: String,
    pub(super) frame: Frame,
    pub(super) compared: Vec<Vec<u8>>,
}

/// A tiny deterministic generator (SplitMix64) so the same seed makes the same games.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// The random numbers of game `game` of a check seeded with `seed`.
pub(super) fn game_rng(seed: u64, game: u32) -> SplitMix {
    SplitMix::new(seed ^ (u64::from(game) + 1).wrapping_mul(0xA24B_AED4_963E_E407))
}

/// The taps that walk a wrapping cursor from column `cursor` to `target`
/// (key 3 right, key 1 left; the short way unless `long_way`) and drop
/// there (key 0).
pub(super) fn drop_keys(cursor: u8, target: u8, columns: u8, long_way: bool) -> Vec<Action> {
    let n = u64::from(columns.max(1));
    let right = (u64::from(target) + n - u64::from(cursor)) % n;
    let left = (n - right) % n;
    let go_right = (right <= left) != long_way;
    let (key, count) = if go_right { (3u8, right) } else { (1u8, left) };
    let mut actions: Vec<Action> = (0..count).map(|_| Action::Tap(key)).collect();
    actions.push(Action::Tap(0));
    actions
}

/// Makes the moves of one game while it is played on the reference.
pub(super) struct MoveMaker {
    pub(super) rng: SplitMix,
    pub(super) heights: Vec<u8>,
    pub(super) cursor: u8,
}

impl MoveMaker {
    pub(super) fn new(gen: &Generator, seed: u64, game: u32) -> MoveMaker {
        let (columns, start) = match gen {
            Generator::Connect4 {
                columns,
                start_column,
                ..
            } => (*columns, *start_column),
            Generator::Keys { .. } => (0, 0),
        };
        MoveMaker {
            rng: game_rng(seed, game),
            heights: vec![0; usize::from(columns)],
            cursor: start,
        }
    }

    /// The next move's actions and a short description; None if no move is possible.
    pub(super) fn next(&mut self, gen: &Generator) -> Option<(Vec<Action>, String)> {
        match gen {
            Generator::Keys { alphabet } => {
                let pick = alphabet.get(self.rng.below(alphabet.len() as u64) as usize)?;
                let script = Script::parse_keys(pick).ok()?;
                Some((script.actions, pick.clone()))
            }
            Generator::Connect4 { columns, rows, .. } => {
                let open: Vec<u8> = (0..*columns)
                    .filter(|c| self.heights.get(usize::from(*c)).is_some_and(|h| h < rows))
                    .collect();
                let target = *open.get(self.rng.below(open.len() as u64) as usize)?;
                // Mostly the short way round, sometimes the long way (tests the wrap-around).
                let long_way = self.rng.below(4) == 0;
                let actions = drop_keys(self.cursor, target, *columns, long_way);
                self.cursor = target;
                if let Some(h) = self.heights.get_mut(usize::from(target)) {
                    *h += 1;
                }
                Some((actions, format!("drop in column {target}")))
            }
        }
    }
}

impl Grader {
    pub(super) fn reference_games(
        &self,
        booted: &Booted,
        d: &Differential,
    ) -> Result<Vec<Vec<RefMove>>, String> {
        // The games are independent: played in parallel (in the caller's
        // thread pool), the first failure in game order reported as before.
        let games: Vec<Result<Vec<RefMove>, String>> = (0..d.games)
            .into_par_iter()
            .map(|g| self.reference_game(booted, d, g))
            .collect();
        games.into_iter().collect()
    }

    /// Game `g` of [`Grader::reference_games`] on the reference.
    fn reference_game(
        &self,
        booted: &Booted,
        d: &Differential,
        g: u32,
    ) -> Result<Vec<RefMove>, String> {
        let mut maker = MoveMaker::new(&d.generator, d.seed, g);
        let mut m = booted.machine.clone();
        let mut guard = booted.guard.clone();
        let mut moves = Vec::new();
        let mut ended_at: Option<u32> = None;
        let budget = self.assignment.limits.max_cycles;
        for n in 0..d.max_moves {
            if ended_at.is_some_and(|e| n >= e + d.after_end) {
                break;
            }
            let Some((actions, label)) = maker.next(&d.generator) else {
                break;
            };
            let script = Script { actions };
            run_script(&mut m, &script, self.timings.game, budget, &mut guard)
                .map_err(|e| format!("game {}, move {}: {e}", g + 1, n + 1))?;
            let program = m.program().clone();
            let read = |spec: &MemSpec| read_spec(&program, |a| m.peek(a), spec);
            let compared = d
                .compare
                .iter()
                .map(|spec| read(spec).map(|(_, b)| b))
                .collect::<Result<Vec<_>, _>>()?;
            if ended_at.is_none() {
                if let Some(until) = &d.until {
                    let (_, b) = read(until)?;
                    if b.iter().any(|&x| x != 0) {
                        ended_at = Some(n + 1);
                    }
                }
            }
            moves.push(RefMove {
                script,
                label,
                frame: frame_of(&m),
                compared,
            });
        }
        Ok(moves)
    }

    pub(super) fn check_differential(
        &self,
        booted: &Booted,
        d: &Differential,
        games: &[Vec<RefMove>],
    ) -> Outcome {
        let mut passed = 0u32;
        let mut out_of_cycles = 0u32;
        let mut skipped = 0usize;
        let mut first_failure: Option<(String, Option<LcdEvidence>)> = None;
        let budget = self.assignment.limits.max_cycles;
        let openings = if self.shared_moves {
            shared_openings(games)
        } else {
            vec![None; games.len()]
        };
        let wanted: HashSet<(usize, usize)> = openings.iter().flatten().copied().collect();
        // The compared bytes' addresses, looked up once: every move reads them.
        let program = booted.machine.program().clone();
        let bases: Vec<Result<u16, String>> = d
            .compare
            .iter()
            .map(|spec| spec_base(&program, spec))
            .collect();
        let mut reached: HashMap<(usize, usize), (Machine, Option<StackGuard>)> = HashMap::new();
        for (g, moves) in games.iter().enumerate() {
            if out_of_cycles >= GAME_BUDGET_FAILURES {
                skipped = games.len() - g;
                break;
            }
            // An opening an earlier game played without a difference:
            // the same keys from the same machine, so the same machine.
            let (mut m, mut guard, start) =
                match openings[g].and_then(|k| reached.get(&k).map(|r| (k.1, r))) {
                    Some((len, (m, guard))) => (m.clone(), guard.clone(), len),
                    None => (booted.machine.clone(), booted.guard.clone(), 0),
                };
            let mut keys_so_far: Vec<String> = moves[..start]
                .iter()
                .map(|mv| mv.script.to_string())
                .collect();
            let mut failure: Option<(String, Option<LcdEvidence>)> = None;
            for (n, mv) in moves.iter().enumerate().skip(start) {
                keys_so_far.push(mv.script.to_string());
                let what = format!("move {} ({})", n + 1, mv.label);
                if let Err(e) =
                    run_script(&mut m, &mv.script, self.timings.game, budget, &mut guard)
                {
                    if matches!(e, RunFailure::Budget { .. }) {
                        out_of_cycles += 1;
                    }
                    failure = Some((format!("in {what}: {e}"), None));
                    break;
                }
                let mut diffs = Vec::new();
                let mut evidence = None;
                if d.compare_lcd {
                    let frame = frame_of(&m);
                    if let Some(df) = frame.diff(&mv.frame, crate::grade::frame::Rect::FULL) {
                        diffs.push(format!(
                            "the LCD differs in {} pixel(s), first at x={}, y={}",
                            df.pixels, df.first.0, df.first.1
                        ));
                        evidence = Some(LcdEvidence {
                            actual: frame,
                            expected: mv.frame,
                            region: crate::grade::frame::Rect::FULL,
                        });
                    }
                }
                for ((spec, want), base) in d.compare.iter().zip(&mv.compared).zip(&bases) {
                    match base
                        .as_ref()
                        .map(|&a| (a, read_at(a, spec.len, |a| m.peek(a))))
                    {
                        Ok((_, b)) if &b == want => {}
                        Ok((addr, b)) => {
                            diffs.push(describe_bytes(spec, addr, &b, want, "the reference has"))
                        }
                        Err(e) => diffs.push(e.clone()),
                    }
                }
                if !diffs.is_empty() {
                    failure = Some((format!("after {what}: {}", diffs.join("; ")), evidence));
                    break;
                }
                if wanted.contains(&(g, n + 1)) {
                    reached.insert((g, n + 1), (m.clone(), guard.clone()));
                }
            }
            match failure {
                None => passed += 1,
                Some((text, ev)) => {
                    if first_failure.is_none() {
                        let keys = keys_so_far.join(",");
                        first_failure = Some((
                            format!(
                                "game {} differs {text}\n  keys from the start: {keys}",
                                g + 1
                            ),
                            ev,
                        ));
                    }
                }
            }
        }
        let total = games.len().max(1) as u32;
        let mut text =
            format!("{passed} of {total} random games played exactly like the reference solution");
        let mut lcd = None;
        if let Some((t, ev)) = first_failure {
            let _ = write!(text, "\nfirst difference: {t}");
            lcd = ev;
        }
        if skipped > 0 {
            let _ = write!(
                text,
                "\nthe last {skipped} game(s) were not played: {GAME_BUDGET_FAILURES} games already ran out of cycles"
            );
        }
        Outcome {
            fraction: f64::from(passed) / f64::from(total),
            lcd,
            ..Outcome::fail(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(keys: &str) -> RefMove {
        RefMove {
            script: Script::parse_keys(keys).expect("keys"),
            label: keys.to_string(),
            frame: Frame::default(),
            compared: vec![vec![1, 2]],
        }
    }

    #[test]
    fn each_game_shares_the_longest_opening_of_an_earlier_one() {
        let games = vec![
            vec![mv("drop"), mv("left,drop"), mv("drop")],
            vec![mv("right,drop"), mv("drop")],
            vec![mv("drop"), mv("left,drop"), mv("right,drop")],
            vec![mv("drop"), mv("drop")],
            vec![mv("right,drop"), mv("drop"), mv("drop")],
            vec![mv("left,drop")],
        ];
        assert_eq!(
            shared_openings(&games),
            vec![None, None, Some((0, 2)), Some((0, 1)), Some((1, 2)), None]
        );
        // The same keys with another expectation are no shared move.
        let mut other = games.clone();
        other[2][1].compared = vec![vec![9]];
        assert_eq!(shared_openings(&other)[2], Some((0, 1)));
    }
}
