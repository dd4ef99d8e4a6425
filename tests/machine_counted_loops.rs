//! The fast-forward over counted loops (a debounce counter, a delay loop)
//! changes nothing but speed: random loops built from counting, copying,
//! comparing and non-counting instructions run with the fast-forward on and
//! off must give equal machines at every stop, and the counting ones must
//! actually be skipped.

use hc11lab::image::{Program, Segment};
use hc11lab::machine::{Machine, StopConditions, StopReason};

#[path = "support/lcg.rs"]
mod lcg;
use lcg::Lcg as Rng;

#[path = "machine_support/random_loops.rs"]
mod random_loops;
use random_loops::{random_program, Restart};

/// A program with `code` at $C000 and the reset vector to it.
fn program(code: &[u8]) -> Program {
    let mut vectors = vec![0u8; 16];
    vectors[14..16].copy_from_slice(&[0xC0, 0x00]);
    Program {
        segments: vec![
            Segment {
                start: 0xC000,
                bytes: code.to_vec(),
                name: None,
            },
            Segment {
                start: 0xFFF0,
                bytes: vectors,
                name: None,
            },
        ],
        ..Program::default()
    }
}

/// Two machines on `code`, fast-forward on and off.
fn pair(code: &[u8]) -> (Machine, Machine) {
    let fast = Machine::new(program(code)).expect("loads");
    let mut slow = fast.clone();
    slow.set_fast_forward(false);
    (fast, slow)
}

/// Runs both in uneven budget chunks up to `total` cycles, requiring equal
/// machines at every stop.
fn chunks(fast: &mut Machine, slow: &mut Machine, total: u64, what: &str) {
    let mut n = 0u64;
    let mut size = 97;
    while n < total {
        let stop = StopConditions::budget(size);
        let a = fast.run_until(&stop);
        let b = slow.run_until(&stop);
        assert_eq!(a, b, "{what}: stop reasons differ");
        assert_eq!(fast.cycles(), slow.cycles(), "{what}: cycles differ");
        assert_eq!(
            fast.instructions(),
            slow.instructions(),
            "{what}: instructions differ"
        );
        assert_eq!(
            fast.registers(),
            slow.registers(),
            "{what}: registers differ at cycle {}",
            slow.cycles()
        );
        assert!(
            *fast == *slow,
            "{what}: machines differ at cycle {}",
            slow.cycles()
        );
        if a != StopReason::CycleBudget {
            return;
        }
        n += size;
        size = (size * 7 + 13) % 20_011 + 1;
    }
}

#[test]
fn random_counted_loops_match_with_and_without_fast_forward() {
    let mut rng = Rng(0x5EED);
    let mut skipped_programs = 0;
    let total = 400;
    for n in 0..total {
        let code = random_program(&mut rng, if n % 4 == 0 { 30 } else { 0 }, Restart::Head);
        let (mut fast, mut slow) = pair(&code);
        let what = format!("program {n}: {code:02X?}");
        chunks(&mut fast, &mut slow, 120_000, &what);
        if fast.fast_forward_skipped() > 0 {
            skipped_programs += 1;
        }
        assert_eq!(slow.fast_forward_skipped(), 0);
    }
    // Most random loops count in a register or RAM: they must be skipped.
    assert!(
        skipped_programs > total / 3,
        "only {skipped_programs} of {total} programs skipped anything"
    );
}

/// The same random loops, each pass of the outer loop starting over from
/// the setting of registers and RAM: a loop met again in the state an
/// earlier skip began in runs from that skip's plan (`counted::PlanMemo`),
/// and the machines stay equal to those without fast-forward.
#[test]
fn random_counted_loops_met_again_run_from_their_plans() {
    let mut rng = Rng(0xD1CE);
    let mut reusing = 0;
    let total = 200;
    for n in 0..total {
        let code = random_program(&mut rng, if n % 4 == 0 { 30 } else { 0 }, Restart::Setup);
        let (mut fast, mut slow) = pair(&code);
        let what = format!("program {n}: {code:02X?}");
        chunks(&mut fast, &mut slow, 120_000, &what);
        if fast.counted_plans_reused() > 0 {
            reusing += 1;
        }
    }
    assert!(
        reusing > total / 2,
        "only {reusing} of {total} programs reused a plan"
    );
}

#[test]
fn a_delay_loop_is_skipped_in_few_steps() {
    // ldx #$7000 ; C003: dex ; bne C003 ; inc $0110 ; bra C000
    let code = [
        0xCE, 0x70, 0x00, 0x09, 0x26, 0xFD, 0x7C, 0x01, 0x10, 0x20, 0xF5,
    ];
    let (mut fast, mut slow) = pair(&code);
    chunks(&mut fast, &mut slow, 2_000_000, "delay loop");
    // 0x7000 iterations of 6 cycles per pass: nearly all skipped.
    let (probes, _, skipped) = fast.fast_forward_stats();
    assert!(fast.peek(0x0110) >= 9, "passes: {}", fast.peek(0x0110));
    assert!(skipped > 200_000, "skipped {skipped}");
    assert!(probes < 2_000, "{probes} measurements");
}

