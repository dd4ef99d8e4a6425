//! The MC68HC11 core (M68HC11 Reference Manual, sections 3-6): registers, the
//! opcode table, instruction execution, interrupts and reset.

pub mod bus;
pub mod opcodes;

pub use bus::{Bus, RamBus};
pub use opcodes::{Mode, Op, OpcodeInfo, OPCODES, OPCODE_MAP};
pub mod decode;

pub use decode::{IllegalOpcode, Instruction};
