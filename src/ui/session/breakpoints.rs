//! The session's breakpoints: set from the gutter, the list or a spec,
//! each a spec in the debugger's syntax (so it follows its code when the
//! program is re-assembled), persisted per program.

use super::*;

impl Session {
    /// The debugger's breakpoints (empty without a machine), in the order
    /// set: spec, enabled, hits, placement, error.
    pub fn breakpoint_list(&self) -> &[Breakpoint] {
        self.dbg.as_ref().map_or(&[], |d| d.breakpoints.list())
    }

    /// True if an enabled breakpoint is placed at `addr`.
    pub fn has_breakpoint(&self, addr: u16) -> bool {
        self.breakpoint_list()
            .iter()
            .any(|b| b.enabled && b.addrs.contains(&addr))
    }

    /// `Some(enabled)` if a breakpoint (enabled or not) is placed at `addr`.
    pub fn breakpoint_at(&self, addr: u16) -> Option<bool> {
        let mut at = self
            .breakpoint_list()
            .iter()
            .filter(|b| b.addrs.contains(&addr));
        let first = at.next()?;
        Some(first.enabled || at.any(|b| b.enabled))
    }

    /// Addresses of the enabled breakpoints, in the order they were set:
    /// the debugger's whole list, so those with a condition or hit count
    /// (`LOC[:N][ if COND]`) are in it too (a lesson's `breakpoint` check).
    pub fn breakpoints(&self) -> Vec<u16> {
        self.breakpoint_list()
            .iter()
            .filter(|b| b.enabled)
            .flat_map(|b| b.addrs.iter().copied())
            .collect()
    }

    /// The spec the gutter uses for `addr`: the label that starts there,
    /// else the source line that starts there, else the address, so the
    /// breakpoint follows its code when the program is re-assembled.
    fn spec_for(&self, addr: u16) -> String {
        let fallback = format!("${addr:04X}");
        let Some(p) = self.program.as_deref() else {
            return fallback;
        };
        let label = p
            .label_for(addr)
            .filter(|(s, off)| *off == 0 && s.kind == SymbolKind::Label)
            .map(|(s, _)| s.name.clone());
        let line = p.line_at(addr).filter(|e| e.addr == addr).and_then(|e| {
            let f = p.files.get(e.file)?.path.file_name()?.to_str()?;
            Some(format!("{f}:{}", e.line))
        });
        // Only a spec that resolves back to this very address will do.
        [label, line]
            .into_iter()
            .flatten()
            .find(|spec| {
                BreakSpec::parse(spec)
                    .and_then(|s| s.resolve(p))
                    .is_ok_and(|r| r.addrs.first() == Some(&addr))
            })
            .unwrap_or(fallback)
    }

    pub(super) fn add_breakpoint(&mut self, addr: u16) -> bool {
        if self.breakpoint_at(addr).is_some() {
            return false;
        }
        let spec = self.spec_for(addr);
        match self.dbg.as_mut().map(|d| d.add_breakpoint(&spec)) {
            Some(Ok(_)) => true,
            Some(Err(e)) => {
                self.status = e.to_string();
                false
            }
            None => false,
        }
    }

    /// Adds a breakpoint from a spec in the library's syntax
    /// (`LOC[:N][ if COND]`, see [`crate::debug::breakpoint`]); on an error
    /// nothing is added and the parser's message is returned.
    pub fn add_breakpoint_spec(&mut self, text: &str) -> Result<u32, String> {
        let Some(d) = self.dbg.as_mut() else {
            return Err(tr(self.lang, "no program loaded").into());
        };
        let id = d.add_breakpoint(text.trim()).map_err(|e| e.to_string())?;
        self.status = trf(self.lang, "Breakpoint #{} `{}` set.", &[&id, &text.trim()]);
        self.save_breakpoints();
        Ok(id)
    }

    /// Replaces a breakpoint's spec (same place in the list, hits from
    /// zero); on an error the breakpoint stays as it was.
    pub fn edit_breakpoint(&mut self, id: u32, text: &str) -> Result<(), String> {
        let Some(d) = self.dbg.as_mut() else {
            return Err(tr(self.lang, "no program loaded").into());
        };
        let spec = BreakSpec::parse(text.trim()).map_err(|e| e.to_string())?;
        let program = d.target().program().clone();
        d.breakpoints
            .replace(id, spec, &program)
            .map_err(|e| e.to_string())?;
        self.save_breakpoints();
        Ok(())
    }

    /// Enables or disables a breakpoint.
    pub fn set_breakpoint_enabled(&mut self, id: u32, enabled: bool) {
        if let Some(d) = self.dbg.as_mut() {
            // The id came from this debugger; a stale one changes nothing.
            let _ = d.breakpoints.set_enabled(id, enabled);
        }
        self.save_breakpoints();
    }

    /// Deletes a breakpoint.
    pub fn remove_breakpoint(&mut self, id: u32) {
        if let Some(d) = self.dbg.as_mut() {
            // The id came from this debugger; a stale one changes nothing.
            let _ = d.breakpoints.remove(id);
        }
        self.save_breakpoints();
    }

