//! The data paths of each instruction, as the M68HC11 RM section 6 and
//! appendix A describe them, and of an interrupt entry: which node a step
//! makes for every register and memory byte it writes, and from what.

use super::RegByte::*;
use super::{effective_address, NodeId, RegByte, Tracker, NONE};
use crate::cpu::{Instruction, Op, Registers};

impl Tracker {
    /// Pushes the nine bytes of an interrupt frame as the CPU does (RM 5.4):
    /// PCL at SP, PCH, YL, YH, XL, XH, A, B, CCR; `r` are the registers stacked.
    fn stack_registers(&mut self, pc: u16, r: &Registers) {
        let sp = r.sp;
        let [pch, pcl] = r.pc.to_be_bytes();
        let [xh, xl] = r.x.to_be_bytes();
        let [yh, yl] = r.y.to_be_bytes();
        let ret = self.imm(pc, pcl);
        self.push_byte(pc, sp, ret, pcl);
        let ret = self.imm(pc, pch);
        self.push_byte(pc, sp.wrapping_sub(1), ret, pch);
        let bytes = [(Yl, yl), (Yh, yh), (Xl, xl), (Xh, xh), (A, r.a), (B, r.b)];
        for (i, (reg, v)) in bytes.into_iter().enumerate() {
            let n = self.get(reg);
            self.push_byte(pc, sp.wrapping_sub(2 + i as u16), n, v);
        }
        let ccr = self.computed(pc, NONE, NONE, r.ccr);
        self.push_byte(pc, sp.wrapping_sub(8), ccr, r.ccr);
    }

    /// An interrupt (or the illegal-opcode trap) was entered with registers
    /// `before`; `already_stacked` after WAI, which stacked them itself.
    pub fn interrupt(&mut self, before: &Registers, already_stacked: bool) {
        if !already_stacked {
            self.stack_registers(before.pc, before);
        }
        self.maybe_compact();
    }