/// The shape of the Viergewinnt key loop: a subroutine counts a RAM byte
/// with ADDA, the caller compares it with 250.
/// C000: lds #$01FF ; C003: bsr C014 ; ldab $0100 ; cmpb #250 ; bne C003 ;
///       clr $0100 ; inc $0110 ; bra C003
/// C014: psha ; ldaa $0100 ; adda #1 ; staa $0100 ; pula ; rts
const DEBOUNCE: [u8; 31] = [
    0x8E, 0x01, 0xFF, 0x8D, 0x0F, 0xF6, 0x01, 0x00, 0xC1, 0xFA, 0x26, 0xF7, 0x7F, 0x01, 0x00, 0x7C,
    0x01, 0x10, 0x20, 0xEF, 0x36, 0xB6, 0x01, 0x00, 0x8B, 0x01, 0xB7, 0x01, 0x00, 0x32, 0x39,
];

#[test]
fn a_debounce_counter_in_ram_is_skipped() {
    let code = DEBOUNCE;
    let (mut fast, mut slow) = pair(&code);
    chunks(&mut fast, &mut slow, 1_000_000, "debounce");
    assert!(fast.peek(0x0110) > 20);
    let (_, hits, skipped) = fast.fast_forward_stats();
    assert!(skipped > 10_000, "skipped {skipped}");
    // The loop reads neither N nor V (only BNE), so a count runs past $7A
    // and $80, where `cmpb #250` changes N and V, in one skip: about two
    // per count with the slices' cuts (about four if each half were a
    // skip of its own).
    let rounds = u64::from(fast.peek(0x0110));
    assert!(hits * 2 < rounds * 5, "{hits} skips for {rounds} counts");
}

/// A counted loop met again in the state it was skipped from before runs
/// its two iterations without recording and reuses that skip's plan; the
/// machines stay equal to the one without fast-forward at every stop.
#[test]
fn a_counted_loop_met_again_reuses_its_plan() {
    let code = DEBOUNCE;
    let (mut fast, mut slow) = pair(&code);
    chunks(&mut fast, &mut slow, 1_000_000, "debounce, plans reused");
    assert!(
        fast.counted_plans_reused() > 10,
        "{} plans reused",
        fast.counted_plans_reused()
    );
    // A copy shares what its original learned and runs the same.
    let (mut copy, mut slow_copy) = (fast.clone(), slow.clone());
    let before = copy.counted_plans_reused();
    chunks(&mut copy, &mut slow_copy, 200_000, "debounce, a copy");
    assert!(copy.counted_plans_reused() > before);
}

/// A plan is reused only where every byte the iterations read is as it was:
/// the same loop, entered with the same registers every time, counting up
/// to a limit in RAM that the outer loop changes between passes (four
/// values, one of them 0, so that some passes wrap), gives the machine the
/// slow path gives at every stop.
#[test]
fn a_plan_is_not_reused_when_a_byte_it_read_differs() {
    let mut code = vec![
        0x8E, 0x01, 0xFF, // C000: lds #$01FF
        0x7F, 0x01, 0x00, // C003: clr $0100 (the counter)
        0xF6, 0x01, 0x11, // C006: ldab $0111
        0xC4, 0x03, //       andb #3
        0xCE, 0xC0, 0x30, //       ldx #$C030
        0x3A, //             abx
        0xA6, 0x00, //       ldaa 0,x
        0xB7, 0x01, 0x01, //       staa $0101 (the limit: table[$0111 & 3])
        0x4F, 0x5F, //       clra / clrb
        0xCE, 0x00, 0x00, //       ldx #0 (the same registers at the head)
        0xB6, 0x01, 0x00, // C019: ldaa $0100
        0x8B, 0x01, //       adda #1
        0xB7, 0x01, 0x00, //       staa $0100
        0xB1, 0x01, 0x01, //       cmpa $0101
        0x26, 0xF3, //       bne C019
        0x7C, 0x01, 0x11, //       inc $0111
        0x20, 0xD8, //       bra C003
        0x01, 0x01, 0x01, 0x01, 0x01, // (never run)
    ];
    assert_eq!(code.len(), 0x30, "the table's place");
    code.extend([40, 90, 40, 0]);
    let (mut fast, mut slow) = pair(&code);
    chunks(&mut fast, &mut slow, 3_000_000, "limits in RAM");
    assert!(fast.peek(0x0111) > 8, "passes: {}", fast.peek(0x0111));
    assert!(fast.counted_plans_reused() > 0, "some plans reused");
}
