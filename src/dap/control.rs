//! Running and stepping: `continue`, `next`, `stepIn`, `stepOut`,
//! `stepBack`, `reverseContinue` and `pause` on the debugger, the events
//! each ends with, and the run itself. A run goes in slices, paced to the
//! board's 2 MHz unless the launch asked for full speed (a key script
//! always plays at full speed); the server reads requests between slices.
//! At full speed a slice grows or shrinks to take a few milliseconds (each
//! slice costs the debugger a new start, and the loop fast-forward sees
//! fewer iterations), unless the launch fixed its size.

use super::launch::Speed;
use super::protocol::{Request, StoppedEvent};
use super::server::Out;
use super::session::{Answer, Failure, Phase, Session, THREAD};
use crate::cpu::{Instruction, Op};
use crate::debug::breakpoint::{BreakSpec, Location};
use crate::debug::condition::Expr;
use crate::debug::{Reason, Stop};
use crate::platform::Instant;
use serde_json::{json, Value};
use std::io;
use std::time::Duration;

/// E-cycles of a run's first slice (25 ms of the board), and of every
/// slice of a paced run at most.
pub const SLICE_CYCLES: u64 = 50_000;

/// The wall-clock time a slice at full speed aims at: short enough that
/// `pause` and the LCD are answered at once.
const SLICE_AIM: Duration = Duration::from_millis(8);

/// Largest slice at full speed (2 s of the board).
const MAX_SPAN: u64 = 4_000_000;

/// The board's E clock.
const E_HZ: f64 = crate::board::E_CLOCK_HZ as f64;

/// How far a paced run may fall behind the wall clock before it stops
/// trying to catch up (a slow stretch, a long stop in a request).
const MAX_LAG_CYCLES: u64 = 400_000;

/// What a run is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// Until something stops it.
    Continue,
    /// Until the call stack is shallower than `depth` (step out; step
    /// over a call is a step into it, then this).
    Out {
        /// Frames the stack must fall below.
        depth: usize,
    },
}

/// A run in progress.
#[derive(Clone, Debug)]
pub struct Run {
    motion: Motion,
    pause: bool,
    /// E-cycles of the next slice at full speed.
    span: u64,
    /// Wall-clock time and cycle count the pace counts from.
    pace: Option<(Instant, u64)>,
}

impl Run {
    fn new(motion: Motion) -> Run {
        Run {
            motion,
            pause: false,
            span: SLICE_CYCLES,
            pace: None,
        }
    }
}

/// What a stop comes to.
enum Outcome {
    /// Keep running (the run's motion goes on).
    Keep,
    /// Stopped, with the event's reason, description, text and breakpoint ids.
    Stopped(&'static str, String, Option<String>, Vec<i64>),
    /// The program ended with this exit status.
    Ended(i64, String),
}

impl Session {
    /// After `configurationDone` or `restart`: stop at the entry or run.
    pub(super) fn start(&mut self, out: &mut Out<'_>) -> io::Result<()> {
        self.phase = Phase::Debugging;
        if self.args.stop_on_entry {
            let pc = self.dbg.as_ref().map_or(0, |d| d.registers().pc);
            self.send_stopped(
                out,
                "entry",
                format!("stopped at the entry (${pc:04X})"),
                None,
                Vec::new(),
            )
        } else {
            self.run = Some(Run::new(Motion::Continue));
            Ok(())
        }
    }

    /// Whether a motion may start now, and its response body.
    pub(super) fn motion_allowed(&self, cmd: &str) -> Answer {
        match self.phase {
            Phase::Configuring => {
                return Err(Failure(
                    "out of order",
                    format!("`{cmd}` before `configurationDone`"),
                ))
            }
            Phase::Ended => return Err(Failure("ended", "the program has ended".into())),
            _ => {}
        }
        if self.run.is_some() {
            return Err(Failure(
                "notStopped",
                "the program is running: pause it first".into(),
            ));
        }
        Ok(if cmd == "continue" {
            json!({ "allThreadsContinued": true })
        } else {
            Value::Null
        })
    }

    /// `pause`: the run stops before its next slice.
    pub(super) fn pause(&mut self) -> Answer {
        if let Some(r) = self.run.as_mut() {
            r.pause = true;
        }
        Ok(Value::Null)
    }