    /// Applies one executed instruction: `before`/`after` are the registers
    /// around it, `peek` reads memory after it.
    pub fn instruction(
        &mut self,
        ins: &Instruction,
        before: &Registers,
        after: &Registers,
        peek: &dyn Fn(u16) -> u8,
    ) {
        let pc = ins.addr;
        let ea = effective_address(ins, before);
        let r = after;
        let [xh, xl] = r.x.to_be_bytes();
        let [yh, yl] = r.y.to_be_bytes();
        // The 8-bit operand of an accumulator instruction.
        let src8 = |t: &mut Tracker| -> NodeId {
            match ea {
                Some(e) => t.load(pc, e, peek(e)),
                None => t.imm(pc, ins.byte_operand()),
            }
        };
        // The 16-bit operand, high byte first.
        let src16 = |t: &mut Tracker| -> (NodeId, NodeId) {
            match ea {
                Some(e) => {
                    let e1 = e.wrapping_add(1);
                    (t.load(pc, e, peek(e)), t.load(pc, e1, peek(e1)))
                }
                None => {
                    let [h, l] = ins.word_operand().to_be_bytes();
                    (t.imm(pc, h), t.imm(pc, l))
                }
            }
        };
        // Read-modify-write of a memory byte (or, inherent, of an accumulator).
        let rmw = |t: &mut Tracker, acc: Option<RegByte>, constant: bool| match (acc, ea) {
            (Some(reg), _) => {
                let v = if reg == A { r.a } else { r.b };
                let n = if constant {
                    t.imm(pc, v)
                } else {
                    let old = t.get(reg);
                    t.computed(pc, old, NONE, v)
                };
                t.set(reg, n);
            }
            (None, Some(e)) => {
                let v = peek(e);
                let n = if constant {
                    t.imm(pc, v)
                } else {
                    let old = t.load(pc, e, v);
                    t.computed(pc, old, NONE, v)
                };
                t.store(pc, e, n, v);
            }
            (None, None) => {}
        };
        match ins.info.op {
            // ---- loads ---------------------------------------------------
            Op::Ldaa => {
                let n = src8(self);
                self.set(A, n);
            }
            Op::Ldab => {
                let n = src8(self);
                self.set(B, n);
            }
            Op::Ldd => {
                let (h, l) = src16(self);
                self.set(A, h);
                self.set(B, l);
            }
            Op::Ldx => {
                let (h, l) = src16(self);
                self.set(Xh, h);
                self.set(Xl, l);
            }
            Op::Ldy => {
                let (h, l) = src16(self);
                self.set(Yh, h);
                self.set(Yl, l);
            }
            // SP is not shadowed: its value is an address, not data.
            Op::Lds | Op::Txs | Op::Tys | Op::Ins | Op::Des => {}
            // ---- stores --------------------------------------------------
            Op::Staa | Op::Stab | Op::Std | Op::Stx | Op::Sty | Op::Sts => {
                let Some(e) = ea else { return };
                let e1 = e.wrapping_add(1);
                match ins.info.op {
                    Op::Staa => self.store(pc, e, self.get(A), r.a),
                    Op::Stab => self.store(pc, e, self.get(B), r.b),
                    Op::Std => {
                        self.store(pc, e, self.get(A), r.a);
                        self.store(pc, e1, self.get(B), r.b);
                    }
                    Op::Stx => {
                        self.store(pc, e, self.get(Xh), xh);
                        self.store(pc, e1, self.get(Xl), xl);
                    }
                    Op::Sty => {
                        self.store(pc, e, self.get(Yh), yh);
                        self.store(pc, e1, self.get(Yl), yl);
                    }
                    _ => {
                        let [sh, sl] = r.sp.to_be_bytes();
                        let h = self.computed(pc, NONE, NONE, sh);
                        let l = self.computed(pc, NONE, NONE, sl);
                        self.store(pc, e, h, sh);
                        self.store(pc, e1, l, sl);
                    }
                }
            }
            // ---- accumulator op= operand ---------------------------------
            Op::Adda | Op::Adca | Op::Suba | Op::Sbca | Op::Anda | Op::Oraa | Op::Eora => {
                let s = src8(self);
                let n = self.computed(pc, self.get(A), s, r.a);
                self.set(A, n);
            }
            Op::Addb | Op::Adcb | Op::Subb | Op::Sbcb | Op::Andb | Op::Orab | Op::Eorb => {
                let s = src8(self);
                let n = self.computed(pc, self.get(B), s, r.b);
                self.set(B, n);
            }
            Op::Addd | Op::Subd => {
                let (h, l) = src16(self);
                let nh = self.computed(pc, self.get(A), h, r.a);
                let nl = self.computed(pc, self.get(B), l, r.b);
                self.set(A, nh);
                self.set(B, nl);
            }
            Op::Aba | Op::Sba => {
                let n = self.computed(pc, self.get(A), self.get(B), r.a);
                self.set(A, n);
            }
            Op::Abx => {
                let h = self.computed(pc, self.get(Xh), NONE, xh);
                let l = self.computed(pc, self.get(Xl), self.get(B), xl);
                self.set(Xh, h);
                self.set(Xl, l);
            }
            Op::Aby => {
                let h = self.computed(pc, self.get(Yh), NONE, yh);
                let l = self.computed(pc, self.get(Yl), self.get(B), yl);
                self.set(Yh, h);
                self.set(Yl, l);
            }
            Op::Mul => {
                let h = self.computed(pc, self.get(A), self.get(B), r.a);
                let l = self.computed(pc, self.get(B), self.get(A), r.b);
                self.set(A, h);
                self.set(B, l);
            }
            Op::Idiv | Op::Fdiv => {
                // Quotient to X, remainder to D; the low bytes carry the
                // meaning in the course's uses (cell address / row length).
                let (d, x) = (self.get(B), self.get(Xl));
                let qh = self.computed(pc, d, x, xh);
                let ql = self.computed(pc, d, x, xl);
                let rh = self.computed(pc, d, x, r.a);
                let rl = self.computed(pc, d, x, r.b);
                self.set(Xh, qh);
                self.set(Xl, ql);
                self.set(A, rh);
                self.set(B, rl);
            }
            Op::Daa => rmw(self, Some(A), false),
            // ---- shifts, rotates, unary ----------------------------------
            Op::Asla
            | Op::Asra
            | Op::Lsra
            | Op::Rola
            | Op::Rora
            | Op::Coma
            | Op::Nega
            | Op::Inca
            | Op::Deca => rmw(self, Some(A), false),
            Op::Aslb
            | Op::Asrb
            | Op::Lsrb
            | Op::Rolb
            | Op::Rorb
            | Op::Comb
            | Op::Negb
            | Op::Incb
            | Op::Decb => rmw(self, Some(B), false),
            Op::Clra => rmw(self, Some(A), true),
            Op::Clrb => rmw(self, Some(B), true),
            Op::Asl
            | Op::Asr
            | Op::Lsr
            | Op::Rol
            | Op::Ror
            | Op::Com
            | Op::Neg
            | Op::Inc
            | Op::Dec => rmw(self, None, false),
            Op::Clr => rmw(self, None, true),
            Op::Asld => {
                let h = self.computed(pc, self.get(A), self.get(B), r.a);
                let l = self.computed(pc, self.get(B), NONE, r.b);
                self.set(A, h);
                self.set(B, l);
            }
            Op::Lsrd => {
                let h = self.computed(pc, self.get(A), NONE, r.a);
                let l = self.computed(pc, self.get(B), self.get(A), r.b);
                self.set(A, h);
                self.set(B, l);
            }
            Op::Bset | Op::Bclr => {
                let Some(e) = ea else { return };
                let v = peek(e);
                let old = self.load(pc, e, v);
                let mask = self.imm(pc, ins.operands[1]);
                let n = self.computed(pc, old, mask, v);
                self.store(pc, e, n, v);
            }
            // ---- index registers -----------------------------------------
            Op::Inx | Op::Dex => {
                let h = self.computed(pc, self.get(Xh), NONE, xh);
                let l = self.computed(pc, self.get(Xl), NONE, xl);
                self.set(Xh, h);
                self.set(Xl, l);
            }
            Op::Iny | Op::Dey => {
                let h = self.computed(pc, self.get(Yh), NONE, yh);
                let l = self.computed(pc, self.get(Yl), NONE, yl);
                self.set(Yh, h);
                self.set(Yl, l);
            }
            Op::Tsx | Op::Tsy => {
                let h = self.computed(pc, NONE, NONE, if ins.info.op == Op::Tsx { xh } else { yh });
                let l = self.computed(pc, NONE, NONE, if ins.info.op == Op::Tsx { xl } else { yl });
                let (rh, rl) = if ins.info.op == Op::Tsx {
                    (Xh, Xl)
                } else {
                    (Yh, Yl)
                };
                self.set(rh, h);
                self.set(rl, l);
            }
            // ---- transfers: the value moves, its history with it ----------
            Op::Tab => self.set(B, self.get(A)),
            Op::Tba => self.set(A, self.get(B)),
            Op::Xgdx => {
                let (a, b) = (self.get(A), self.get(B));
                self.set(A, self.get(Xh));
                self.set(B, self.get(Xl));
                self.set(Xh, a);
                self.set(Xl, b);
            }
            Op::Xgdy => {
                let (a, b) = (self.get(A), self.get(B));
                self.set(A, self.get(Yh));
                self.set(B, self.get(Yl));
                self.set(Yh, a);
                self.set(Yl, b);
            }
            Op::Tpa => {
                let n = self.computed(pc, NONE, NONE, r.a);
                self.set(A, n);
            }
            Op::Tap => {}
            // ---- stack ---------------------------------------------------
            Op::Psha => self.push_byte(pc, before.sp, self.get(A), before.a),
            Op::Pshb => self.push_byte(pc, before.sp, self.get(B), before.b),
            Op::Pshx | Op::Pshy => {
                let (rh, rl, v) = if ins.info.op == Op::Pshx {
                    (Xh, Xl, before.x)
                } else {
                    (Yh, Yl, before.y)
                };
                let [h, l] = v.to_be_bytes();
                self.push_byte(pc, before.sp, self.get(rl), l);
                self.push_byte(pc, before.sp.wrapping_sub(1), self.get(rh), h);
            }
            Op::Pula => {
                let n = self.pull(pc, before.sp.wrapping_add(1), r.a);
                self.set(A, n);
            }
            Op::Pulb => {
                let n = self.pull(pc, before.sp.wrapping_add(1), r.b);
                self.set(B, n);
            }
            Op::Pulx | Op::Puly => {
                let (rh, rl, v) = if ins.info.op == Op::Pulx {
                    (Xh, Xl, r.x)
                } else {
                    (Yh, Yl, r.y)
                };
                let [h, l] = v.to_be_bytes();
                let nh = self.pull(pc, before.sp.wrapping_add(1), h);
                let nl = self.pull(pc, before.sp.wrapping_add(2), l);
                self.set(rh, nh);
                self.set(rl, nl);
            }
            Op::Jsr | Op::Bsr => {
                let [h, l] = ins.next_addr().to_be_bytes();
                let nl = self.imm(pc, l);
                self.push_byte(pc, before.sp, nl, l);
                let nh = self.imm(pc, h);
                self.push_byte(pc, before.sp.wrapping_sub(1), nh, h);
            }
            Op::Rti => {
                let s = before.sp;
                let [xh0, xl0] = r.x.to_be_bytes();
                let [yh0, yl0] = r.y.to_be_bytes();
                let pulls = [
                    (B, 2, r.b),
                    (A, 3, r.a),
                    (Xh, 4, xh0),
                    (Xl, 5, xl0),
                    (Yh, 6, yh0),
                    (Yl, 7, yl0),
                ];
                for (reg, off, v) in pulls {
                    let n = self.pull(pc, s.wrapping_add(off), v);
                    self.set(reg, n);
                }
            }
            Op::Swi | Op::Wai => {
                let mut stacked = *before;
                stacked.pc = ins.next_addr();
                self.stack_registers(pc, &stacked);
            }
            // ---- no data moves -------------------------------------------
            Op::Bcc
            | Op::Bcs
            | Op::Beq
            | Op::Bge
            | Op::Bgt
            | Op::Bhi
            | Op::Ble
            | Op::Bls
            | Op::Blt
            | Op::Bmi
            | Op::Bne
            | Op::Bpl
            | Op::Bra
            | Op::Brn
            | Op::Bvc
            | Op::Bvs
            | Op::Brclr
            | Op::Brset
            | Op::Jmp
            | Op::Rts
            | Op::Nop
            | Op::Test
            | Op::Stop
            | Op::Bita
            | Op::Bitb
            | Op::Cmpa
            | Op::Cmpb
            | Op::Cba
            | Op::Cpd
            | Op::Cpx
            | Op::Cpy
            | Op::Tst
            | Op::Tsta
            | Op::Tstb
            | Op::Clc
            | Op::Cli
            | Op::Clv
            | Op::Sec
            | Op::Sei
            | Op::Sev => {}
        }
        self.maybe_compact();
    }
}
