//! The prepared reference: what the reference solution showed in every
//! scenario, game and breakpoint of an assignment, written once by
//! `hc11lab grade --prepare` into the assignment folder
//! ([`PREPARED_FILE`]) and read by every later grading instead of running
//! the reference again. In a container that grades one submission per
//! process (Gradescope, PrairieLearn) the reference's runs are about half
//! of the work.
//!
//! A record is used only when its key matches: a hash of this hc11lab
//! executable's bytes (the emulator that made the runs), the reference
//! program (bytes, entry, symbols) and everything of the assignment a run
//! depends on (checks, limits, board, dialect). Any other record (another
//! build, a changed `assignment.toml`, a damaged file) is ignored with a
//! note, and the reference is run as without one: a stale record can cost
//! time, never a grade.

use super::*;
use std::hash::Hasher;

/// The record's file name, beside `assignment.toml`.
pub const PREPARED_FILE: &str = "reference.prepared";

/// The first bytes of a record.
const MAGIC: &[u8; 8] = b"HC11PREP";

/// The layout version; part of the key too.
const FORMAT: u32 = 1;

/// Largest record read (a real one is a few hundred kilobytes deflated).
const MAX_FILE: u64 = 64 << 20;

/// Largest record body after inflating it.
const MAX_BODY: u64 = 256 << 20;

/// The reference's runs, as a record holds them: per scenario (by keys)
/// and breakpoint check (by index) the observation, per differential check
/// (by index) every game's frames and compared bytes after each move.
pub(super) struct Runs {
    pub(super) scenarios: HashMap<String, Observation>,
    pub(super) games: HashMap<usize, Vec<Vec<RefMove>>>,
    pub(super) breaks: HashMap<usize, Observation>,
}

/// A hash of this process's executable, once per process: the emulator
/// that made a record must be the one that reads it.
fn executable_hash() -> Option<u64> {
    static HASH: OnceLock<Option<u64>> = OnceLock::new();
    *HASH.get_or_init(|| {
        let exe = std::env::current_exe().ok()?;
        let bytes = std::fs::read(exe).ok()?;
        let mut h = rustc_hash::FxHasher::default();
        h.write(&bytes);
        h.write_usize(bytes.len());
        Some(h.finish())
    })
}

/// The key of the record for `assignment` with the reference `program`,
/// or `None` where this executable cannot be read (no record then).
pub(super) fn key(assignment: &Assignment, program: &Program) -> Option<u64> {
    let exe = executable_hash()?;
    let mut h = rustc_hash::FxHasher::default();
    h.write_u32(FORMAT);
    h.write_u64(exe);
    h.write(&program_key(program));
    // Debug renders every field in declaration order (no maps inside), so
    // the same assignment gives the same text in every process.
    let runs = format!(
        "{:?}|{:?}|{:?}|{:?}",
        assignment.checks, assignment.limits, assignment.board_setup, assignment.dialect
    );
    h.write(runs.as_bytes());
    Some(h.finish())
}

/// The record's bytes: header, key, then the deflated runs.
pub(super) fn encode(key: u64, runs: &Runs) -> Vec<u8> {
    let mut w = Writer::default();
    let mut scenarios: Vec<_> = runs.scenarios.iter().collect();
    scenarios.sort_by(|a, b| a.0.cmp(b.0));
    w.u32(scenarios.len() as u32);
    for (keys, obs) in scenarios {
        w.str(keys);
        w.observation(obs);
    }
    let mut games: Vec<_> = runs.games.iter().collect();
    games.sort_by_key(|g| *g.0);
    w.u32(games.len() as u32);
    for (check, games) in games {
        w.u32(*check as u32);
        w.u32(games.len() as u32);
        for moves in games {
            w.u32(moves.len() as u32);
            for mv in moves {
                w.frame(&mv.frame);
                w.u32(mv.compared.len() as u32);
                for bytes in &mv.compared {
                    w.bytes(bytes);
                }
            }
        }
    }
    let mut breaks: Vec<_> = runs.breaks.iter().collect();
    breaks.sort_by_key(|b| *b.0);
    w.u32(breaks.len() as u32);
    for (check, obs) in breaks {
        w.u32(*check as u32);
        w.observation(obs);
    }
    let mut out = Vec::with_capacity(w.0.len() / 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&key.to_le_bytes());
    let mut z = flate2::write::DeflateEncoder::new(out, flate2::Compression::default());
    // Writing into a Vec cannot fail.
    let _ = std::io::Write::write_all(&mut z, &w.0);
    z.finish().unwrap_or_default()
}

