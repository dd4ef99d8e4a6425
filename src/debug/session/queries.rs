//! Questions to a session: the call stack and profile now, and where a
//! byte, a register or an LCD pixel came from (provenance).

use super::{Debugger, ExplainError, MAX_CHAIN};
use crate::debug::lazy_provenance::LazyProvenance;
use crate::debug::profile::ProfileReport;
use crate::debug::provenance::{RegByte, Tracker, NONE};
use crate::debug::report::{
    annotate, data_label, frames_report, initial_link, Explanation, FrameReport, PixelInfo,
};
use crate::debug::target::Target;
use std::cell::Ref;

/// The tracker a question reads (see [`Debugger::caught_up`]).
pub(super) enum TrackerView<'a> {
    Eager(&'a Tracker),
    Lazy(Ref<'a, Tracker>),
}

impl std::ops::Deref for TrackerView<'_> {
    type Target = Tracker;
    fn deref(&self) -> &Tracker {
        match self {
            TrackerView::Eager(t) => t,
            TrackerView::Lazy(t) => t,
        }
    }
}

impl<T: Target> Debugger<T> {
    // ---- views -----------------------------------------------------------

    /// The call stack, innermost frame first, with labels.
    pub fn call_stack(&self) -> Vec<FrameReport> {
        frames_report(self.tracked.callstack.frames(), self.target.program())
    }

    /// The raw tracker (frames outermost first).
    pub fn frames(&self) -> &[crate::debug::callstack::Frame] {
        self.tracked.callstack.frames()
    }

    /// The per-subroutine cycle profile since the session (or reset) began.
    pub fn profile(&self) -> ProfileReport {
        self.tracked.profile.report(
            self.tracked.callstack.frames(),
            self.target.cycles(),
            self.target.program(),
        )
    }

    // ---- provenance --------------------------------------------------------

    /// The tracker after the steps taken so far: the slow path's, or the
    /// lazy one caught up to now.
    pub(super) fn caught_up(&self) -> Result<TrackerView<'_>, ExplainError> {
        if let Some(t) = self.tracked.tracker.as_deref() {
            return Ok(TrackerView::Eager(t));
        }
        {
            let mut cell = self.lazy.borrow_mut();
            let lazy = cell.as_deref_mut().ok_or(ExplainError::TrackingOff)?;
            // A change from outside not yet noted leaves the machine unlike
            // any replay until it is.
            let live = (!self.dirty).then_some(&self.target);
            if !lazy.catch_up(self.tracked.index, live) {
                debug_assert!(false, "the provenance replay missed the live state");
                *lazy = LazyProvenance::new(
                    &self.target,
                    self.new_tracker(),
                    self.tracked.index,
                    self.spdr,
                );
            }
        }
        Ref::filter_map(self.lazy.borrow(), |l| l.as_deref().map(|l| l.tracker()))
            .map(TrackerView::Lazy)
            .map_err(|_| ExplainError::TrackingOff)
    }

    /// Where the byte at `addr` came from: the instruction that last wrote
    /// it, where that value was loaded from, who wrote that, ...
    pub fn explain_address(&self, addr: u16) -> Result<Explanation, ExplainError> {
        let t = self.caught_up()?;
        let program = self.target.program();
        let value = self.target.peek(addr);
        let node = t.mem_node(addr);
        let target = &self.target;
        let peek = |a: u16| target.peek(a);
        let devices = |a: u16| self.is_device(a);
        let chain = if node == NONE {
            vec![initial_link(program, addr, value)]
        } else {
            annotate(&t.chain(node, MAX_CHAIN), program, &peek, &devices)
        };
        Ok(Explanation {
            subject: format!(
                "${addr:04X} ({})",
                data_label(program, addr, self.is_device(addr))
            ),
            pixel: None,
            address: Some(addr),
            value,
            chain,
        })
    }

    /// Where the value in a register byte came from.
    pub fn explain_register(&self, reg: RegByte) -> Result<Explanation, ExplainError> {
        let t = self.caught_up()?;
        let target = &self.target;
        let peek = |a: u16| target.peek(a);
        let devices = |a: u16| self.is_device(a);
        let r = self.target.cpu().regs;
        let value = match reg {
            RegByte::A => r.a,
            RegByte::B => r.b,
            RegByte::Xh => (r.x >> 8) as u8,
            RegByte::Xl => r.x as u8,
            RegByte::Yh => (r.y >> 8) as u8,
            RegByte::Yl => r.y as u8,
        };
        Ok(Explanation {
            subject: format!("register {reg:?}"),
            pixel: None,
            address: None,
            value,
            chain: annotate(
                &t.chain(t.reg_node(reg), MAX_CHAIN),
                self.target.program(),
                &peek,
                &devices,
            ),
        })
    }

    /// Where LCD pixel (x, y) (row 0 on top) came from: the display RAM
    /// byte, the SPDR write that sent it, where that value was loaded from
    /// (e.g. `lda 0,y` in drawCell reading board+136) and who wrote that
    /// (e.g. `staa 3,x` in stone1ToBuffer).
    pub fn explain_pixel(&self, x: usize, y: usize) -> Result<Explanation, ExplainError> {
        let t = self.caught_up()?;
        self.target.lcd_probe().ok_or(ExplainError::NoLcd)?;
        let (page, column, bit) = self
            .target
            .pixel_location(x, y)
            .ok_or(ExplainError::OutsidePicture(x, y))?;
        let value = self.target.lcd_ram(page, column);
        let on = self.target.pixel(x, y);
        let target = &self.target;
        let peek = |a: u16| target.peek(a);
        let devices = |a: u16| self.is_device(a);
        let node = t.lcd_node(page, column);
        let mut chain = vec![crate::debug::report::LinkReport {
            kind: "display".into(),
            text: format!(
                "pixel ({x},{y}) is bit {bit} of display RAM page {page}, column {column}: ${value:02X} (pixel {})",
                if on { "on" } else { "off" }
            ),
            address: 0,
            label: None,
            file: None,
            line: None,
            source: None,
            instruction: None,
            data_address: None,
            data_label: None,
            value,
        }];
        if node == NONE {
            chain.push(crate::debug::report::LinkReport {
                kind: "unknown".into(),
                text: "no data byte reached this display RAM byte since tracking began".into(),
                address: 0,
                label: None,
                file: None,
                line: None,
                source: None,
                instruction: None,
                data_address: None,
                data_label: None,
                value,
            });
        } else {
            chain.extend(annotate(
                &t.chain(node, MAX_CHAIN),
                self.target.program(),
                &peek,
                &devices,
            ));
        }
        Ok(Explanation {
            subject: format!("pixel ({x},{y})"),
            pixel: Some(PixelInfo {
                x,
                y,
                page,
                column,
                bit,
                on,
            }),
            address: None,
            value,
            chain,
        })
    }
}
