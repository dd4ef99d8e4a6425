//! The breakpoint requests: each one replaces all breakpoints of its kind
//! (of one file, for source lines), as the protocol says. The requests
//! are remembered with the ids they were answered with, so a `restart`
//! (a new program, maybe re-assembled with lines moved) places them again
//! under the same ids and tells the client what changed.

use super::breakpoints::{place_line, unverified, Kind, Wanted};
use super::evaluate::data_info;
use super::memory::parse_reference;
use super::protocol::{
    Breakpoint, DataBreakpoint, DataBreakpointInfoArguments, FunctionBreakpoint,
    InstructionBreakpoint, Request, SetBreakpointsArguments, SetDataBreakpointsArguments,
    SetFunctionBreakpointsArguments, SetInstructionBreakpointsArguments, Source, SourceBreakpoint,
};
use super::server::Out;
use super::session::{args, Answer, Failure, Session};
use super::sources::Sources;
use super::variables::Container;
use crate::debug::breakpoint::{BreakSpec, Location};
use serde_json::{json, Value};

/// The last request of each kind, with the ids its breakpoints got.
pub struct Remembered {
    /// Per source: the request and the ids.
    pub sources: Vec<(Source, Vec<SourceBreakpoint>, Vec<i64>)>,
    /// Function breakpoints and their ids.
    pub functions: (Vec<FunctionBreakpoint>, Vec<i64>),
    /// Instruction breakpoints and their ids.
    pub instructions: (Vec<InstructionBreakpoint>, Vec<i64>),
    /// Data breakpoints and their ids.
    pub data: (Vec<DataBreakpoint>, Vec<i64>),
    /// The `illegal` exception filter is on.
    pub stop_on_illegal: bool,
}

impl Default for Remembered {
    fn default() -> Self {
        Remembered {
            sources: Vec::new(),
            functions: Default::default(),
            instructions: Default::default(),
            data: Default::default(),
            stop_on_illegal: true,
        }
    }
}

fn same_source(a: &Source, b: &Source) -> bool {
    match (&a.path, &b.path) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a.source_reference == b.source_reference,
        _ => false,
    }
}

fn ids_of(list: &[Breakpoint]) -> Vec<i64> {
    list.iter().filter_map(|b| b.id).collect()
}

impl Session {
    fn no_debug(&self) -> bool {
        self.args.no_debug
    }

    pub(super) fn set_breakpoints(&mut self, req: &Request) -> Answer {
        let a: SetBreakpointsArguments = args(req)?;
        let wanted: Vec<SourceBreakpoint> = match (a.breakpoints, a.lines) {
            (Some(b), _) => b,
            (None, Some(lines)) => lines
                .into_iter()
                .map(|line| SourceBreakpoint {
                    line,
                    ..SourceBreakpoint::default()
                })
                .collect(),
            (None, None) => Vec::new(),
        };
        let old = self
            .remembered
            .sources
            .iter()
            .position(|(s, _, _)| same_source(s, &a.source));
        let reuse = old.map(|i| self.remembered.sources[i].2.clone());
        let list = self.place_source(&a.source, &wanted, reuse.as_deref())?;
        let entry = (a.source, wanted, ids_of(&list));
        match old {
            Some(i) => self.remembered.sources[i] = entry,
            None => self.remembered.sources.push(entry),
        }
        Ok(json!({ "breakpoints": list }))
    }