/// The key a record was made with, if it is a record of this layout.
fn record_key(bytes: &[u8]) -> Option<u64> {
    let head = bytes.get(..20)?;
    if &head[..8] != MAGIC || head[8..12] != FORMAT.to_le_bytes() {
        return None;
    }
    Some(u64::from_le_bytes(head[12..20].try_into().ok()?))
}

/// The runs of a record made with `key` for the reference `program`, or
/// why it cannot be used. Game moves get their keys again from the
/// assignment's generator (they depend on nothing else).
pub(super) fn decode(
    bytes: &[u8],
    key: u64,
    program: &Arc<Program>,
    assignment: &Assignment,
) -> Result<Runs, String> {
    match record_key(bytes) {
        None => return Err("it is not a prepared reference of this hc11lab".into()),
        Some(k) if k != key => return Err(
            "it was prepared by another hc11lab build or for another assignment.toml or reference"
                .into(),
        ),
        Some(_) => {}
    }
    let mut body = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(
            flate2::read::DeflateDecoder::new(&bytes[20..]),
            MAX_BODY + 1,
        ),
        &mut body,
    )
    .map_err(|e| format!("it is damaged ({e})"))?;
    if body.len() as u64 > MAX_BODY {
        return Err("it is damaged (too large)".into());
    }
    let damaged = || "it is damaged (cut short)".to_string();
    let mut r = Reader {
        bytes: &body,
        at: 0,
    };
    let mut runs = Runs {
        scenarios: HashMap::new(),
        games: HashMap::new(),
        breaks: HashMap::new(),
    };
    for _ in 0..r.u32().ok_or_else(damaged)? {
        let keys = r.str().ok_or_else(damaged)?;
        let obs = r.observation(program).ok_or_else(damaged)?;
        runs.scenarios.insert(keys, obs);
    }
    for _ in 0..r.u32().ok_or_else(damaged)? {
        let check = r.u32().ok_or_else(damaged)? as usize;
        let Some(CheckKind::Differential(d)) = assignment.checks.get(check).map(|c| &c.kind) else {
            return Err(format!(
                "it names check {check}, which is no differential check"
            ));
        };
        let count = r.u32().ok_or_else(damaged)?;
        let mut games = Vec::new();
        for g in 0..count {
            let mut maker = MoveMaker::new(&d.generator, d.seed, g);
            let n = r.u32().ok_or_else(damaged)?;
            let mut moves = Vec::new();
            for _ in 0..n {
                let (actions, label) = maker
                    .next(&d.generator)
                    .ok_or_else(|| "its games are longer than the generator's".to_string())?;
                let frame = r.frame().ok_or_else(damaged)?;
                let mut compared = Vec::new();
                for _ in 0..r.u32().ok_or_else(damaged)? {
                    compared.push(r.bytes().ok_or_else(damaged)?);
                }
                moves.push(RefMove {
                    script: Script { actions },
                    label,
                    frame,
                    compared,
                });
            }
            games.push(moves);
        }
        runs.games.insert(check, games);
    }
    for _ in 0..r.u32().ok_or_else(damaged)? {
        let check = r.u32().ok_or_else(damaged)? as usize;
        let obs = r.observation(program).ok_or_else(damaged)?;
        runs.breaks.insert(check, obs);
    }
    if r.at != body.len() {
        return Err("it is damaged (bytes after the end)".into());
    }
    Ok(runs)
}

/// Little-endian fields, lengths before their contents.
#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn frame(&mut self, f: &Frame) {
        for row in &f.rows {
            self.0.extend_from_slice(&row.to_le_bytes());
        }
    }
    fn observation(&mut self, o: &Observation) {
        self.frame(&o.frame);
        self.0.push(o.lcd_volume);
        let r = o.regs;
        self.0.extend_from_slice(&[r.a, r.b, r.ccr]);
        for w in [r.x, r.y, r.sp, r.pc] {
            self.0.extend_from_slice(&w.to_le_bytes());
        }
        self.str(&o.serial);
        self.bytes(&o.memory);
        self.u64(o.cycles);
        self.0.push(u8::from(o.in_endless_loop));
        self.u32(o.before_last.len() as u32);
        for (n, f) in &o.before_last {
            self.u32(*n);
            self.frame(f);
        }
    }
}