    /// Sets a breakpoint at an address, or clears every breakpoint placed
    /// there (enabled or not).
    pub fn toggle_breakpoint(&mut self, addr: u16) {
        if self.breakpoint_at(addr).is_some() {
            let ids: Vec<u32> = self
                .breakpoint_list()
                .iter()
                .filter(|b| b.addrs.contains(&addr))
                .map(|b| b.id)
                .collect();
            if let Some(d) = self.dbg.as_mut() {
                for id in ids {
                    // Ids just read from this debugger.
                    let _ = d.breakpoints.remove(id);
                }
            }
            self.status = trf(
                self.lang,
                "Breakpoint at ${} removed.",
                &[&format!("{addr:04X}")],
            );
        } else if self.add_breakpoint(addr) {
            self.status = trf(
                self.lang,
                "Breakpoint at ${}{}.",
                &[&format!("{addr:04X}"), &self.describe(addr)],
            );
        }
        self.save_breakpoints();
    }

    /// ` (label+off, file:line)` for messages.
    pub fn describe(&self, addr: u16) -> String {
        let Some(p) = self.program.as_deref() else {
            return String::new();
        };
        let label = p.label_for(addr).map(|(s, off)| {
            if off == 0 {
                s.name.clone()
            } else {
                format!("{}+{off}", s.name)
            }
        });
        let line = p.line_at(addr).and_then(|e| {
            let f = p.files.get(e.file)?.path.file_name()?.to_string_lossy();
            Some(format!("{f}:{}", e.line))
        });
        match (label, line) {
            (Some(l), Some(f)) => format!(" ({l}, {f})"),
            (Some(l), None) => format!(" ({l})"),
            (None, Some(f)) => format!(" ({f})"),
            (None, None) => String::new(),
        }
    }

    /// Sets or clears a breakpoint on a source line (at its first address);
    /// a line with only a label breaks at the label's address (the next
    /// instruction); another line without code gets none.
    pub fn toggle_breakpoint_line(&mut self, file: FileId, line: u32) {
        let addr = self.program.as_deref().and_then(|p| {
            p.addrs_of_line(file, line)
                .next()
                .map(|e| e.addr)
                .or_else(|| {
                    p.symbols
                        .iter()
                        .find(|s| s.kind == SymbolKind::Label && s.defined_at == Some((file, line)))
                        .map(|s| s.value)
                })
        });
        match addr {
            Some(a) => self.toggle_breakpoint(a),
            None => {
                self.status = trf(
                    self.lang,
                    "Line {} has no code: no breakpoint there.",
                    &[&line],
                )
            }
        }
    }

    /// F9: toggles a breakpoint on the selected line, else at the PC.
    pub fn toggle_breakpoint_at_selection(&mut self) {
        match self.selection {
            Some(Selection::Line { file, line }) => self.toggle_breakpoint_line(file, line),
            _ => {
                if let Some(pc) = self.pc() {
                    self.toggle_breakpoint(pc);
                }
            }
        }
    }

    pub(super) fn program_key(&self) -> PathBuf {
        match &self.origin {
            Some(Origin::Path(p)) => p.clone(),
            _ => PathBuf::new(),
        }
    }

    pub(super) fn save_breakpoints(&mut self) {
        if self.dbg.is_none() {
            // Sources that did not assemble: keep what was saved.
            return;
        }
        let saved: Vec<SavedBreakpoint> = self
            .breakpoint_list()
            .iter()
            .map(|b| SavedBreakpoint::Spec {
                text: b.spec.text.clone(),
                enabled: b.enabled,
            })
            .collect();
        let key = self.program_key();
        self.settings.breakpoints.retain(|(k, _)| *k != key);
        if !saved.is_empty() {
            self.settings.breakpoints.push((key, saved));
        }
    }

    pub(super) fn restore_breakpoints(&mut self) {
        let Some(p) = self.program.clone() else {
            return;
        };
        let key = self.program_key();
        let saved = self
            .settings
            .breakpoints
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let mut lost = Vec::new();
        for b in saved {
            match b {
                SavedBreakpoint::Addr(a) => {
                    self.add_breakpoint(a);
                }
                SavedBreakpoint::Line { file, line } => {
                    let addr = p
                        .files
                        .iter()
                        .position(|f| f.path == file)
                        .and_then(|fi| p.addrs_of_line(fi, line).next())
                        .map(|e| e.addr);
                    if let Some(a) = addr {
                        self.add_breakpoint(a);
                    }
                }
                SavedBreakpoint::Spec { text, enabled } => {
                    let Some(d) = self.dbg.as_mut() else {
                        return;
                    };
                    match d.add_breakpoint(&text) {
                        Ok(id) if !enabled => {
                            let _ = d.breakpoints.set_enabled(id, false);
                        }
                        Ok(_) => {}
                        Err(e) => lost.push(e.to_string()),
                    }
                }
            }
        }
        for message in lost {
            self.problems.push(Problem {
                severity: "warning".into(),
                message: trf(self.lang, "saved breakpoint dropped: {}", &[&message]),
                at: None,
            });
        }
    }
}