    fn place_source(
        &mut self,
        source: &Source,
        wanted: &[SourceBreakpoint],
        reuse: Option<&[i64]>,
    ) -> Result<Vec<Breakpoint>, Failure> {
        let line_base = !self.client.lines_start_at1;
        let sources = self.sources.clone();
        let no_debug = self.no_debug();
        let dbg = self
            .dbg
            .as_mut()
            .ok_or("no program is loaded yet: launch first")?;
        let file = sources.file_of(dbg.program(), source);
        if let Ok(fid) = file {
            self.table.clear(dbg, Kind::Source(fid));
        }
        let mut out = Vec::new();
        for (k, w) in wanted.iter().enumerate() {
            let id = reuse.and_then(|r| r.get(k).copied());
            let line = w.line.saturating_add(i64::from(line_base));
            // The client's line, echoed where the protocol's 32-bit integers hold it.
            let asked = i32::try_from(w.line).ok().map(i64::from);
            let here = |message: String, id: Option<i64>| Breakpoint {
                source: Some(source.clone()),
                line: asked,
                ..unverified(id, message)
            };
            let fid = match &file {
                Ok(f) => *f,
                Err(e) => {
                    out.push(here(e.clone(), Some(self.table.take_id(id))));
                    continue;
                }
            };
            if no_debug {
                out.push(here(
                    "running without debugging: breakpoints are off".into(),
                    Some(self.table.take_id(id)),
                ));
                continue;
            }
            let actual = u32::try_from(line)
                .map_err(|_| format!("line {} does not exist", w.line))
                .and_then(|l| place_line(dbg.program(), fid, l));
            let actual = match actual {
                Ok(a) => a,
                Err(e) => {
                    out.push(here(e, Some(self.table.take_id(id))));
                    continue;
                }
            };
            let want = Wanted {
                location: Location::Line {
                    file: Sources::spec_path(dbg.program(), fid),
                    line: actual,
                },
                condition: w.condition.as_deref(),
                hit_condition: w.hit_condition.as_deref(),
                log_message: w.log_message.as_deref(),
            };
            let mut bp = self.table.add(dbg, &sources, Kind::Source(fid), want, id);
            if bp.verified {
                bp.source = Some(sources.source(fid));
                bp.line = Some(i64::from(actual) - i64::from(line_base));
            } else {
                bp.source = Some(source.clone());
                bp.line = asked;
            }
            out.push(bp);
        }
        Ok(out)
    }

    pub(super) fn set_function_breakpoints(&mut self, req: &Request) -> Answer {
        let a: SetFunctionBreakpointsArguments = args(req)?;
        let reuse = self.remembered.functions.1.clone();
        let list = self.place_functions(&a.breakpoints, Some(&reuse))?;
        self.remembered.functions = (a.breakpoints, ids_of(&list));
        Ok(json!({ "breakpoints": list }))
    }

    fn place_functions(
        &mut self,
        wanted: &[FunctionBreakpoint],
        reuse: Option<&[i64]>,
    ) -> Result<Vec<Breakpoint>, Failure> {
        let sources = self.sources.clone();
        let no_debug = self.no_debug();
        let line_base = !self.client.lines_start_at1;
        let dbg = self
            .dbg
            .as_mut()
            .ok_or("no program is loaded yet: launch first")?;
        self.table.clear(dbg, Kind::Function);
        let mut out = Vec::new();
        for (k, w) in wanted.iter().enumerate() {
            let id = reuse.and_then(|r| r.get(k).copied());
            if no_debug {
                let id = self.table.take_id(id);
                out.push(unverified(Some(id), "running without debugging".into()));
                continue;
            }
            let spec = match BreakSpec::parse(&w.name) {
                Ok(s) => s,
                Err(e) => {
                    let id = self.table.take_id(id);
                    out.push(unverified(Some(id), e.to_string()));
                    continue;
                }
            };
            let inline = spec.condition.as_ref().map(|c| c.source().to_string());
            let condition = w.condition.clone().or(inline);
            let hit = w
                .hit_condition
                .clone()
                .or(spec.hit_count.map(|n| n.to_string()));
            let want = Wanted {
                location: spec.location,
                condition: condition.as_deref(),
                hit_condition: hit.as_deref(),
                log_message: None,
            };
            let mut bp = self.table.add(dbg, &sources, Kind::Function, want, id);
            bp.line = bp.line.map(|l| l - i64::from(line_base));
            out.push(bp);
        }
        Ok(out)
    }

    pub(super) fn set_instruction_breakpoints(&mut self, req: &Request) -> Answer {
        let a: SetInstructionBreakpointsArguments = args(req)?;
        let reuse = self.remembered.instructions.1.clone();
        let list = self.place_instructions(&a.breakpoints, Some(&reuse))?;
        self.remembered.instructions = (a.breakpoints, ids_of(&list));
        Ok(json!({ "breakpoints": list }))
    }

    fn place_instructions(
        &mut self,
        wanted: &[InstructionBreakpoint],
        reuse: Option<&[i64]>,
    ) -> Result<Vec<Breakpoint>, Failure> {
        let sources = self.sources.clone();
        let no_debug = self.no_debug();
        let line_base = !self.client.lines_start_at1;
        let dbg = self
            .dbg
            .as_mut()
            .ok_or("no program is loaded yet: launch first")?;
        self.table.clear(dbg, Kind::Instruction);
        let mut out = Vec::new();
        for (k, w) in wanted.iter().enumerate() {
            let id = reuse.and_then(|r| r.get(k).copied());
            let addr = parse_reference(&w.instruction_reference, dbg.target())
                .map(|a| a.saturating_add(w.offset.unwrap_or(0)))
                .and_then(|a| {
                    u16::try_from(a).map_err(|_| format!("{a} is not an address $0000-$FFFF"))
                });
            let addr = match (addr, no_debug) {
                (_, true) => Err("running without debugging".to_string()),
                (a, false) => a,
            };
            let addr = match addr {
                Ok(a) => a,
                Err(e) => {
                    let id = self.table.take_id(id);
                    out.push(unverified(Some(id), e));
                    continue;
                }
            };
            let want = Wanted {
                location: Location::Address(addr),
                condition: w.condition.as_deref(),
                hit_condition: w.hit_condition.as_deref(),
                log_message: None,
            };
            let mut bp = self.table.add(dbg, &sources, Kind::Instruction, want, id);
            bp.line = bp.line.map(|l| l - i64::from(line_base));
            out.push(bp);
        }
        Ok(out)
    }

