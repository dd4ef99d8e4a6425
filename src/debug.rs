//! The debugger core (issue 6): breakpoints, watchpoints, stepping, the call
//! stack, reverse execution, provenance of display and memory bytes, and the
//! per-subroutine cycle profile, all as library calls the GUI, lessons, the
//! grader and the command line share.

pub mod breakpoint;
pub mod callstack;
pub mod cli;
pub mod condition;
pub mod history;
pub mod observe;
pub mod profile;
pub mod provenance;
pub mod report;
pub mod session;
pub mod target;
pub mod watch;
