//! `hc11lab dap`: a Debug Adapter Protocol server, so that VS Code and any
//! other DAP client (Neovim's nvim-dap, Emacs dape, Helix) debug 68HC11
//! programs with hc11lab's debugger. It speaks the protocol over standard
//! input and output or TCP; it knows the protocol, not any one editor, and
//! the debugger knows nothing of it.
//!
//! `transport` frames messages, `protocol` has their types, `server` runs
//! the loop, `session` answers requests on the debugger (running and
//! stepping in `control`, breakpoint requests in `requests` with the
//! client's breakpoints in `breakpoints`), `variables`, `evaluate`,
//! `memory` and `sources` make the views, `board` the LCD and keys.
//! docs/editors.md is the user's guide.

mod board;
mod breakpoints;
mod control;
mod evaluate;
mod launch;
mod memory;
mod protocol;
mod requests;
mod server;
mod session;
mod sources;
mod transport;
mod variables;

pub use server::{serve, serve_stdio, serve_tcp};
