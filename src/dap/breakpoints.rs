//! The client's breakpoints on the debugger's: source lines, labels
//! (function breakpoints) and addresses (instruction breakpoints) become
//! the debugger's breakpoints, data breakpoints its watchpoints. What the
//! debugger has no notion of is kept here: the protocol's hit conditions
//! beyond "from the Nth hit on", log points, and conditions and hit counts
//! on data breakpoints. At a stop the session asks [`Table::at_breakpoint`]
//! or [`Table::at_watchpoint`] whether the client wants to stop there.

use super::evaluate::LogTemplate;
use super::protocol::{memory_reference, Breakpoint, Source};
use super::sources::Sources;
use super::variables::MachineView;
use crate::debug::breakpoint::{BreakSpec, Location};
use crate::debug::condition::{BoundExpr, Expr};
use crate::debug::watch::WatchHit;
use crate::debug::Debugger;
use crate::image::{FileId, Program, SymbolKind};
use crate::machine::Machine;

/// How a hit count decides: `N` or `>= N` from the Nth hit on, `> N`,
/// `== N` only the Nth, `< N` / `<= N` the first ones, `% N` every Nth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitRule {
    /// From the Nth hit on (the debugger's own `:N`).
    AtLeast(u32),
    /// Only the Nth.
    Exactly(u32),
    /// Hits 1 to N.
    AtMost(u32),
    /// Every Nth.
    Every(u32),
}

/// Makes a rule from the number after its operator (`None`: out of range).
type MakeRule = fn(u32) -> Option<HitRule>;

impl HitRule {
    /// Parses a `hitCondition`; empty text is no rule.
    pub fn parse(text: &str) -> Result<Option<HitRule>, String> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        let ops: [(&str, MakeRule); 8] = [
            (">=", |n| Some(HitRule::AtLeast(n))),
            ("<=", |n| Some(HitRule::AtMost(n))),
            ("==", |n| Some(HitRule::Exactly(n))),
            (">", |n| n.checked_add(1).map(HitRule::AtLeast)),
            ("<", |n| n.checked_sub(1).map(HitRule::AtMost)),
            ("=", |n| Some(HitRule::Exactly(n))),
            ("%", |n| Some(HitRule::Every(n))),
            ("", |n| Some(HitRule::AtLeast(n))),
        ];
        for (op, make) in ops {
            let Some(rest) = t.strip_prefix(op) else {
                continue;
            };
            let n = number(rest.trim()).ok_or_else(|| hit_error(t))?;
            let rule = make(n).ok_or_else(|| hit_error(t))?;
            return match rule {
                HitRule::Every(0) | HitRule::AtMost(0) => Err(hit_error(t)),
                r => Ok(Some(r)),
            };
        }
        Err(hit_error(t))
    }

    /// Whether the hit with this count stops (or logs).
    pub fn wants(self, hits: u32) -> bool {
        match self {
            HitRule::AtLeast(n) => hits >= n,
            HitRule::Exactly(n) => hits == n,
            HitRule::AtMost(n) => hits <= n,
            HitRule::Every(n) => n != 0 && hits % n == 0,
        }
    }

    /// The hit count the debugger can apply itself (stopping no earlier
    /// than needed, so its fast path skips the hits before).
    fn engine_count(self) -> Option<u32> {
        match self {
            HitRule::AtLeast(n) | HitRule::Exactly(n) => Some(n.max(1)),
            HitRule::AtMost(_) | HitRule::Every(_) => None,
        }
    }
}

fn hit_error(t: &str) -> String {
    format!("hit condition `{t}`: expected N, >= N, > N, == N, < N, <= N or % N (N a number)")
}

fn number(s: &str) -> Option<u32> {
    match s.strip_prefix('$').or_else(|| s.strip_prefix("0x")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Which request a code breakpoint came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `setBreakpoints` on this file.
    Source(FileId),
    /// `setFunctionBreakpoints`.
    Function,
    /// `setInstructionBreakpoints`.
    Instruction,
}

impl Kind {
    /// The `stopped` event's reason for a stop at it.
    pub fn stop_reason(self) -> &'static str {
        match self {
            Kind::Source(_) => "breakpoint",
            Kind::Function => "function breakpoint",
            Kind::Instruction => "instruction breakpoint",
        }
    }
}

