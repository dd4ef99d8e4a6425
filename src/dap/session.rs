//! One debugging session: the requests in the order the protocol allows
//! them (initialize, launch, configuration, then stops and runs), each
//! mapped onto hc11lab's debugger. Running, stepping and the events they
//! end with are in `control.rs`; the breakpoint requests in
//! `requests.rs`.

use super::breakpoints::Table;
use super::control::Run;
use super::launch::LaunchArgs;
use super::protocol::{
    memory_reference, Capabilities, DisassembleArguments, EvaluateArguments,
    ExceptionBreakpointsFilter, InitializeArguments, ReadMemoryArguments, Request,
    SetVariableArguments, StackFrame, VariablesArguments, WriteMemoryArguments,
};
use super::server::Out;
use super::sources::Sources;
use super::variables::{self, Container, Edit, Style};
use super::{board, evaluate, memory};
use crate::debug::Debugger;
use crate::machine::Machine;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io;

/// The one thread the 68HC11 has.
pub const THREAD: i64 = 1;

/// Where the session is in the protocol's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for `initialize`.
    New,
    /// Initialized, waiting for `launch`.
    Initialized,
    /// Launched; breakpoints may come until `configurationDone`.
    Configuring,
    /// The program is stopped or running.
    Debugging,
    /// The program ended (halted, budget used up, terminated).
    Ended,
}

/// What the client said about itself.
#[derive(Clone, Copy, Debug)]
pub struct Client {
    /// Lines start at 1 (the default) or 0.
    pub lines_start_at1: bool,
    /// Columns start at 1 (the default) or 0.
    pub columns_start_at1: bool,
    /// It shows variable types.
    pub types: bool,
    /// It takes `memory` events.
    pub memory_events: bool,
    /// It takes `invalidated` events.
    pub invalidated_events: bool,
}

impl Default for Client {
    fn default() -> Self {
        Client {
            lines_start_at1: true,
            columns_start_at1: true,
            types: false,
            memory_events: false,
            invalidated_events: false,
        }
    }
}