    /// Carries out a motion after its response went out.
    pub(super) fn after_motion(&mut self, req: &Request, out: &mut Out<'_>) -> io::Result<()> {
        match req.command.as_str() {
            "continue" => {
                self.run = Some(Run::new(Motion::Continue));
                Ok(())
            }
            "next" => self.next(out),
            "stepIn" => {
                let stop = self.single_step(out)?;
                self.conclude(stop, out)
            }
            "stepOut" => self.step_out(out),
            "stepBack" => {
                let by_instruction =
                    req.arguments.get("granularity").and_then(Value::as_str) == Some("instruction");
                self.step_back(by_instruction, out)
            }
            "reverseContinue" => self.reverse(out),
            _ => Ok(()),
        }
    }

    /// One instruction; the end of the key script, which comes between
    /// two instructions, does not count as the step.
    fn single_step(&mut self, out: &mut Out<'_>) -> io::Result<Stop> {
        loop {
            let Some(d) = self.dbg.as_mut() else {
                return Err(io::Error::other("no debugger"));
            };
            let stop = d.step_into();
            if matches!(stop.reason, Reason::Settled { .. }) {
                self.script_done(&stop, out)?;
                continue;
            }
            return Ok(stop);
        }
    }

    fn next(&mut self, out: &mut Out<'_>) -> io::Result<()> {
        let Some(d) = self.dbg.as_ref() else {
            return Ok(());
        };
        let m = d.target();
        let pc = m.registers().pc;
        let is_call = Instruction::decode(pc, |a| m.peek(a))
            .is_ok_and(|i| matches!(i.info.op, Op::Jsr | Op::Bsr));
        let depth = d.frames().len();
        let stop = self.single_step(out)?;
        let entered = self.dbg.as_ref().is_some_and(|d| d.frames().len() > depth);
        if is_call && entered && stop.reason == Reason::Step {
            self.run = Some(Run::new(Motion::Out { depth: depth + 1 }));
            return Ok(());
        }
        self.conclude(stop, out)
    }

    fn step_out(&mut self, out: &mut Out<'_>) -> io::Result<()> {
        let depth = self.dbg.as_ref().map_or(0, |d| d.frames().len());
        if depth == 0 {
            return self.send_stopped(
                out,
                "step",
                "no subroutine to step out of (at top level)".into(),
                None,
                Vec::new(),
            );
        }
        self.run = Some(Run::new(Motion::Out { depth }));
        Ok(())
    }

    /// One step back; unless by instruction, a call the step went back
    /// into is gone back over as a whole (a backward `next`), stopping
    /// at a breakpoint or data breakpoint inside it as `next` would.
    fn step_back(&mut self, by_instruction: bool, out: &mut Out<'_>) -> io::Result<()> {
        let Some(d) = self.dbg.as_mut() else {
            return Ok(());
        };
        let depth = d.frames().len();
        let stop = d.step_back();
        let deeper = d.frames().len() > depth;
        let frame = d.frames().last().copied();
        let (Some(frame), true, false, Reason::Step) =
            (frame, deeper, by_instruction, &stop.reason)
        else {
            return self.conclude(stop, out);
        };
        // The state just before the call: at its call site, with SP
        // before the call pushed.
        let sp = frame.sp.wrapping_add(frame.kind.stacked_bytes());
        let condition = Expr::parse(&format!("SP == ${sp:04X}")).ok();
        let spec = BreakSpec {
            location: Location::Address(frame.call_site),
            condition,
            hit_count: None,
            text: format!("${:04X} (the call)", frame.call_site),
        };
        let program = std::sync::Arc::clone(d.target().program());
        let Ok(call) = d.breakpoints.add(spec, &program) else {
            return self.conclude(stop, out);
        };
        self.table.enable_logs(d, false);
        let back = d.run_back();
        self.table.enable_logs(d, true);
        let _ = d.breakpoints.remove(call);
        let outcome = match &back.reason {
            Reason::Breakpoint { .. } => {
                let (reason, ids) = self.table.reverse_hit(d, back.pc);
                // Back at the call: a step, as `next` ends a step on a
                // line with a breakpoint.
                let at_call = back.pc == frame.call_site && d.registers().sp == sp;
                if at_call || ids.is_empty() {
                    let callee = program
                        .label_for(frame.target)
                        .map_or_else(|| format!("${:04X}", frame.target), |(s, _)| s.name.clone());
                    Outcome::Stopped(
                        "step",
                        format!("stepped back over the call of {callee}"),
                        None,
                        ids,
                    )
                } else {
                    Outcome::Stopped(reason, back.message.clone(), None, ids)
                }
            }
            Reason::Watchpoint { hits } => Outcome::Stopped(
                "data breakpoint",
                back.message.clone(),
                None,
                self.table.data_ids(hits),
            ),
            _ => Outcome::Stopped("step", back.message.clone(), None, Vec::new()),
        };
        self.finish(outcome, out)
    }