struct CodeBp {
    id: i64,
    kind: Kind,
    engine: u32,
    condition: Option<BoundExpr>,
    hit: Option<HitRule>,
    log: Option<LogTemplate>,
}

struct DataBp {
    id: i64,
    engine: u32,
    condition: Option<BoundExpr>,
    hit: Option<HitRule>,
    hits: u32,
}

/// What a stop at a breakpoint address comes to.
#[derive(Debug, Default, PartialEq)]
pub struct AtBreak {
    /// Log point messages, with their place.
    pub logs: Vec<(String, Option<Source>, Option<i64>)>,
    /// The stop's reason and the breakpoints that want it, if any does.
    pub stop: Option<(&'static str, Vec<i64>)>,
}

/// The client's breakpoints and their debugger ids.
#[derive(Default)]
pub struct Table {
    next_id: i64,
    code: Vec<CodeBp>,
    data: Vec<DataBp>,
}

/// One breakpoint as a request gives it.
pub struct Wanted<'a> {
    /// Where.
    pub location: Location,
    /// `condition`.
    pub condition: Option<&'a str>,
    /// `hitCondition`.
    pub hit_condition: Option<&'a str>,
    /// `logMessage`.
    pub log_message: Option<&'a str>,
}

impl Table {
    /// `id` again (a restart places a breakpoint under its old id), or a new one.
    pub fn take_id(&mut self, id: Option<i64>) -> i64 {
        match id {
            Some(i) => {
                self.next_id = self.next_id.max(i);
                i
            }
            None => {
                self.next_id += 1;
                self.next_id
            }
        }
    }

    /// Removes every code breakpoint of one kind.
    pub fn clear(&mut self, dbg: &mut Debugger<Machine>, kind: Kind) {
        for b in self.code.iter().filter(|b| b.kind == kind) {
            let _ = dbg.breakpoints.remove(b.engine);
        }
        self.code.retain(|b| b.kind != kind);
    }

    /// Removes every data breakpoint.
    pub fn clear_data(&mut self, dbg: &mut Debugger<Machine>) {
        for b in &self.data {
            let _ = dbg.watchpoints.remove(b.engine);
        }
        self.data.clear();
    }

    /// Places one code breakpoint and says how it went.
    pub fn add(
        &mut self,
        dbg: &mut Debugger<Machine>,
        sources: &Sources,
        kind: Kind,
        want: Wanted<'_>,
        id: Option<i64>,
    ) -> Breakpoint {
        let id = self.take_id(id);
        match self.try_add(dbg, kind, want, id) {
            Ok(addr) => {
                let program = dbg.program();
                let line = program.line_at(addr).filter(|l| l.addr == addr);
                Breakpoint {
                    id: Some(id),
                    verified: true,
                    source: line.map(|l| sources.source(l.file)),
                    line: line.map(|l| i64::from(l.line)),
                    instruction_reference: Some(memory_reference(addr)),
                    ..Breakpoint::default()
                }
            }
            Err(message) => unverified(Some(id), message),
        }
    }

    fn try_add(
        &mut self,
        dbg: &mut Debugger<Machine>,
        kind: Kind,
        want: Wanted<'_>,
        id: i64,
    ) -> Result<u16, String> {
        // The debugger's own copy: breakpoints are added while it is read.
        let program = std::sync::Arc::clone(dbg.target().program());
        let program = program.as_ref();
        let condition = match want.condition.map(str::trim).filter(|c| !c.is_empty()) {
            Some(c) => Some(Expr::parse(c).map_err(|e| format!("condition: {}", e.render(c)))?),
            None => None,
        };
        let bound = match &condition {
            Some(c) => Some(
                c.bind(program)
                    .map_err(|e| format!("condition: {}", e.render(c.source())))?,
            ),
            None => None,
        };
        let hit = HitRule::parse(want.hit_condition.unwrap_or(""))?;
        let log = match want.log_message.filter(|m| !m.is_empty()) {
            Some(m) => Some(LogTemplate::parse(m, program)?),
            None => None,
        };
        let text = match &condition {
            Some(c) => format!("{} if {}", want.location, c.source()),
            None => want.location.to_string(),
        };
        let spec = BreakSpec {
            location: want.location,
            condition,
            hit_count: hit.and_then(HitRule::engine_count),
            text,
        };
        let engine = dbg
            .breakpoints
            .add(spec, program)
            .map_err(|e| e.to_string())?;
        let addrs = dbg
            .breakpoints
            .get(engine)
            .map(|b| b.addrs.clone())
            .unwrap_or_default();
        if let Some(&addr) = addrs.first() {
            if let Some(note) = inside_instruction(program, addr) {
                let _ = dbg.breakpoints.remove(engine);
                return Err(note);
            }
        }
        self.code.push(CodeBp {
            id,
            kind,
            engine,
            condition: bound,
            hit,
            log,
        });
        addrs.first().copied().ok_or_else(|| "no address".into())
    }