/// Reads what [`Writer`] wrote; `None` where the bytes end early.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn bytes(&mut self) -> Option<Vec<u8>> {
        let n = self.u32()? as usize;
        self.take(n).map(<[u8]>::to_vec)
    }
    fn str(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?).ok()
    }
    fn frame(&mut self) -> Option<Frame> {
        let mut f = Frame::default();
        for row in &mut f.rows {
            *row = u128::from_le_bytes(self.take(16)?.try_into().ok()?);
        }
        Some(f)
    }
    fn observation(&mut self, program: &Arc<Program>) -> Option<Observation> {
        let frame = self.frame()?;
        let lcd_volume = self.u8()?;
        // Struct fields are evaluated in the order written: the record's.
        let regs = Registers {
            a: self.u8()?,
            b: self.u8()?,
            ccr: self.u8()?,
            x: self.u16()?,
            y: self.u16()?,
            sp: self.u16()?,
            pc: self.u16()?,
            ..Registers::default()
        };
        let serial = self.str()?;
        let memory = self.bytes()?;
        let cycles = self.u64()?;
        let in_endless_loop = self.u8()? != 0;
        let mut before_last = Vec::new();
        for _ in 0..self.u32()? {
            let n = self.u32()?;
            before_last.push((n, self.frame()?));
        }
        Some(Observation {
            frame,
            lcd_volume,
            regs,
            serial,
            memory,
            cycles,
            program: program.clone(),
            in_endless_loop,
            before_last,
        })
    }
}

/// Reads the record of `assignment` at [`PREPARED_FILE`], if there is one:
/// `Ok(None)` without a file, `Err` (the reason, for a note) for a record
/// that cannot be used.
pub(super) fn load(
    assignment: &Assignment,
    program: &Arc<Program>,
) -> Result<Option<Runs>, String> {
    let path = assignment.dir.join(PREPARED_FILE);
    let Ok(meta) = std::fs::metadata(&path) else {
        return Ok(None);
    };
    let shown = format!("{}", path.display());
    if !meta.is_file() || meta.len() > MAX_FILE {
        return Err(format!(
            "{shown} is not a prepared reference; it was not used"
        ));
    }
    let bytes = crate::platform::fs::read(&path)
        .map_err(|e| format!("{shown} cannot be read ({e}); it was not used"))?;
    let Some(key) = key(assignment, program) else {
        return Err(format!(
            "{shown} was not used: this hc11lab cannot read its own executable to check the record"
        ));
    };
    decode(&bytes, key, program, assignment).map(Some).map_err(|why| {
        format!(
            "{shown} was not used: {why}; the reference was run instead (`hc11lab grade --prepare --assignment {}` writes it again)",
            assignment.dir.display()
        )
    })
}

impl Grader {
    /// Ok if a record holds a run for every check that compares with the
    /// reference (the key makes this so; a check here costs nothing).
    pub(super) fn covered(&self, runs: &Runs) -> Result<(), String> {
        for (i, c) in self.assignment.checks.iter().enumerate() {
            let there = match &c.kind {
                CheckKind::Scenario(s) => runs.scenarios.contains_key(&s.keys),
                CheckKind::Differential(_) => runs.games.contains_key(&i),
                CheckKind::Breakpoint(_) => runs.breaks.contains_key(&i),
                CheckKind::Assembles | CheckKind::Games(_) => true,
            };
            if !there {
                return Err(format!(
                    "{PREPARED_FILE} holds no run for check `{}`; the reference was run instead",
                    c.name
                ));
            }
        }
        Ok(())
    }

    /// Where the reference's runs came from: the prepared record, or the
    /// reference run now (and why a record beside it was not used).
    pub fn prepared(&self) -> &Prepared {
        &self.prepared
    }

    /// Writes the prepared reference ([`PREPARED_FILE`]) into the
    /// assignment folder, for later gradings by this same hc11lab build
    /// to read instead of running the reference; returns its path.
    pub fn write_prepared(&self) -> Result<std::path::PathBuf, GradeError> {
        let path = self.assignment.dir.join(PREPARED_FILE);
        let Some(reference) = &self.reference else {
            return Err(GradeError::Course(
                "the assignment has no reference solution: there is nothing to prepare".into(),
            ));
        };
        let Some(key) = key(&self.assignment, &reference.program) else {
            return Err(GradeError::Course(
                "this hc11lab cannot read its own executable, which a prepared reference is keyed by"
                    .into(),
            ));
        };
        let runs = Runs {
            scenarios: reference.scenarios.clone(),
            games: reference.games.clone(),
            breaks: reference.breaks.clone(),
        };
        crate::platform::fs::write(&path, &encode(key, &runs)).map_err(|source| {
            GradeError::Io {
                path: path.clone(),
                source,
            }
        })?;
        Ok(path)
    }
}
