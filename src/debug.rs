//! The debugger core: breakpoints, watchpoints, stepping, the call
//! stack, reverse execution, provenance of display and memory bytes, and the
//! per-subroutine cycle profile, all as library calls the GUI, lessons, the
//! grader and the command line share.
//!
//! Owns: a debugging session over a [`Target`] (the machine, or a bare core
//! on RAM) and everything derived from running it. Must not know about:
//! lessons, grading or the window (they build on it); it reaches the
//! machine's steps through the machine's own seams (the bus observer, the
//! hooked run), never the other way round.

pub mod breakpoint;
pub mod callstack;
pub mod cli;
pub mod condition;
pub mod history;
mod lazy_provenance;
/// The bus observer lives in the machine layer (the debugger builds on it).
pub use crate::machine::observe;
pub mod profile;
pub mod provenance;
pub mod report;
pub mod session;
pub mod target;
pub mod watch;

pub use breakpoint::{BreakSpec, Breakpoints};
pub use cli::{run_debug, DebugRun, RunRequest};
pub use condition::Expr;
pub use profile::ProfileReport;
pub use report::{Explanation, FrameReport, LinkReport};
pub use session::{Debugger, Reason, Stop};
pub use target::Target;
pub use watch::{WatchSpec, Watchpoints};