    pub(super) fn set_exception_breakpoints(&mut self, req: &Request) -> Answer {
        let filters: Vec<String> = req
            .arguments
            .get("filters")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let on = filters.iter().any(|f| f == "illegal");
        self.remembered.stop_on_illegal = on;
        if let Some(d) = self.dbg.as_mut() {
            d.target_mut().set_trap_illegal(!on);
        }
        let list: Vec<Breakpoint> = filters
            .iter()
            .map(|f| match f.as_str() {
                "illegal" => Breakpoint {
                    verified: true,
                    ..Breakpoint::default()
                },
                other => unverified(None, format!("no exception filter `{other}`")),
            })
            .collect();
        Ok(json!({ "breakpoints": list }))
    }

    pub(super) fn data_breakpoint_info(&mut self, req: &Request) -> Answer {
        let a: DataBreakpointInfoArguments = args(req)?;
        let container = match a.variables_reference.filter(|&r| r > 0) {
            Some(r) => Some(
                Container::from_reference(r)
                    .ok_or_else(|| format!("no variables with reference {r}"))?,
            ),
            None => None,
        };
        let m = self.debugger()?.target();
        Ok(
            match data_info(
                m,
                container,
                &a.name,
                a.bytes,
                a.as_address.unwrap_or(false),
            ) {
                Ok((id, description)) => json!({
                    "dataId": id,
                    "description": description,
                    "accessTypes": ["read", "write", "readWrite"],
                    "canPersist": true,
                }),
                Err(why) => json!({ "dataId": null, "description": why }),
            },
        )
    }

    pub(super) fn set_data_breakpoints(&mut self, req: &Request) -> Answer {
        let a: SetDataBreakpointsArguments = args(req)?;
        let reuse = self.remembered.data.1.clone();
        let list = self.place_data(&a.breakpoints, Some(&reuse))?;
        self.remembered.data = (a.breakpoints, ids_of(&list));
        Ok(json!({ "breakpoints": list }))
    }

    fn place_data(
        &mut self,
        wanted: &[DataBreakpoint],
        reuse: Option<&[i64]>,
    ) -> Result<Vec<Breakpoint>, Failure> {
        let no_debug = self.no_debug();
        let dbg = self
            .dbg
            .as_mut()
            .ok_or("no program is loaded yet: launch first")?;
        if no_debug {
            self.table.clear_data(dbg);
            return Ok(wanted
                .iter()
                .enumerate()
                .map(|(k, _)| {
                    let id = self.table.take_id(reuse.and_then(|r| r.get(k).copied()));
                    unverified(Some(id), "running without debugging".into())
                })
                .collect());
        }
        Ok(self.table.set_data(dbg, wanted, reuse))
    }

    /// After a restart: every remembered request placed again in the new
    /// program under its old ids, and a `breakpoint` event for each.
    pub(super) fn replace_breakpoints(&mut self, out: &mut Out<'_>) -> Result<(), Failure> {
        let mut changed = Vec::new();
        let sources = std::mem::take(&mut self.remembered.sources);
        for (source, wanted, ids) in &sources {
            let list = self.place_source(source, wanted, Some(ids))?;
            changed.extend(list);
        }
        self.remembered.sources = sources;
        let (f, ids) = self.remembered.functions.clone();
        changed.extend(self.place_functions(&f, Some(&ids))?);
        let (i, ids) = self.remembered.instructions.clone();
        changed.extend(self.place_instructions(&i, Some(&ids))?);
        let (d, ids) = self.remembered.data.clone();
        changed.extend(self.place_data(&d, Some(&ids))?);
        for bp in changed {
            let _ = out.event(
                "breakpoint",
                json!({ "reason": "changed", "breakpoint": bp }),
            );
        }
        Ok(())
    }
}