    /// Replaces the data breakpoints.
    pub fn set_data(
        &mut self,
        dbg: &mut Debugger<Machine>,
        wanted: &[super::protocol::DataBreakpoint],
        reuse: Option<&[i64]>,
    ) -> Vec<Breakpoint> {
        self.clear_data(dbg);
        let mut out = Vec::new();
        for (k, w) in wanted.iter().enumerate() {
            let id = self.take_id(reuse.and_then(|r| r.get(k).copied()));
            match self.try_add_data(dbg, w, id) {
                Ok(()) => out.push(Breakpoint {
                    id: Some(id),
                    verified: true,
                    ..Breakpoint::default()
                }),
                Err(e) => out.push(unverified(Some(id), e)),
            }
        }
        out
    }

    fn try_add_data(
        &mut self,
        dbg: &mut Debugger<Machine>,
        w: &super::protocol::DataBreakpoint,
        id: i64,
    ) -> Result<(), String> {
        let kind = match w.access_type.as_deref().unwrap_or("write") {
            "read" => "read",
            "write" => "write",
            "readWrite" => "access",
            other => {
                return Err(format!(
                    "access type `{other}`: expected read, write or readWrite"
                ))
            }
        };
        let program = std::sync::Arc::clone(dbg.target().program());
        let program = program.as_ref();
        let condition = match w
            .condition
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
        {
            Some(c) => Some(
                Expr::parse(c)
                    .and_then(|e| e.bind(program))
                    .map_err(|e| format!("condition: {}", e.render(c)))?,
            ),
            None => None,
        };
        let hit = HitRule::parse(w.hit_condition.as_deref().unwrap_or(""))?;
        let engine = dbg
            .add_watchpoint(&format!("{kind} {}", w.data_id))
            .map_err(|e| e.to_string())?;
        self.data.push(DataBp {
            id,
            engine,
            condition,
            hit,
            hits: 0,
        });
        Ok(())
    }

    /// At a stop before the instruction at `pc` for a breakpoint: logs
    /// the log points hit there and tells whether any breakpoint wants
    /// the stop. The debugger has counted this visit's hits already; a
    /// breakpoint counted it if its condition holds now.
    pub fn at_breakpoint(&self, dbg: &Debugger<Machine>, sources: &Sources, pc: u16) -> AtBreak {
        let m = dbg.target();
        let view = MachineView(m);
        let mut out = AtBreak::default();
        let mut stops = Vec::new();
        let mut reason = None;
        for b in &self.code {
            let Some(e) = dbg.breakpoints.get(b.engine) else {
                continue;
            };
            if !e.enabled || !e.addrs.contains(&pc) {
                continue;
            }
            if b.condition.as_ref().is_some_and(|c| !c.holds(&view)) {
                continue;
            }
            if b.hit.is_some_and(|h| !h.wants(e.hits)) {
                continue;
            }
            match &b.log {
                Some(t) => {
                    let line = dbg.program().line_at(pc);
                    out.logs.push((
                        t.render(m) + "\n",
                        line.map(|l| sources.source(l.file)),
                        line.map(|l| i64::from(l.line)),
                    ));
                }
                None => {
                    reason.get_or_insert(b.kind.stop_reason());
                    stops.push(b.id);
                }
            }
        }
        out.stop = reason.map(|r| (r, stops));
        out
    }

