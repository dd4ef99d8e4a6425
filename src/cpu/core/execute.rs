//! Instruction execution (M68HC11 Reference Manual, section 6 and appendix A):
//! the decoded [`OpcodeInfo`] goes through one exhaustive `match` on [`Op`];
//! the addressing mode only decides where the operand comes from.

use super::{read16, write16, Cpu, RunState, Step, StepEvent, SWI_VECTOR};
use crate::cpu::alu;
use crate::cpu::bus::Bus;
use crate::cpu::decode::IllegalOpcode;
use crate::cpu::opcodes::{Mode, Op};
use crate::cpu::registers::flags::{C, I, S, V, X, Z};

/// The instruction's operand bytes as the step fetched them, and the PC
/// moving past each one the instruction takes.
pub(super) struct Fetch {
    /// The address of the next operand byte, then of the next instruction.
    pub(super) pc: u16,
    /// The operand bytes not taken yet, the next one in the top byte.
    rest: u64,
}

impl Fetch {
    /// Takes the next operand byte.
    #[inline(always)]
    fn next8(&mut self) -> u8 {
        let v = (self.rest >> 56) as u8;
        self.rest <<= 8;
        self.pc = self.pc.wrapping_add(1);
        v
    }

    /// Takes the next two operand bytes, high byte first.
    #[inline(always)]
    fn next16(&mut self) -> u16 {
        let v = (self.rest >> 48) as u16;
        self.rest <<= 16;
        self.pc = self.pc.wrapping_add(2);
        v
    }
}

