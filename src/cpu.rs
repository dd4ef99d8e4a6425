//! The MC68HC11 core (M68HC11 Reference Manual, sections 3-6): registers, the
//! opcode table, instruction execution, interrupts and reset.
//!
//! Owns: the instruction set (one opcode table with cycles), decode, the
//! semantics of every instruction, interrupt entry and reset. Must not know
//! about: any board, memory map or device (it reaches memory only through
//! the [`Bus`] trait), the machine that runs it, or anything above.

pub(crate) mod alu;
pub mod bus;
pub mod core;
pub mod decode;
pub mod opcodes;
pub mod registers;

pub use self::core::{vector_name, Cpu, RunState, Step, StepEvent};
pub use self::core::{
    ILLEGAL_CYCLES, ILLEGAL_VECTOR, INTERRUPT_CYCLES, RESET_VECTOR, SWI_VECTOR, WAIT_SLICE,
    WAKE_CYCLES, XIRQ_VECTOR,
};
pub use bus::{Bus, RamBus};
pub use decode::{IllegalOpcode, Instruction};
pub use opcodes::{flow_op, Mode, Op, OpcodeInfo, OPCODES, OPCODE_MAP};
pub use registers::{flags, Registers};