    /// At a stop after an instruction that touched watched bytes: counts
    /// the hits of the data breakpoints whose condition holds and returns
    /// those that want the stop.
    pub fn at_watchpoint(&mut self, m: &Machine, hits: &[WatchHit]) -> Vec<i64> {
        let view = MachineView(m);
        let mut ids = Vec::new();
        for b in &mut self.data {
            if !hits.iter().any(|h| h.id == b.engine) {
                continue;
            }
            if b.condition.as_ref().is_some_and(|c| !c.holds(&view)) {
                continue;
            }
            b.hits = b.hits.saturating_add(1);
            if b.hit.is_none_or(|h| h.wants(b.hits)) {
                ids.push(b.id);
            }
        }
        ids
    }

    /// Switches the debugger's breakpoints behind log points off or on
    /// (going back in time stops at breakpoints only).
    pub fn enable_logs(&self, dbg: &mut Debugger<Machine>, on: bool) {
        for b in self.code.iter().filter(|b| b.log.is_some()) {
            let _ = dbg.breakpoints.set_enabled(b.engine, on);
        }
    }

    /// After going back to a breakpoint at `pc`: the breakpoints whose
    /// condition holds there (hit counts count forward only) and the stop's reason.
    pub fn reverse_hit(&self, dbg: &Debugger<Machine>, pc: u16) -> (&'static str, Vec<i64>) {
        let view = MachineView(dbg.target());
        let mut reason = None;
        let mut ids = Vec::new();
        for b in self.code.iter().filter(|b| b.log.is_none()) {
            let placed = dbg
                .breakpoints
                .get(b.engine)
                .is_some_and(|e| e.enabled && e.addrs.contains(&pc));
            if placed && b.condition.as_ref().is_none_or(|c| c.holds(&view)) {
                reason.get_or_insert(b.kind.stop_reason());
                ids.push(b.id);
            }
        }
        (reason.unwrap_or("breakpoint"), ids)
    }

    /// The client's ids of the data breakpoints among watchpoint hits.
    pub fn data_ids(&self, hits: &[WatchHit]) -> Vec<i64> {
        self.data
            .iter()
            .filter(|b| hits.iter().any(|h| h.id == b.engine))
            .map(|b| b.id)
            .collect()
    }
}

/// An unverified breakpoint with the reason.
pub fn unverified(id: Option<i64>, message: String) -> Breakpoint {
    Breakpoint {
        id,
        verified: false,
        message: Some(message),
        reason: Some("failed".into()),
        ..Breakpoint::default()
    }
}

/// Why a breakpoint at `addr` never hits: `addr` lies inside the bytes of
/// a source line without being its first byte, where no instruction starts.
fn inside_instruction(program: &Program, addr: u16) -> Option<String> {
    let line = program.line_at(addr)?;
    (line.addr != addr).then(|| {
        let place = program
            .source_place(line.addr)
            .map(|p| format!(" ({p})"))
            .unwrap_or_default();
        format!(
            "${addr:04X} is inside the instruction at ${:04X}{place}, where no instruction starts: it would never hit",
            line.addr
        )
    })
}

