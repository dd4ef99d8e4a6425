//! The provenance rules against the CPU itself: after every step, each byte
//! the CPU wrote (as the observing bus saw it) must carry a store or push
//! node made by that instruction, at that address, with the value written.
//! This checks every rule's effective address and data path against the
//! core, on random code (almost every opcode) and on the firmware.

use hc11lab::cpu::{Cpu, Instruction, RamBus, StepEvent};
use hc11lab::debug::observe::{AccessLog, ObservingBus};
use hc11lab::debug::provenance::{NodeKind, Tracker};

fn check_step(t: &Tracker, log: &AccessLog, pc: u16, what: &str) {
    for w in log.writes() {
        let n = t.node(t.mem_node(w.addr));
        assert!(
            matches!(n.kind, NodeKind::Store | NodeKind::Push),
            "{what}: write to ${:04X} has node {n:?}",
            w.addr
        );
        assert_eq!(
            (n.pc, n.addr, n.value),
            (pc, w.addr, w.value),
            "{what}: write to ${:04X}",
            w.addr
        );
    }
}

#[test]
fn random_code_every_write_is_tracked() {
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut seen = std::collections::HashSet::new();
    for round in 0..40 {
        let mut bus = RamBus::new();
        for b in bus.mem.iter_mut() {
            *b = rnd() as u8;
        }
        let mut cpu = Cpu::new();
        cpu.reset(&mut bus);
        cpu.regs.ccr = 0; // unmask, S clear: STOP and interrupts happen too
        let mut t = Tracker::new();
        let mut log = AccessLog::default();
        for _ in 0..20_000 {
            let before = cpu.regs;
            let waiting = cpu.state == hc11lab::cpu::RunState::Waiting;
            let ins = Instruction::decode(before.pc, |a| bus.mem[a as usize]).ok();
            log.clear();
            let step = cpu.step(&mut ObservingBus::new(&mut bus, &mut log));
            let after = cpu.regs;
            match step.event {
                StepEvent::None | StepEvent::Swi => {
                    let ins = ins.expect("executed instructions decode");
                    seen.insert(ins.info.op);
                    t.instruction(&ins, &before, &after, &|a| bus.mem[a as usize]);
                    check_step(&t, &log, ins.addr, &format!("round {round} {ins}"));
                }
                StepEvent::Interrupt { .. } => {
                    t.interrupt(&before, waiting);
                    check_step(&t, &log, before.pc, "interrupt");
                }
                StepEvent::Illegal(_) => {
                    t.interrupt(&before, false);
                    check_step(&t, &log, before.pc, "illegal trap");
                }
                StepEvent::IllegalRefused(_) | StepEvent::Waiting | StepEvent::Stopped => {
                    assert!(log.writes().next().is_none());
                }
            }
            if cpu.state == hc11lab::cpu::RunState::Stopped {
                break;
            }
        }
    }
    assert!(seen.len() > 100, "only {} ops exercised", seen.len());
}