    fn reverse(&mut self, out: &mut Out<'_>) -> io::Result<()> {
        let Some(d) = self.dbg.as_mut() else {
            return Ok(());
        };
        // Going back stops where a breakpoint's condition held; log points
        // never stop.
        self.table.enable_logs(d, false);
        let stop = d.run_back();
        self.table.enable_logs(d, true);
        let outcome = match &stop.reason {
            Reason::Breakpoint { .. } => {
                let (reason, ids) = self.table.reverse_hit(d, stop.pc);
                Outcome::Stopped(reason, stop.message.clone(), None, ids)
            }
            Reason::Watchpoint { hits } => Outcome::Stopped(
                "data breakpoint",
                stop.message.clone(),
                None,
                self.table.data_ids(hits),
            ),
            _ if stop.index == 0 => {
                Outcome::Stopped("entry", stop.message.clone(), None, Vec::new())
            }
            _ => Outcome::Stopped("step", stop.message.clone(), None, Vec::new()),
        };
        self.finish(outcome, out)
    }

    /// How long the server may wait for a request before the next slice:
    /// `None` while nothing runs (wait for the client).
    pub fn wait(&mut self) -> Option<Duration> {
        let run = self.run.as_ref()?;
        if run.pause {
            return Some(Duration::ZERO);
        }
        if self.allowed_cycles() > 0 {
            Some(Duration::ZERO)
        } else {
            Some(Duration::from_millis(5))
        }
    }

    /// E-cycles the next slice may run: the pace's due cycles not yet run,
    /// at most a slice; 0 while the run is ahead of the wall clock.
    fn allowed_cycles(&mut self) -> u64 {
        let fixed = self.args.slice_cycles.map(|c| c.clamp(1, 1_000_000));
        let (Some(run), Some(d)) = (self.run.as_mut(), self.dbg.as_ref()) else {
            return 0;
        };
        let now = d.target().cycles();
        let scripted = d.target().script_progress().is_some();
        let paced =
            self.args.speed == Speed::Realtime && !scripted && run.motion == Motion::Continue;
        if !paced {
            run.pace = None;
            return fixed.unwrap_or(run.span);
        }
        let slice = fixed.unwrap_or(SLICE_CYCLES);
        let (t0, c0) = *run.pace.get_or_insert((Instant::now(), now));
        let due = c0 + (t0.elapsed().as_secs_f64() * E_HZ) as u64;
        if due > now + MAX_LAG_CYCLES {
            run.pace = Some((Instant::now(), now));
            return slice;
        }
        due.saturating_sub(now).min(slice)
    }

    /// Between requests: the serial output so far, then one slice of the run.
    pub fn advance(&mut self, out: &mut Out<'_>) -> io::Result<()> {
        self.flush_serial(out)?;
        self.start_tap();
        let Some(run) = self.run.as_ref() else {
            return Ok(());
        };
        if run.pause {
            return self.send_stopped(out, "pause", "paused".into(), None, Vec::new());
        }
        let motion = run.motion;
        let mut slice = self.allowed_cycles();
        if slice == 0 {
            return Ok(());
        }
        let Some(d) = self.dbg.as_mut() else {
            return Ok(());
        };
        if let Some(max) = self.args.max_cycles {
            let left = max.saturating_sub(d.target().cycles());
            if left == 0 {
                let text =
                    format!("the program used up its {max} E-cycles (maxCycles) without halting");
                return self.finish(Outcome::Ended(1, text), out);
            }
            slice = slice.min(left);
        }
        let began = Instant::now();
        let stop = match motion {
            Motion::Continue => d.run_for(slice),
            Motion::Out { depth } if d.frames().len() < depth => {
                return self.send_stopped(out, "step", "returned".into(), None, Vec::new());
            }
            Motion::Out { .. } => {
                d.max_cycles = slice;
                let s = d.step_out();
                d.max_cycles = SLICE_CYCLES;
                s
            }
        };
        // A whole slice at full speed: the next one takes about the aim.
        let whole = matches!(stop.reason, Reason::Budget { .. });
        if let (Some(run), true, None) = (self.run.as_mut(), whole, self.args.slice_cycles) {
            if slice == run.span {
                let took = began.elapsed();
                if took < SLICE_AIM / 2 {
                    run.span = (run.span * 2).min(MAX_SPAN);
                } else if took > SLICE_AIM * 2 {
                    run.span = (run.span / 2).max(1_000);
                }
            }
        }
        self.conclude(stop, out)
    }

    fn script_done(&mut self, stop: &Stop, out: &mut Out<'_>) -> io::Result<()> {
        if std::mem::take(&mut self.launch_script) {
            out.output("console", &format!("{}\n", stop.message))?;
        }
        Ok(())
    }