/// Where a breakpoint on line `line` of file `fid` sits: that line if it
/// has code, the next line with code if `line` only labels that code, or
/// why it cannot sit there.
pub fn place_line(program: &Program, fid: FileId, line: u32) -> Result<u32, String> {
    let has_code = |l: u32| {
        program
            .lines
            .iter()
            .any(|e| e.file == fid && e.line == l && e.len > 0)
    };
    if has_code(line) {
        return Ok(line);
    }
    let file = program.files.get(fid).ok_or("no such file")?;
    let name = file
        .path
        .file_name()
        .map_or_else(|| file.path.to_string_lossy(), |n| n.to_string_lossy())
        .into_owned();
    let Some(text) = file.line_text(line) else {
        return Err(format!(
            "{name} has {} lines; line {line} is past its end",
            file.text.lines().count()
        ));
    };
    let code = strip_comment(text).trim();
    if code.is_empty() {
        let kind = if text.trim().is_empty() {
            "empty"
        } else {
            "a comment"
        };
        return Err(format!(
            "line {line} of {name} is {kind}: no code to stop at"
        ));
    }
    let defined: Vec<_> = program
        .symbols
        .iter()
        .filter(|s| s.defined_at == Some((fid, line)))
        .collect();
    // A label alone on its line stands for the instruction after it.
    let next = program
        .lines
        .iter()
        .filter(|e| e.file == fid && e.line > line && e.len > 0)
        .min_by_key(|e| e.line);
    if let (Some(label), Some(next)) = (
        defined
            .iter()
            .find(|s| s.kind == SymbolKind::Label && s.size.is_none()),
        next,
    ) {
        if next.addr == label.value {
            return Ok(next.line);
        }
    }
    if let Some(s) = defined.first() {
        let what = match (s.kind, s.size) {
            (SymbolKind::Constant, _) => "defines the constant",
            (SymbolKind::Label, Some(_)) => "reserves or holds the data",
            (SymbolKind::Label, None) => "labels no instruction:",
        };
        return Err(format!(
            "line {line} of {name} {what} `{}`: no code to stop at",
            s.name
        ));
    }
    Err(format!(
        "line {line} of {name} produces no code (`{code}`): nothing to stop at"
    ))
}

/// The line without its comment: `;` anywhere outside quotes, or `*` in
/// the first column.
fn strip_comment(text: &str) -> &str {
    if text.starts_with('*') {
        return "";
    }
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, ';') => return &text[..i],
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program() -> Program {
        crate::open::open(None).expect("bundled").program
    }

    fn file(p: &Program, name: &str) -> FileId {
        crate::debug::breakpoint::find_file(p, name).expect("file")
    }

    #[test]
    fn hit_conditions() {
        let p = |t: &str| HitRule::parse(t).expect(t);
        assert_eq!(p(""), None);
        assert_eq!(p("3"), Some(HitRule::AtLeast(3)));
        assert_eq!(p(">= 3"), Some(HitRule::AtLeast(3)));
        assert_eq!(p(">3"), Some(HitRule::AtLeast(4)));
        assert_eq!(p("== 2"), Some(HitRule::Exactly(2)));
        assert_eq!(p("<3"), Some(HitRule::AtMost(2)));
        assert_eq!(p("% $10"), Some(HitRule::Every(16)));
        for bad in ["x", "% 0", "< 1", ">= -1", "== "] {
            assert!(HitRule::parse(bad).is_err(), "{bad}");
        }
        assert!(HitRule::Every(3).wants(6) && !HitRule::Every(3).wants(7));
        assert!(HitRule::Exactly(2).wants(2) && !HitRule::Exactly(2).wants(3));
        assert!(HitRule::AtMost(2).wants(1) && !HitRule::AtMost(2).wants(3));
    }

    #[test]
    fn lines_with_code_labels_comments_and_data() {
        let p = program();
        let input = file(&p, "Input.inc");
        // `psha`, the first instruction of readInput.
        assert_eq!(place_line(&p, input, 19), Ok(19));
        // `readInput` alone on its line: the instruction after it.
        assert_eq!(place_line(&p, input, 18), Ok(19));
        let comment = place_line(&p, input, 10).expect_err("comment");
        assert!(comment.contains("a comment"), "{comment}");
        let empty = place_line(&p, input, 7).expect_err("empty");
        assert!(empty.contains("empty"), "{empty}");
        let main = file(&p, "Viergewinnt.asm");
        let data = place_line(&p, main, 24).expect_err("data");
        assert!(data.contains("`board`"), "{data}");
        let constant = place_line(&p, main, 75).expect_err("constant");
        assert!(constant.contains("constant `boardSize`"), "{constant}");
        assert!(place_line(&p, input, 100_000).is_err());
    }

    #[test]
    fn comments_are_stripped_outside_quotes() {
        assert_eq!(strip_comment("  ldaa #';' ; x"), "  ldaa #';' ");
        assert_eq!(strip_comment("* all"), "");
        assert_eq!(strip_comment("nop"), "nop");
    }
}
