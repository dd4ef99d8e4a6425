//! hc11lab: a debugger and course companion for Motorola 68HC11 assembly.
//!
//! Data flows one way: source text -> [`asm`] -> [`image::Program`] ->
//! `Machine` -> views. `docs/ARCHITECTURE.md` is the map.

pub mod asm;
pub mod board;
pub mod cpu;
pub mod dap;
pub mod debug;
pub mod firmware;
pub mod grade;
pub mod image;
pub mod lesson;
pub mod machine;
pub mod open;
pub mod platform;
pub mod run;
pub mod script;
pub mod stdio;
#[cfg(feature = "gui")]
pub mod ui;