    /// What the debugger's stop means for the client.
    fn conclude(&mut self, stop: Stop, out: &mut Out<'_>) -> io::Result<()> {
        let motion = self.run.as_ref().map(|r| r.motion);
        let outcome = match &stop.reason {
            Reason::Budget { .. } => Outcome::Keep,
            Reason::Settled { .. } => {
                self.script_done(&stop, out)?;
                Outcome::Keep
            }
            Reason::Breakpoint { .. } => match self.dbg.as_ref() {
                Some(d) => {
                    let at = self.table.at_breakpoint(d, &self.sources, stop.pc);
                    for (text, source, line) in at.logs {
                        let mut body = json!({ "category": "console", "output": text });
                        if let (Some(s), Some(l)) = (source, line) {
                            body["source"] = json!(s);
                            body["line"] = json!(self.line_out(l as u32));
                        }
                        out.event("output", body)?;
                    }
                    match at.stop {
                        Some((reason, ids)) => {
                            Outcome::Stopped(reason, stop.message.clone(), None, ids)
                        }
                        None => Outcome::Keep,
                    }
                }
                None => Outcome::Keep,
            },
            Reason::Watchpoint { hits } => {
                let ids = match self.dbg.as_ref() {
                    Some(d) => self.table.at_watchpoint(d.target(), hits),
                    None => Vec::new(),
                };
                if ids.is_empty() {
                    Outcome::Keep
                } else {
                    Outcome::Stopped("data breakpoint", stop.message.clone(), None, ids)
                }
            }
            Reason::Returned { .. } => match (motion, self.dbg.as_ref()) {
                (Some(Motion::Out { depth }), Some(d)) if d.frames().len() >= depth => {
                    Outcome::Keep
                }
                _ => Outcome::Stopped("step", stop.message.clone(), None, Vec::new()),
            },
            Reason::IllegalOpcode { .. } | Reason::BadWrite { .. } => Outcome::Stopped(
                "exception",
                stop.message.clone(),
                Some(stop.reason.name().to_string()),
                Vec::new(),
            ),
            Reason::Halted { .. } => Outcome::Ended(0, stop.message.clone()),
            Reason::StartOfHistory if stop.index == 0 => {
                Outcome::Stopped("entry", stop.message.clone(), None, Vec::new())
            }
            Reason::Step | Reason::Reached { .. } | Reason::StartOfHistory | Reason::NoFrame => {
                Outcome::Stopped("step", stop.message.clone(), None, Vec::new())
            }
        };
        // A single step that met something that does not stop a run
        // (a log point, a data breakpoint whose condition is false) is
        // still a finished step.
        let outcome = match (outcome, motion) {
            (Outcome::Keep, None) => Outcome::Stopped("step", stop.message, None, Vec::new()),
            (o, _) => o,
        };
        self.finish(outcome, out)
    }

    fn finish(&mut self, outcome: Outcome, out: &mut Out<'_>) -> io::Result<()> {
        match outcome {
            Outcome::Keep => Ok(()),
            Outcome::Stopped(reason, description, text, ids) => {
                self.send_stopped(out, reason, description, text, ids)
            }
            Outcome::Ended(code, text) => {
                self.run = None;
                self.flush_serial(out)?;
                out.output("console", &format!("{text}\n"))?;
                self.phase = Phase::Ended;
                out.event("exited", json!({ "exitCode": code }))?;
                out.event("terminated", Value::Null)
            }
        }
    }

    fn send_stopped(
        &mut self,
        out: &mut Out<'_>,
        reason: &str,
        description: String,
        text: Option<String>,
        ids: Vec<i64>,
    ) -> io::Result<()> {
        self.run = None;
        self.flush_serial(out)?;
        let body = StoppedEvent {
            reason: reason.to_string(),
            description: Some(description),
            thread_id: THREAD,
            text,
            all_threads_stopped: true,
            hit_breakpoint_ids: ids,
        };
        out.event(
            "stopped",
            serde_json::to_value(body).map_err(io::Error::other)?,
        )
    }

    /// The program's serial output not yet sent, to the Debug Console.
    /// Going back in time shortens the output; what was sent stays sent.
    fn flush_serial(&mut self, out: &mut Out<'_>) -> io::Result<()> {
        let Some(d) = self.dbg.as_ref() else {
            return Ok(());
        };
        let log = d.target().board().sci().output();
        if log.len() > self.serial_sent {
            let text: String = log[self.serial_sent..].iter().map(|&b| b as char).collect();
            self.serial_sent = log.len();
            out.output("stdout", &text)?;
        }
        Ok(())
    }
}