impl Cpu {
    /// Executes one decoded instruction whose `opcode_len` opcode byte(s)
    /// at `addr` are already fetched, with its operand bytes in `operands`
    /// (the first in the top byte): `op` in `mode`, taking `cycles`; PC
    /// is set when it is done. Always inlined in optimised
    /// builds, where [`super::dispatch`] calls it with each table entry as
    /// constants, so every opcode gets its own code with the operand fetch
    /// fixed; debug builds keep one shared copy (quick to compile, same
    /// source).
    // Every argument but `bus` and `addr` is a constant of the opcode's
    // dispatch arm; grouping them would only hide that.
    #[allow(clippy::too_many_arguments)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn execute<B: Bus>(
        &mut self,
        bus: &mut B,
        op: Op,
        mode: Mode,
        cycles: u8,
        addr: u16,
        opcode_len: u16,
        operands: u64,
    ) -> Step {
        let mut event = StepEvent::None;
        // PC stays in a local through the instruction (operand fetches,
        // branches, jumps) and is stored once at the end: kept in a host
        // register, not stored and reloaded for every operand byte.
        let mut f = Fetch {
            pc: addr.wrapping_add(opcode_len),
            rest: operands,
        };
        match op {
            // ---- 8-bit loads, stores, transfers --------------------------------
            Op::Ldaa => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.a = alu::logic8(&mut self.regs.ccr, v);
            }
            Op::Ldab => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.b = alu::logic8(&mut self.regs.ccr, v);
            }
            Op::Staa => {
                let a = self.ea(&mut f, mode);
                bus.write(a, alu::logic8(&mut self.regs.ccr, self.regs.a));
            }
            Op::Stab => {
                let a = self.ea(&mut f, mode);
                bus.write(a, alu::logic8(&mut self.regs.ccr, self.regs.b));
            }
            Op::Tab => self.regs.b = alu::logic8(&mut self.regs.ccr, self.regs.a),
            Op::Tba => self.regs.a = alu::logic8(&mut self.regs.ccr, self.regs.b),
            Op::Tap => {
                self.tap(self.regs.a);
                self.attention_if_unmasked(bus);
            }
            Op::Tpa => self.regs.a = self.regs.ccr,

            // ---- 16-bit loads and stores ----------------------------------------
            Op::Ldd => {
                let v = self.operand16(bus, &mut f, mode);
                let v = alu::logic16(&mut self.regs.ccr, v);
                self.regs.set_d(v);
            }
            Op::Ldx => {
                let v = self.operand16(bus, &mut f, mode);
                self.regs.x = alu::logic16(&mut self.regs.ccr, v);
            }
            Op::Ldy => {
                let v = self.operand16(bus, &mut f, mode);
                self.regs.y = alu::logic16(&mut self.regs.ccr, v);
            }
            Op::Lds => {
                let v = self.operand16(bus, &mut f, mode);
                self.regs.sp = alu::logic16(&mut self.regs.ccr, v);
            }
            Op::Std => self.store16(bus, &mut f, mode, self.regs.d()),
            Op::Stx => self.store16(bus, &mut f, mode, self.regs.x),
            Op::Sty => self.store16(bus, &mut f, mode, self.regs.y),
            Op::Sts => self.store16(bus, &mut f, mode, self.regs.sp),

            // ---- 8-bit arithmetic and logic with A or B -------------------------
            Op::Adda => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.a = alu::add8(&mut self.regs.ccr, self.regs.a, v, false);
            }
            Op::Addb => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.b = alu::add8(&mut self.regs.ccr, self.regs.b, v, false);
            }
            Op::Adca => {
                let v = self.operand8(bus, &mut f, mode);
                let c = self.regs.ccr & C != 0;
                self.regs.a = alu::add8(&mut self.regs.ccr, self.regs.a, v, c);
            }
            Op::Adcb => {
                let v = self.operand8(bus, &mut f, mode);
                let c = self.regs.ccr & C != 0;
                self.regs.b = alu::add8(&mut self.regs.ccr, self.regs.b, v, c);
            }
            Op::Suba => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.a = alu::sub8(&mut self.regs.ccr, self.regs.a, v, false);
            }
            Op::Subb => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.b = alu::sub8(&mut self.regs.ccr, self.regs.b, v, false);
            }
            Op::Sbca => {
                let v = self.operand8(bus, &mut f, mode);
                let c = self.regs.ccr & C != 0;
                self.regs.a = alu::sub8(&mut self.regs.ccr, self.regs.a, v, c);
            }
            Op::Sbcb => {
                let v = self.operand8(bus, &mut f, mode);
                let c = self.regs.ccr & C != 0;
                self.regs.b = alu::sub8(&mut self.regs.ccr, self.regs.b, v, c);
            }
            Op::Cmpa => {
                let v = self.operand8(bus, &mut f, mode);
                alu::sub8(&mut self.regs.ccr, self.regs.a, v, false);
            }
            Op::Cmpb => {
                let v = self.operand8(bus, &mut f, mode);
                alu::sub8(&mut self.regs.ccr, self.regs.b, v, false);
            }
            Op::Anda => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.a = alu::logic8(&mut self.regs.ccr, self.regs.a & v);
            }
            Op::Andb => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.b = alu::logic8(&mut self.regs.ccr, self.regs.b & v);
            }
            Op::Bita => {
                let v = self.operand8(bus, &mut f, mode);
                alu::logic8(&mut self.regs.ccr, self.regs.a & v);
            }
            Op::Bitb => {
                let v = self.operand8(bus, &mut f, mode);
                alu::logic8(&mut self.regs.ccr, self.regs.b & v);
            }
            Op::Eora => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.a = alu::logic8(&mut self.regs.ccr, self.regs.a ^ v);
            }
            Op::Eorb => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.b = alu::logic8(&mut self.regs.ccr, self.regs.b ^ v);
            }
            Op::Oraa => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.a = alu::logic8(&mut self.regs.ccr, self.regs.a | v);
            }
            Op::Orab => {
                let v = self.operand8(bus, &mut f, mode);
                self.regs.b = alu::logic8(&mut self.regs.ccr, self.regs.b | v);
            }
            Op::Aba => {
                self.regs.a = alu::add8(&mut self.regs.ccr, self.regs.a, self.regs.b, false);
            }
            Op::Sba => {
                self.regs.a = alu::sub8(&mut self.regs.ccr, self.regs.a, self.regs.b, false);
            }
            Op::Cba => {
                alu::sub8(&mut self.regs.ccr, self.regs.a, self.regs.b, false);
            }
            Op::Daa => self.regs.a = alu::daa(&mut self.regs.ccr, self.regs.a),

            // ---- 16-bit arithmetic ----------------------------------------------
            Op::Addd => {
                let v = self.operand16(bus, &mut f, mode);
                let d0 = self.regs.d();
                let d = alu::add16(&mut self.regs.ccr, d0, v);
                self.regs.set_d(d);
            }
            Op::Subd => {
                let v = self.operand16(bus, &mut f, mode);
                let d0 = self.regs.d();
                let d = alu::sub16(&mut self.regs.ccr, d0, v);
                self.regs.set_d(d);
            }
            Op::Cpd => {
                let v = self.operand16(bus, &mut f, mode);
                let d0 = self.regs.d();
                alu::sub16(&mut self.regs.ccr, d0, v);
            }
            Op::Cpx => {
                let v = self.operand16(bus, &mut f, mode);
                alu::sub16(&mut self.regs.ccr, self.regs.x, v);
            }
            Op::Cpy => {
                let v = self.operand16(bus, &mut f, mode);
                alu::sub16(&mut self.regs.ccr, self.regs.y, v);
            }
            Op::Asld => {
                let d0 = self.regs.d();
                let d = alu::asl16(&mut self.regs.ccr, d0);
                self.regs.set_d(d);
            }
            Op::Lsrd => {
                let d0 = self.regs.d();
                let d = alu::lsr16(&mut self.regs.ccr, d0);
                self.regs.set_d(d);
            }
            Op::Mul => {
                let d = alu::mul(&mut self.regs.ccr, self.regs.a, self.regs.b);
                self.regs.set_d(d);
            }
            Op::Idiv => {
                let d0 = self.regs.d();
                let (q, r) = alu::idiv(&mut self.regs.ccr, d0, self.regs.x);
                self.regs.x = q;
                self.regs.set_d(r);
            }
            Op::Fdiv => {
                let d0 = self.regs.d();
                let (q, r) = alu::fdiv(&mut self.regs.ccr, d0, self.regs.x);
                self.regs.x = q;
                self.regs.set_d(r);
            }

            // ---- read-modify-write on memory ------------------------------------
            Op::Neg => self.rmw(bus, &mut f, mode, alu::neg8),
            Op::Com => self.rmw(bus, &mut f, mode, alu::com8),
            Op::Lsr => self.rmw(bus, &mut f, mode, alu::lsr8),
            Op::Ror => self.rmw(bus, &mut f, mode, alu::ror8),
            Op::Asr => self.rmw(bus, &mut f, mode, alu::asr8),
            Op::Asl => self.rmw(bus, &mut f, mode, alu::asl8),
            Op::Rol => self.rmw(bus, &mut f, mode, alu::rol8),
            Op::Dec => self.rmw(bus, &mut f, mode, alu::dec8),
            Op::Inc => self.rmw(bus, &mut f, mode, alu::inc8),
            // CLR is a read-modify-write on the chip too (6 cycles extended):
            // the location is read before 0 is written.
            Op::Clr => self.rmw(bus, &mut f, mode, |ccr, _| alu::clr8(ccr)),
            Op::Tst => {
                let a = self.ea(&mut f, mode);
                let v = bus.read(a);
                alu::tst8(&mut self.regs.ccr, v);
            }

            // ---- the same on A and B --------------------------------------------
            Op::Nega => self.regs.a = alu::neg8(&mut self.regs.ccr, self.regs.a),
            Op::Negb => self.regs.b = alu::neg8(&mut self.regs.ccr, self.regs.b),
            Op::Coma => self.regs.a = alu::com8(&mut self.regs.ccr, self.regs.a),
            Op::Comb => self.regs.b = alu::com8(&mut self.regs.ccr, self.regs.b),
            Op::Lsra => self.regs.a = alu::lsr8(&mut self.regs.ccr, self.regs.a),
            Op::Lsrb => self.regs.b = alu::lsr8(&mut self.regs.ccr, self.regs.b),
            Op::Rora => self.regs.a = alu::ror8(&mut self.regs.ccr, self.regs.a),
            Op::Rorb => self.regs.b = alu::ror8(&mut self.regs.ccr, self.regs.b),
            Op::Asra => self.regs.a = alu::asr8(&mut self.regs.ccr, self.regs.a),
            Op::Asrb => self.regs.b = alu::asr8(&mut self.regs.ccr, self.regs.b),
            Op::Asla => self.regs.a = alu::asl8(&mut self.regs.ccr, self.regs.a),
            Op::Aslb => self.regs.b = alu::asl8(&mut self.regs.ccr, self.regs.b),
            Op::Rola => self.regs.a = alu::rol8(&mut self.regs.ccr, self.regs.a),
            Op::Rolb => self.regs.b = alu::rol8(&mut self.regs.ccr, self.regs.b),
            Op::Deca => self.regs.a = alu::dec8(&mut self.regs.ccr, self.regs.a),
            Op::Decb => self.regs.b = alu::dec8(&mut self.regs.ccr, self.regs.b),
            Op::Inca => self.regs.a = alu::inc8(&mut self.regs.ccr, self.regs.a),
            Op::Incb => self.regs.b = alu::inc8(&mut self.regs.ccr, self.regs.b),
            Op::Clra => self.regs.a = alu::clr8(&mut self.regs.ccr),
            Op::Clrb => self.regs.b = alu::clr8(&mut self.regs.ccr),
            Op::Tsta => alu::tst8(&mut self.regs.ccr, self.regs.a),
            Op::Tstb => alu::tst8(&mut self.regs.ccr, self.regs.b),

            // ---- index registers and stack pointer -----------------------------
            // INX/DEX/INY/DEY affect Z only; INS/DES no flags.
            Op::Inx => self.regs.x = self.inc16_z(self.regs.x, 1),
            Op::Dex => self.regs.x = self.inc16_z(self.regs.x, 0xFFFF),
            Op::Iny => self.regs.y = self.inc16_z(self.regs.y, 1),
            Op::Dey => self.regs.y = self.inc16_z(self.regs.y, 0xFFFF),
            Op::Ins => self.regs.sp = self.regs.sp.wrapping_add(1),
            Op::Des => self.regs.sp = self.regs.sp.wrapping_sub(1),
            // SP points at the next free byte; X/Y get the address of the last
            // byte pushed, so TSX then 0,X reads the top of the stack.
            Op::Tsx => self.regs.x = self.regs.sp.wrapping_add(1),
            Op::Tsy => self.regs.y = self.regs.sp.wrapping_add(1),
            Op::Txs => self.regs.sp = self.regs.x.wrapping_sub(1),
            Op::Tys => self.regs.sp = self.regs.y.wrapping_sub(1),
            Op::Abx => self.regs.x = self.regs.x.wrapping_add(self.regs.b as u16),
            Op::Aby => self.regs.y = self.regs.y.wrapping_add(self.regs.b as u16),
            Op::Xgdx => {
                let d = self.regs.d();
                self.regs.set_d(self.regs.x);
                self.regs.x = d;
            }
            Op::Xgdy => {
                let d = self.regs.d();
                self.regs.set_d(self.regs.y);
                self.regs.y = d;
            }
            Op::Psha => self.push8(bus, self.regs.a),
            Op::Pshb => self.push8(bus, self.regs.b),
            Op::Pshx => self.push16(bus, self.regs.x),
            Op::Pshy => self.push16(bus, self.regs.y),
            Op::Pula => self.regs.a = self.pull8(bus),
            Op::Pulb => self.regs.b = self.pull8(bus),
            Op::Pulx => self.regs.x = self.pull16(bus),
            Op::Puly => self.regs.y = self.pull16(bus),

            // ---- condition code register ---------------------------------------
            Op::Clc => self.regs.ccr &= !C,
            Op::Sec => self.regs.ccr |= C,
            Op::Clv => self.regs.ccr &= !V,
            Op::Sev => self.regs.ccr |= V,
            Op::Cli => {
                if self.regs.ccr & I != 0 {
                    self.irq_delay = true;
                }
                self.regs.ccr &= !I;
                bus.attention();
            }
            Op::Sei => self.regs.ccr |= I,

            // ---- branches, jumps, subroutines ---------------------------------
            Op::Bra
            | Op::Brn
            | Op::Bhi
            | Op::Bls
            | Op::Bcc
            | Op::Bcs
            | Op::Bne
            | Op::Beq
            | Op::Bvc
            | Op::Bvs
            | Op::Bpl
            | Op::Bmi
            | Op::Bge
            | Op::Blt
            | Op::Bgt
            | Op::Ble => self.branch(&mut f, alu::branch_taken(op, self.regs.ccr)),
            Op::Bsr => {
                let d = self.fetch8(&mut f) as i8 as u16;
                let ret = f.pc;
                self.push16(bus, ret);
                f.pc = ret.wrapping_add(d);
                self.flow.note(0x8D00);
            }
            Op::Jmp => f.pc = self.ea(&mut f, mode),
            Op::Jsr => {
                let target = self.ea(&mut f, mode);
                let ret = f.pc;
                self.push16(bus, ret);
                f.pc = target;
                // The opcode bytes (RM appendix A), constant per arm.
                self.flow.note(match mode {
                    Mode::Direct => 0x9D00,
                    Mode::Extended => 0xBD00,
                    Mode::IndexedY => 0x18AD,
                    _ => 0xAD00,
                });
            }
            Op::Rts => {
                f.pc = self.pull16(bus);
                self.flow.note(0x3900);
            }
            Op::Rti => {
                self.flow.note(0x3B00);
                let ccr = self.pull8(bus);
                self.regs.b = self.pull8(bus);
                self.regs.a = self.pull8(bus);
                self.regs.x = self.pull16(bus);
                self.regs.y = self.pull16(bus);
                f.pc = self.pull16(bus);
                self.regs.ccr = keep_x_clear(self.regs.ccr, ccr);
                self.attention_if_unmasked(bus);
            }

            // ---- bit manipulation ------------------------------------------------
            Op::Bset => {
                let a = self.ea(&mut f, mode);
                let mask = self.fetch8(&mut f);
                let v = bus.read(a) | mask;
                bus.write(a, alu::logic8(&mut self.regs.ccr, v));
            }
            Op::Bclr => {
                let a = self.ea(&mut f, mode);
                let mask = self.fetch8(&mut f);
                let v = bus.read(a) & !mask;
                bus.write(a, alu::logic8(&mut self.regs.ccr, v));
            }
            Op::Brset => {
                let a = self.ea(&mut f, mode);
                let mask = self.fetch8(&mut f);
                let v = bus.read(a);
                self.branch(&mut f, !v & mask == 0);
            }
            Op::Brclr => {
                let a = self.ea(&mut f, mode);
                let mask = self.fetch8(&mut f);
                let v = bus.read(a);
                self.branch(&mut f, v & mask == 0);
            }

            // ---- system control ------------------------------------------------
            Op::Nop => {}
            Op::Swi => {
                // The stacked PC is the return address.
                self.regs.pc = f.pc;
                self.stack_registers(bus);
                self.set_masks(false);
                f.pc = read16(bus, SWI_VECTOR);
                event = StepEvent::Swi;
                bus.attention();
            }
            Op::Wai => {
                // The registers are stacked now, so the interrupt that ends
                // the wait only has to fetch its vector.
                self.regs.pc = f.pc;
                self.stack_registers(bus);
                self.state = RunState::Waiting;
                bus.attention();
            }
            Op::Stop => {
                // With S set (the reset state) STOP is a NOP (RM appendix A, STOP).
                if self.regs.ccr & S == 0 {
                    self.state = RunState::Stopped;
                    bus.attention();
                }
            }
            Op::Test => {
                // TEST runs only in test mode; in every other mode the chip
                // treats $00 as an illegal opcode.
                let illegal = IllegalOpcode {
                    addr,
                    bytes: [0x00, 0],
                    len: 1,
                };
                return self.illegal(bus, illegal);
            }
        }
        self.regs.pc = f.pc;
        // `op` is a constant in each dispatch arm: only the branch and
        // jump arms compare and store.
        if is_loop_jump(op, mode) {
            self.flow.back = f.pc <= addr;
        }
        Step {
            pc: addr,
            cycles: cycles as u32,
            event,
        }
    }

    #[inline(always)]
    fn fetch8(&mut self, f: &mut Fetch) -> u8 {
        f.next8()
    }

    #[inline(always)]
    fn fetch16(&mut self, f: &mut Fetch) -> u16 {
        f.next16()
    }

    /// The effective address of a memory operand. Indexed offsets are
    /// unsigned (0..255), and all address arithmetic wraps at $FFFF.
    #[inline(always)]
    fn ea(&mut self, f: &mut Fetch, mode: Mode) -> u16 {
        match mode {
            Mode::Direct | Mode::BitDirect | Mode::BitBranchDirect => self.fetch8(f) as u16,
            Mode::Extended => self.fetch16(f),
            Mode::IndexedX | Mode::BitIndexedX | Mode::BitBranchIndexedX => {
                self.regs.x.wrapping_add(self.fetch8(f) as u16)
            }
            Mode::IndexedY | Mode::BitIndexedY | Mode::BitBranchIndexedY => {
                self.regs.y.wrapping_add(self.fetch8(f) as u16)
            }
            // The table never pairs a memory operation with these modes
            // (the per-opcode tests run every entry); the immediate operand's
            // own address keeps the fallback harmless.
            Mode::Inherent | Mode::Imm8 | Mode::Imm16 | Mode::Relative => f.pc,
        }
    }

    #[inline(always)]
    fn operand8<B: Bus>(&mut self, bus: &mut B, f: &mut Fetch, mode: Mode) -> u8 {
        if mode == Mode::Imm8 {
            self.fetch8(f)
        } else {
            let a = self.ea(f, mode);
            bus.read(a)
        }
    }

    #[inline(always)]
    fn operand16<B: Bus>(&mut self, bus: &mut B, f: &mut Fetch, mode: Mode) -> u16 {
        if mode == Mode::Imm16 {
            self.fetch16(f)
        } else {
            let a = self.ea(f, mode);
            read16(bus, a)
        }
    }

    #[inline(always)]
    fn store16<B: Bus>(&mut self, bus: &mut B, f: &mut Fetch, mode: Mode, v: u16) {
        let a = self.ea(f, mode);
        write16(bus, a, alu::logic16(&mut self.regs.ccr, v));
    }

    #[inline(always)]
    fn rmw<B: Bus>(
        &mut self,
        bus: &mut B,
        f: &mut Fetch,
        mode: Mode,
        op: impl FnOnce(&mut u8, u8) -> u8,
    ) {
        let a = self.ea(f, mode);
        let v = bus.read(a);
        let r = op(&mut self.regs.ccr, v);
        bus.write(a, r);
    }

    /// Fetches the displacement and takes the branch if `taken`.
    #[inline(always)]
    fn branch(&mut self, f: &mut Fetch, taken: bool) {
        let d = self.fetch8(f) as i8 as u16;
        if taken {
            f.pc = f.pc.wrapping_add(d);
        }
    }

    /// INX/DEX/INY/DEY: add `delta`, set Z only.
    #[inline(always)]
    fn inc16_z(&mut self, v: u16, delta: u16) -> u16 {
        let r = v.wrapping_add(delta);
        self.regs.set_flag(Z, r == 0);
        r
    }

    /// Asks `bus` for attention ([`Bus::attention`]) if X or I is clear
    /// (after TAP or RTI wrote CCR).
    #[inline(always)]
    fn attention_if_unmasked<B: Bus>(&self, bus: &mut B) {
        if self.regs.ccr & (X | I) != X | I {
            bus.attention();
        }
    }

    /// TAP: CCR = A, except that X, once clear, cannot be set by software;
    /// clearing I delays IRQ recognition by one instruction, as CLI does.
    #[inline]
    fn tap(&mut self, value: u8) {
        let new = keep_x_clear(self.regs.ccr, value);
        if self.regs.ccr & I != 0 && new & I == 0 {
            self.irq_delay = true;
        }
        self.regs.ccr = new;
    }
}

/// The X bit rule of TAP and RTI (RM section 5, XIRQ): software may clear X but
/// never set it again once it is clear.
#[inline(always)]
fn keep_x_clear(old: u8, new: u8) -> u8 {
    if old & X == 0 {
        new & !X
    } else {
        new
    }
}

/// The instructions that can close a loop by going back: the relative
/// branches but BSR (a call), BRSET, BRCLR and JMP.
#[inline(always)]
fn is_loop_jump(op: Op, mode: Mode) -> bool {
    (mode == Mode::Relative && op != Op::Bsr) || matches!(op, Op::Brset | Op::Brclr | Op::Jmp)
}