/// A request's own error: the short reason and the sentence.
pub struct Failure(pub &'static str, pub String);

impl From<String> for Failure {
    fn from(s: String) -> Self {
        Failure("failed", s)
    }
}

impl From<&str> for Failure {
    fn from(s: &str) -> Self {
        Failure("failed", s.to_string())
    }
}

/// What a handler returns: a body, or a failure to answer with.
pub type Answer = Result<Value, Failure>;

/// The session.
pub struct Session {
    pub(super) phase: Phase,
    pub(super) client: Client,
    pub(super) args: LaunchArgs,
    pub(super) dbg: Option<Debugger<Machine>>,
    pub(super) sources: Sources,
    pub(super) table: Table,
    pub(super) remembered: super::requests::Remembered,
    pub(super) run: Option<Run>,
    /// Serial bytes already sent to the console.
    pub(super) serial_sent: usize,
    /// Key taps waiting for the one before to finish.
    pub(super) taps: VecDeque<u8>,
    /// The launch's key script is still playing.
    pub(super) launch_script: bool,
    pub(super) finished: bool,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads a request's arguments as `T`.
pub fn args<T: DeserializeOwned>(req: &Request) -> Result<T, Failure> {
    T::deserialize(&req.arguments)
        .map_err(|e| Failure("bad arguments", format!("{}: arguments: {e}", req.command)))
}

impl Session {
    /// A session waiting for `initialize`.
    pub fn new() -> Self {
        Session {
            phase: Phase::New,
            client: Client::default(),
            args: LaunchArgs::default(),
            dbg: None,
            sources: Sources::default(),
            table: Table::default(),
            remembered: Default::default(),
            run: None,
            serial_sent: 0,
            taps: VecDeque::new(),
            launch_script: false,
            finished: false,
        }
    }

    /// True once the client disconnected.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The debugger, once launched.
    pub(super) fn debugger(&self) -> Result<&Debugger<Machine>, Failure> {
        self.dbg.as_ref().ok_or_else(|| {
            Failure(
                "not launched",
                "no program is loaded yet: launch first".into(),
            )
        })
    }

    pub(super) fn debugger_mut(&mut self) -> Result<&mut Debugger<Machine>, Failure> {
        self.dbg.as_mut().ok_or_else(|| {
            Failure(
                "not launched",
                "no program is loaded yet: launch first".into(),
            )
        })
    }

    fn machine(&self) -> Result<&Machine, Failure> {
        Ok(self.debugger()?.target())
    }

    /// Fails while the program runs (the state asked about changes).
    pub(super) fn stopped(&self) -> Result<(), Failure> {
        if self.run.is_some() {
            return Err(Failure(
                "notStopped",
                "the program is running: pause it first".into(),
            ));
        }
        if self.phase == Phase::Ended {
            return Err(Failure("ended", "the program has ended".into()));
        }
        Ok(())
    }

    pub(super) fn line_out(&self, line: u32) -> i64 {
        i64::from(line) - i64::from(!self.client.lines_start_at1)
    }

    fn style(&self) -> Style {
        Style {
            types: self.client.types,
        }
    }

    /// Answers one request (and sends the events it causes).
    pub fn handle(&mut self, req: &Request, out: &mut Out<'_>) -> io::Result<()> {
        let answer = self.dispatch(req, out);
        match answer {
            Ok(body) => {
                out.respond(req, body)?;
                self.after(req, out)
            }
            Err(Failure(short, text)) => out.fail(req.seq, &req.command, short, &text),
        }
    }

    /// What follows a response: events that must come after it.
    fn after(&mut self, req: &Request, out: &mut Out<'_>) -> io::Result<()> {
        match req.command.as_str() {
            "launch" => out.event("initialized", Value::Null),
            "configurationDone" => self.start(out),
            "restart" => self.start(out),
            "terminate" => {
                self.run = None;
                self.phase = Phase::Ended;
                out.event("terminated", Value::Null)
            }
            "disconnect" => {
                self.finished = true;
                Ok(())
            }
            "continue" | "next" | "stepIn" | "stepOut" | "stepBack" | "reverseContinue" => {
                self.after_motion(req, out)
            }
            _ => Ok(()),
        }
    }

    fn dispatch(&mut self, req: &Request, out: &mut Out<'_>) -> Answer {
        let cmd = req.command.as_str();
        match (self.phase, cmd) {
            (Phase::New, "initialize") => return self.initialize(req),
            (Phase::New, "disconnect") => return Ok(Value::Null),
            (Phase::New, _) => {
                return Err(Failure(
                    "not initialized",
                    format!("`{cmd}` before `initialize`: initialize first"),
                ))
            }
            (_, "initialize") => {
                return Err(Failure(
                    "out of order",
                    "`initialize` was already done".into(),
                ))
            }
            (Phase::Initialized, "launch") => return self.launch(req, out),
            (Phase::Initialized, "attach") => {
                return Err(Failure(
                    "not supported",
                    "hc11lab runs the program itself: use a `launch` configuration".into(),
                ))
            }
            (Phase::Initialized, "disconnect") => return Ok(Value::Null),
            (Phase::Initialized, _) => {
                return Err(Failure(
                    "not launched",
                    format!("`{cmd}` before `launch`: launch a program first"),
                ))
            }
            (_, "launch") | (_, "attach") => {
                return Err(Failure(
                    "out of order",
                    "a program is already launched: restart or disconnect".into(),
                ))
            }
            (Phase::Configuring, "configurationDone") => return Ok(Value::Null),
            (_, "configurationDone") => {
                return Err(Failure(
                    "out of order",
                    "`configurationDone` was already done".into(),
                ))
            }
            _ => {}
        }
        match cmd {
            "setBreakpoints" => self.set_breakpoints(req),
            "setFunctionBreakpoints" => self.set_function_breakpoints(req),
            "setInstructionBreakpoints" => self.set_instruction_breakpoints(req),
            "setExceptionBreakpoints" => self.set_exception_breakpoints(req),
            "dataBreakpointInfo" => self.data_breakpoint_info(req),
            "setDataBreakpoints" => self.set_data_breakpoints(req),
            "threads" => Ok(json!({ "threads": [{ "id": THREAD, "name": "68HC11" }] })),
            "stackTrace" => self.stack_trace(req),
            "scopes" => self.scopes(req),
            "variables" => self.variables(req),
            "setVariable" => self.set_variable(req, out),
            "evaluate" => self.evaluate(req),
            "source" => self.source(req),
            "readMemory" => self.read_memory(req),
            "writeMemory" => self.write_memory(req, out),
            "disassemble" => self.disassemble(req),
            "continue" | "next" | "stepIn" | "stepOut" | "stepBack" | "reverseContinue" => {
                self.motion_allowed(cmd)
            }
            "pause" => self.pause(),
            "restart" => self.restart(req, out),
            "disconnect" => {
                self.run = None;
                Ok(Value::Null)
            }
            "terminate" => Ok(Value::Null),
            "hc11lab/lcd" => {
                let running = self.run.is_some();
                Ok(board::lcd_body(self.machine()?, running))
            }
            "hc11lab/key" => self.key(req),
            other => Err(Failure(
                "unknown command",
                format!("`{other}` is not a request this debug adapter knows"),
            )),
        }
    }

    fn initialize(&mut self, req: &Request) -> Answer {
        let a: InitializeArguments = args(req)?;
        self.client = Client {
            lines_start_at1: a.lines_start_at1.unwrap_or(true),
            columns_start_at1: a.columns_start_at1.unwrap_or(true),
            types: a.supports_variable_type.unwrap_or(false),
            memory_events: a.supports_memory_event.unwrap_or(false),
            invalidated_events: a.supports_invalidated_event.unwrap_or(false),
        };
        if a.path_format.as_deref().is_some_and(|f| f != "path") {
            return Err(Failure(
                "not supported",
                "hc11lab takes file paths, not URIs (pathFormat `path`)".into(),
            ));
        }
        self.phase = Phase::Initialized;
        let caps = Capabilities {
            supports_configuration_done_request: true,
            supports_function_breakpoints: true,
            supports_conditional_breakpoints: true,
            supports_hit_conditional_breakpoints: true,
            supports_evaluate_for_hovers: true,
            exception_breakpoint_filters: vec![ExceptionBreakpointsFilter {
                filter: "illegal".into(),
                label: "Illegal opcodes".into(),
                description: "Stop before an illegal opcode (off: the CPU takes the trap through $FFF8, as the chip does)".into(),
                default: true,
            }],
            supports_step_back: true,
            supports_set_variable: true,
            supports_restart_request: true,
            supports_terminate_request: true,
            supports_log_points: true,
            supports_data_breakpoints: true,
            supports_data_breakpoint_bytes: true,
            supports_read_memory_request: true,
            supports_write_memory_request: true,
            supports_disassemble_request: true,
            supports_instruction_breakpoints: true,
            supports_stepping_granularity: true,
            supports_value_formatting_options: false,
            support_terminate_debuggee: true,
        };
        serde_json::to_value(caps).map_err(|e| Failure::from(e.to_string()))
    }

    /// Opens the program and makes the debugger; the breakpoints the
    /// client sent before are placed again (after a restart).
    pub(super) fn load(&mut self, args: LaunchArgs, out: &mut Out<'_>) -> Result<(), Failure> {
        let launched = args.launch().map_err(|e| Failure("launch failed", e))?;
        for w in &launched.warnings {
            let _ = out.output("console", &format!("{}\n", w.trim_end()));
        }
        let on_disk = args.program.is_some();
        let mut machine = launched.machine;
        machine.set_trap_illegal(!self.remembered.stop_on_illegal);
        let mut dbg = Debugger::new(machine);
        // A session's commands are bounded by the run slices; a single
        // step's own budget only guards against a runaway step over.
        dbg.max_cycles = super::control::SLICE_CYCLES;
        if let Some(s) = &launched.script {
            dbg.target_mut().start_script(s);
        }
        self.launch_script = launched.script.is_some();
        self.sources = Sources::new(dbg.target().program(), on_disk);
        self.dbg = Some(dbg);
        self.args = args;
        self.serial_sent = 0;
        self.taps.clear();
        self.run = None;
        Ok(())
    }

    fn launch(&mut self, req: &Request, out: &mut Out<'_>) -> Answer {
        let a = LaunchArgs::from_json(&req.arguments).map_err(|e| Failure("bad arguments", e))?;
        if let Err(Failure(short, text)) = self.load(a, out) {
            let _ = out.output("stderr", &format!("{}\n", text.trim_end()));
            return Err(Failure(short, first_lines(&text)));
        }
        self.phase = Phase::Configuring;
        Ok(Value::Null)
    }

    fn restart(&mut self, req: &Request, out: &mut Out<'_>) -> Answer {
        let a = match req.arguments.get("arguments") {
            Some(v) => LaunchArgs::from_json(v).map_err(|e| Failure("bad arguments", e))?,
            None => self.args.clone(),
        };
        if let Err(Failure(short, text)) = self.load(a, out) {
            let _ = out.output("stderr", &format!("{}\n", text.trim_end()));
            return Err(Failure(short, first_lines(&text)));
        }
        self.table = Table::default();
        self.replace_breakpoints(out)?;
        self.phase = Phase::Debugging;
        Ok(Value::Null)
    }

    fn stack_trace(&mut self, req: &Request) -> Answer {
        self.stopped()?;
        let start = req
            .arguments
            .get("startFrame")
            .and_then(Value::as_u64)
            .unwrap_or(0) as usize;
        let levels = req
            .arguments
            .get("levels")
            .and_then(Value::as_u64)
            .filter(|&l| l > 0)
            .map_or(usize::MAX, |l| l as usize);
        let dbg = self.debugger()?;
        let program = dbg.program();
        let frames = dbg.frames();
        let name_of = |addr: u16| {
            program
                .label_for(addr)
                .map(|(s, off)| {
                    if off == 0 {
                        s.name.clone()
                    } else {
                        format!("{}+{off}", s.name)
                    }
                })
                .unwrap_or_else(|| format!("${addr:04X}"))
        };
        // Innermost first: where each frame is now, and whose code that is.
        let mut places = vec![dbg.registers().pc];
        places.extend(frames.iter().rev().map(|f| f.call_site));
        let total = places.len();
        let mut out = Vec::new();
        for (k, &pc) in places.iter().enumerate().skip(start).take(levels) {
            let routine = frames.len().checked_sub(k + 1).map(|i| &frames[i]);
            let mut name = match routine {
                Some(f) => name_of(f.target),
                None => program
                    .label_for(pc)
                    .map(|(s, _)| s.name.clone())
                    .unwrap_or_else(|| "(top level)".into()),
            };
            if matches!(
                routine.map(|f| f.kind),
                Some(crate::debug::callstack::FrameKind::Interrupt { .. })
            ) {
                name.push_str(" (interrupt)");
            }
            let line = program.line_at(pc);
            out.push(StackFrame {
                id: k as i64 + 1,
                name,
                source: line.map(|l| self.sources.source(l.file)),
                line: line.map_or(0, |l| self.line_out(l.line)),
                column: line.map_or(0, |_| i64::from(self.client.columns_start_at1)),
                instruction_pointer_reference: Some(memory_reference(pc)),
                presentation_hint: line.is_none().then(|| "subtle".to_string()),
            });
        }
        Ok(json!({ "stackFrames": out, "totalFrames": total }))
    }

    fn scopes(&mut self, req: &Request) -> Answer {
        self.stopped()?;
        let frame = req
            .arguments
            .get("frameId")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        let dbg = self.debugger()?;
        if frame < 1 || frame as usize > dbg.frames().len() + 1 {
            return Err(format!("no stack frame {frame}").into());
        }
        Ok(json!({ "scopes": variables::scopes(dbg.program(), frame == 1) }))
    }

    fn variables(&mut self, req: &Request) -> Answer {
        let a: VariablesArguments = args(req)?;
        let container = Container::from_reference(a.variables_reference)
            .ok_or_else(|| format!("no variables with reference {}", a.variables_reference))?;
        let start = a.start.unwrap_or(0).max(0) as usize;
        let count = a.count.filter(|&c| c > 0).map(|c| c as usize);
        let vars = variables::variables(self.machine()?, container, start, count, self.style())?;
        Ok(json!({ "variables": vars }))
    }

    fn set_variable(&mut self, req: &Request, out: &mut Out<'_>) -> Answer {
        self.stopped()?;
        let a: SetVariableArguments = args(req)?;
        let container = Container::from_reference(a.variables_reference)
            .ok_or_else(|| format!("no variables with reference {}", a.variables_reference))?;
        let edit = variables::plan_edit(self.machine()?, container, &a.name, &a.value)?;
        self.apply(&edit, out)?;
        let value = variables::value_of(self.machine()?, container, &a.name)
            .ok_or("the variable is gone")?;
        Ok(json!({ "value": value }))
    }

    /// Makes an edit through the debugger (its recorded future is dropped,
    /// so stepping back across the edit stays exact) and tells the client.
    pub(super) fn apply(&mut self, edit: &Edit, out: &mut Out<'_>) -> Result<(), Failure> {
        let dbg = self.debugger_mut()?;
        match edit {
            Edit::Registers(r) => dbg.target_mut().set_registers(*r),
            Edit::Memory(addr, bytes) => {
                dbg.target_mut().poke(*addr, bytes).map_err(|at| {
                    format!(
                        "${at:04X} is no RAM or program memory (a device register or nothing): not written"
                    )
                })?;
                if self.client.memory_events {
                    let _ = out.event(
                        "memory",
                        json!({ "memoryReference": memory_reference(*addr), "offset": 0, "count": bytes.len() }),
                    );
                }
            }
        }
        if self.client.invalidated_events {
            let _ = out.event("invalidated", json!({ "areas": ["variables"] }));
        }
        Ok(())
    }

    fn evaluate(&mut self, req: &Request) -> Answer {
        let a: EvaluateArguments = args(req)?;
        let text = a.expression.trim();
        if a.context.as_deref() == Some("repl") {
            match text.strip_prefix('?') {
                Some(expr) => return self.evaluate_text(expr),
                None => return self.type_serial(&a.expression),
            }
        }
        self.evaluate_text(text)
    }

    fn evaluate_text(&mut self, text: &str) -> Answer {
        let v = evaluate::evaluate(self.machine()?, text, self.style())?;
        let mut body = json!({ "result": v.value, "variablesReference": v.variables_reference });
        if let Some(t) = v.type_ {
            body["type"] = json!(t);
        }
        if let Some(n) = v.indexed_variables {
            body["indexedVariables"] = json!(n);
        }
        if let Some(r) = v.memory_reference {
            body["memoryReference"] = json!(r);
        }
        Ok(body)
    }

    /// A Debug Console line: to the program's serial input.
    fn type_serial(&mut self, line: &str) -> Answer {
        let end = self.args.serial_line_end;
        let dbg = self.debugger_mut()?;
        if !dbg.target().board().has_serial() {
            return Err(
                "this board has no serial line; start the line with `?` to evaluate it".into(),
            );
        }
        let mut bytes =
            crate::script::decode_serial_escapes(line).map_err(|e| format!("serial input: {e}"))?;
        bytes.extend_from_slice(end.bytes());
        dbg.target_mut().feed_serial(&bytes);
        Ok(json!({
            "result": format!("sent {} bytes to the serial input", bytes.len()),
            "variablesReference": 0,
        }))
    }

    fn source(&mut self, req: &Request) -> Answer {
        let r = req
            .arguments
            .get("sourceReference")
            .and_then(Value::as_i64)
            .filter(|&r| r > 0)
            .or_else(|| {
                req.arguments
                    .get("source")
                    .and_then(|s| s.get("sourceReference"))
                    .and_then(Value::as_i64)
            })
            .ok_or("no sourceReference")?;
        let program = self.debugger()?.program();
        let f = usize::try_from(r)
            .ok()
            .and_then(|r| r.checked_sub(1))
            .and_then(|i| program.files.get(i))
            .ok_or_else(|| format!("no source with reference {r}"))?;
        Ok(json!({ "content": f.text, "mimeType": "text/x-asm" }))
    }

    fn read_memory(&mut self, req: &Request) -> Answer {
        let a: ReadMemoryArguments = args(req)?;
        let m = self.machine()?;
        let start =
            memory::parse_reference(&a.memory_reference, m)?.saturating_add(a.offset.unwrap_or(0));
        let (address, data, unreadable) = memory::read(m, start, a.count);
        let mut body = json!({ "address": address, "data": data });
        if unreadable > 0 {
            body["unreadableBytes"] = json!(unreadable);
        }
        Ok(body)
    }

    fn write_memory(&mut self, req: &Request, out: &mut Out<'_>) -> Answer {
        self.stopped()?;
        let a: WriteMemoryArguments = args(req)?;
        let m = self.machine()?;
        let start =
            memory::parse_reference(&a.memory_reference, m)?.saturating_add(a.offset.unwrap_or(0));
        let bytes = memory::decode(&a.data)?;
        let addr = memory::check_range(start, bytes.len())?;
        if a.allow_partial.unwrap_or(false) {
            // Byte by byte up to the first that cannot be written.
            let mut written = 0;
            for (k, b) in bytes.iter().enumerate() {
                let at = addr.wrapping_add(k as u16);
                if self.apply(&Edit::Memory(at, vec![*b]), out).is_err() {
                    break;
                }
                written += 1;
            }
            if written == 0 && !bytes.is_empty() {
                return Err(
                    format!("${addr:04X} is no RAM or program memory: nothing written").into(),
                );
            }
            return Ok(json!({ "bytesWritten": written }));
        }
        self.apply(&Edit::Memory(addr, bytes.clone()), out)?;
        Ok(json!({ "bytesWritten": bytes.len() }))
    }

    fn disassemble(&mut self, req: &Request) -> Answer {
        let a: DisassembleArguments = args(req)?;
        let m = self.machine()?;
        let base =
            memory::parse_reference(&a.memory_reference, m)?.saturating_add(a.offset.unwrap_or(0));
        let mut list = memory::disassemble(
            m,
            &self.sources,
            base,
            a.instruction_offset.unwrap_or(0),
            a.instruction_count,
        );
        for i in &mut list {
            if let Some(l) = i.line {
                i.line = Some(l - i64::from(!self.client.lines_start_at1));
            }
        }
        Ok(json!({ "instructions": list }))
    }

    fn key(&mut self, req: &Request) -> Answer {
        let a: board::KeyArgs = args(req)?;
        let key = a.number()?;
        let dbg = self.debugger_mut()?;
        if !dbg.target().board().has_keys() {
            return Err("this board has no keys".into());
        }
        match a.action {
            board::KeyAction::Press => dbg.target_mut().set_key(key, true),
            board::KeyAction::Release => dbg.target_mut().set_key(key, false),
            board::KeyAction::Tap => {
                self.taps.push_back(key);
                self.start_tap();
            }
        }
        Ok(Value::Null)
    }

    /// Starts the next key tap if no script plays now.
    pub(super) fn start_tap(&mut self) {
        let Some(dbg) = self.dbg.as_mut() else {
            return;
        };
        if dbg.target().script_progress().is_some() {
            return;
        }
        if let Some(key) = self.taps.pop_front() {
            dbg.target_mut().start_script(&board::tap_script(key));
        }
    }
}

/// The first lines of a long message (the assembler's diagnostics), for
/// the error dialog; the whole text went to the console.
fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    if lines.len() <= 6 {
        return lines.join("\n");
    }
    format!(
        "{}\n... ({} more lines in the Debug Console)",
        lines[..6].join("\n"),
        lines.len() - 6
    )
}
