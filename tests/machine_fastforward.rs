//! The fast-forward over polling loops in `Machine::run_until` changes
//! nothing but speed: the same runs with it on and off must give equal
//! machines (cycles, instructions, registers, memory, devices, LCD, serial)
//! at every stop, with breakpoints, interrupts, TCNT reads and the bundled
//! Viergewinnt firmware driven by key scripts.

#[path = "support/lcg.rs"]
mod lcg;
#[path = "machine_support/poll_loops.rs"]
mod poll_loops;
#[path = "machine_support/viergewinnt.rs"]
mod viergewinnt;

use lcg::Lcg;

use hc11lab::board::Board;
use hc11lab::cpu::Bus;
use hc11lab::image::{Program, Segment};
use hc11lab::machine::{Machine, StopConditions, StopReason};
use hc11lab::script::Script;

/// A program with `code` at $C000, the reset vector to $C000 and the RTI
/// vector ($FFF0) to `rti_isr`.
fn program(code: &[u8], data: &[(u16, &[u8])], rti_isr: u16) -> Program {
    let mut vectors = vec![0u8; 16];
    vectors[0..2].copy_from_slice(&rti_isr.to_be_bytes());
    vectors[14..16].copy_from_slice(&[0xC0, 0x00]);
    let mut segments = vec![Segment {
        start: 0xC000,
        bytes: code.to_vec(),
        name: None,
    }];
    for (start, bytes) in data {
        segments.push(Segment {
            start: *start,
            bytes: bytes.to_vec(),
            name: None,
        });
    }
    segments.push(Segment {
        start: 0xFFF0,
        bytes: vectors,
        name: None,
    });
    Program {
        segments,
        ..Program::default()
    }
}

/// [`program`] for a [`poll_loops::Image`] (no RTI handler).
fn image((code, data): poll_loops::Image) -> Program {
    let data: Vec<(u16, &[u8])> = data.iter().map(|(a, b)| (*a, &b[..])).collect();
    program(&code, &data, 0xC000)
}

/// Two machines on `p`, fast-forward on and off.
fn pair(p: Program) -> (Machine, Machine) {
    let fast = Machine::new(p).expect("loads");
    let mut slow = fast.clone();
    slow.set_fast_forward(false);
    assert!(fast.fast_forward() && !slow.fast_forward());
    (fast, slow)
}

/// Runs both with the same stop conditions and requires equal results.
fn run_both(fast: &mut Machine, slow: &mut Machine, stop: &StopConditions) -> StopReason {
    let a = fast.run_until(stop);
    let b = slow.run_until(stop);
    assert_eq!(a, b, "stop reasons differ");
    assert_eq!(fast.cycles(), slow.cycles(), "cycles differ ({a})");
    assert_eq!(
        fast.instructions(),
        slow.instructions(),
        "instructions differ"
    );
    assert_eq!(fast.registers(), slow.registers(), "registers differ");
    assert_eq!(fast.cpu(), slow.cpu(), "CPU differs");
    assert!(fast == slow, "machines differ after {a}");
    a
}

/// Runs both in uneven budget chunks up to `total` cycles.
fn chunks(fast: &mut Machine, slow: &mut Machine, total: u64) {
    let mut n = 0u64;
    let mut size = 97;
    while n < total {
        let r = run_both(fast, slow, &StopConditions::budget(size));
        if matches!(r, StopReason::Halted(_)) {
            // The program ended (a branch to itself): both alike, done.
            return;
        }
        assert_eq!(r, StopReason::CycleBudget);
        n += size;
        size = (size * 7 + 13) % 20_011 + 1;
    }
}

/// LDAA #$52 / STAA SPCR, then forever: send $AA, wait for SPIF with
/// `wait` (at $C008), read SPDR, INC $0100.
fn spi_program(tst_loop: bool) -> Program {
    let mut code = vec![0x86, 0x52, 0x97, 0x28, 0x86, 0xAA, 0x97, 0x2A];
    if tst_loop {
        // C008: TST $0029 ; C00B: BPL C008 ; C00D: LDAA SPDR ; INC $0100 ; BRA C004
        code.extend([0x7D, 0x00, 0x29, 0x2A, 0xFB, 0x96, 0x2A]);
        code.extend([0x7C, 0x01, 0x00, 0x20, 0xF0]);
    } else {
        // C008: BRCLR SPSR,#$80,* ; C00C: LDAA SPDR ; INC $0100 ; BRA C004
        code.extend([0x13, 0x29, 0x80, 0xFC, 0x96, 0x2A]);
        code.extend([0x7C, 0x01, 0x00, 0x20, 0xF1]);
    }
    program(&code, &[], 0xC000)
}

#[test]
fn spi_polling_loops_skip_and_match() {
    for tst_loop in [false, true] {
        let (mut fast, mut slow) = pair(spi_program(tst_loop));
        chunks(&mut fast, &mut slow, 300_000);
        assert!(fast.peek(0x0100) > 0, "bytes were sent");
        assert!(
            fast.fast_forward_skipped() > 0,
            "the SPIF loop was never skipped"
        );
        assert_eq!(slow.fast_forward_skipped(), 0);
    }
}

/// Sends bytes forever, waiting for each with the poll loop `wait` (the
/// branch's displacement, its last byte, is filled in): C000: LDAA #$52 ;
/// STAA SPCR ; LDX #0 ; LDY #0 ; C00B: LDAA #$AA ; STAA SPDR ; (STAA SPDR
/// again if `collide`: WCOL) ; LDAA #$80 ; LDAB #$80 ; (CLRB ; SEC ; BRA
/// to the branch, if `enter_at_branch`: C set, which the read then clears)
/// ; wait ; LDAA SPDR ; INC $0100 ; BRA C00B.
fn spi_wait_program(wait: &[u8], collide: bool, enter_at_branch: bool) -> Program {
    let mut code = vec![
        0x86, 0x52, 0x97, 0x28, 0xCE, 0x00, 0x00, 0x18, 0xCE, 0x00, 0x00,
    ];
    let send = 0xC000 + code.len() as u16;
    code.extend([0x86, 0xAA, 0x97, 0x2A]);
    if collide {
        code.extend([0x97, 0x2A]);
    }
    code.extend([0x86, 0x80, 0xC6, 0x80]);
    if enter_at_branch {
        code.extend([0x5F, 0x0D, 0x20, wait.len() as u8 - 2]);
    }
    let head = code.len();
    code.extend(wait);
    let end = code.len();
    code[end - 1] = (head as i32 - end as i32) as i8 as u8;
    code.extend([0x96, 0x2A, 0x7C, 0x01, 0x00, 0x20]);
    let next = 0xC000 + code.len() as i32 + 1;
    code.push((i32::from(send) - next) as i8 as u8);
    program(&code, &[], 0xC000)
}

/// Every form of a one-read poll loop (`tst`, `ldaa`/`ldab`, `bita`/`bitb`
/// in each addressing mode and a conditional branch, `brclr` in each) is
/// skipped from its code, and the machine is the same at every stop as
/// without the fast-forward, also where the loop is entered at its branch
/// with a flag its read changes. With WCOL set the read of SPSR arms a
/// flag clear, so that loop is left to the probe, as exactly.
#[test]
fn every_poll_loop_form_is_skipped_from_its_code_and_matches() {
    let forms: [(&str, &[u8]); 13] = [
        ("tst ext / bpl", &[0x7D, 0x00, 0x29, 0x2A, 0]),
        ("tst 0,x / bpl", &[0x6D, 0x29, 0x2A, 0]),
        ("tst 0,y / bpl", &[0x18, 0x6D, 0x29, 0x2A, 0]),
        ("ldaa ext / bpl", &[0xB6, 0x00, 0x29, 0x2A, 0]),
        ("ldaa dir / bpl", &[0x96, 0x29, 0x2A, 0]),
        ("ldab 0,x / bpl", &[0xE6, 0x29, 0x2A, 0]),
        ("ldaa 0,y / bpl", &[0x18, 0xA6, 0x29, 0x2A, 0]),
        ("bita dir / beq", &[0x95, 0x29, 0x27, 0]),
        ("bitb ext / beq", &[0xF5, 0x00, 0x29, 0x27, 0]),
        ("bita 0,y / beq", &[0x18, 0xA5, 0x29, 0x27, 0]),
        ("brclr dir", &[0x13, 0x29, 0x80, 0]),
        ("brclr 0,x", &[0x1F, 0x29, 0x80, 0]),
        ("brclr 0,y", &[0x18, 0x1F, 0x29, 0x80, 0]),
    ];
    for (name, wait) in forms {
        let (mut fast, mut slow) = pair(spi_wait_program(wait, false, false));
        chunks(&mut fast, &mut slow, 60_000);
        assert!(fast.peek(0x0100) > 50, "{name}: bytes were sent");
        assert!(
            fast.poll_loops_skipped() > 50,
            "{name}: {} skips from the code",
            fast.poll_loops_skipped()
        );
        if name.starts_with("tst") {
            let (mut fast, mut slow) = pair(spi_wait_program(wait, false, true));
            chunks(&mut fast, &mut slow, 60_000);
            assert!(
                fast.poll_loops_skipped() > 50,
                "{name} entered at its branch"
            );
        }
    }
    let (mut fast, mut slow) = pair(spi_wait_program(&[0x13, 0x29, 0x80, 0], true, false));
    chunks(&mut fast, &mut slow, 60_000);
    assert!(fast.peek(0x0100) > 50, "WCOL: bytes were sent");
}

/// A main loop that waits with `brset` on a RAM flag an SPI interrupt
/// handler clears: plain memory is read, an interrupt is possible, so the
/// skip stops at every event (and the one in which SPIF rises is run).
/// C000: LDS #$3FFF ; LDAA #$D2 ; STAA SPCR (SPIE) ; CLI ;
/// C008: LDAA #1 ; STAA $50 ; LDAA #$AA ; STAA SPDR ; C010: BRSET $50,#1,* ;
/// INC $0100 ; BRA C008 ; handler: LDAA SPSR ; LDAA SPDR ; CLR $50 ; RTI.
#[test]
fn a_poll_loop_on_a_flag_an_interrupt_clears_matches() {
    let mut code = vec![
        0x8E, 0x3F, 0xFF, 0x86, 0xD2, 0x97, 0x28, 0x0E, 0x86, 0x01, 0x97, 0x50, 0x86, 0xAA, 0x97,
        0x2A, 0x12, 0x50, 0x01, 0xFC, 0x7C, 0x01, 0x00, 0x20, 0xEF,
    ];
    let handler = 0xC000 + code.len() as u16;
    code.extend([0x96, 0x29, 0x96, 0x2A, 0x7F, 0x00, 0x50, 0x3B]);
    let image = (code, vec![(0xFFD8, handler.to_be_bytes().to_vec())]);
    let (mut fast, mut slow) = pair(self::image(image));
    chunks(&mut fast, &mut slow, 60_000);
    assert!(fast.peek(0x0100) > 50, "{} bytes", fast.peek(0x0100));
    assert!(fast.poll_loops_skipped() > 50);
}

/// Runs both under `script` in uneven budget slices until it settles,
/// comparing at every stop; returns the slices.
fn script_slices(fast: &mut Machine, slow: &mut Machine, script: &str) -> u32 {
    let script = Script::parse_keys(script).expect("keys");
    fast.start_script(&script);
    slow.start_script(&script);
    let mut size = 997;
    for n in 1..=2_000 {
        match run_both(fast, slow, &StopConditions::budget(size)) {
            StopReason::Settled => return n,
            StopReason::CycleBudget => size = (size * 7 + 13) % 30_011 + 1,
            other => panic!("stopped: {other}"),
        }
    }
    panic!("the script never settled");
}

/// Poll loops on input registers: a key wait (`brset 1,x,#1,*` on PIO_B,
/// then `brclr` for the release) under a key script, and an A/D
/// conversion wait (`brclr ADCTL,#$80,*`). Each read notes an input poll,
/// which the script runner settles on: the skip from the code notes the
/// last one, so the machines (the poll's cycle included) agree at every
/// stop.
#[test]
fn poll_loops_on_input_registers_match() {
    // C000: LDX #$8000 ; C003: BRSET 1,X,#$01,* ; INC $0100 ;
    // C00A: BRCLR 1,X,#$01,* ; BRA C003
    let keys = [
        0xCE, 0x80, 0x00, 0x1E, 0x01, 0x01, 0xFC, 0x7C, 0x01, 0x00, 0x1F, 0x01, 0x01, 0xFC, 0x20,
        0xF3,
    ];
    let (mut fast, mut slow) = pair(program(&keys, &[], 0xC000));
    script_slices(&mut fast, &mut slow, "drop,drop,wait:3ms,drop");
    assert_eq!(fast.peek(0x0100), 3, "three presses counted");
    assert!(fast.poll_loops_skipped() > 0, "the key wait was skipped");
    // C000: LDAA #$80 ; STAA OPTION (ADPU) ; C004: CLRA ; STAA ADCTL ;
    // C007: BRCLR ADCTL,#$80,* ; LDAA ADR1 ; STAA $0100 ; INC $0101 ; BRA C004
    let adc = [
        0x86, 0x80, 0x97, 0x39, 0x4F, 0x97, 0x30, 0x13, 0x30, 0x80, 0xFC, 0x96, 0x31, 0xB7, 0x01,
        0x00, 0x7C, 0x01, 0x01, 0x20, 0xEF,
    ];
    let (mut fast, mut slow) = pair(program(&adc, &[], 0xC000));
    chunks(&mut fast, &mut slow, 100_000);
    assert!(fast.peek(0x0101) > 50, "{} conversions", fast.peek(0x0101));
    assert!(fast.poll_loops_skipped() > 50);
}

#[test]
fn breakpoint_inside_polling_loop_still_hits() {
    for (tst_loop, bp) in [(false, 0xC008), (true, 0xC008), (true, 0xC00B)] {
        let (mut fast, mut slow) = pair(spi_program(tst_loop));
        let mut stop = StopConditions::budget(1_000_000);
        stop.breakpoints.insert(bp);
        for _ in 0..200 {
            assert_eq!(
                run_both(&mut fast, &mut slow, &stop),
                StopReason::Breakpoint(bp)
            );
        }
        // Every pass of the loop stopped: nothing may have been skipped.
        assert_eq!(fast.fast_forward_skipped(), 0);
    }
}

#[test]
fn loop_that_counts_in_memory_is_skipped_exactly_one_that_writes_a_port_is_not() {
    // LDAA #$52 / STAA SPCR / LDAA #$AA / STAA SPDR
    // C008: INC $0100 ; C00B: BRCLR SPSR,#$80,C008 ; C00F: LDAA SPDR ; BRA C004
    // A counted loop (module `counted`): skipped, with the count exact.
    let code = [
        0x86, 0x52, 0x97, 0x28, 0x86, 0xAA, 0x97, 0x2A, 0x7C, 0x01, 0x00, 0x13, 0x29, 0x80, 0xF9,
        0x96, 0x2A, 0x20, 0xEF,
    ];
    let (mut fast, mut slow) = pair(program(&code, &[], 0xC000));
    chunks(&mut fast, &mut slow, 100_000);
    assert!(fast.fast_forward_skipped() > 0);
    // A loop that stores a changing value to a register is not skipped:
    // C000: INCA ; STAA PORTB ($04) ; BRA C000
    let (mut fast, mut slow) = pair(program(&[0x4C, 0x97, 0x04, 0x20, 0xFB], &[], 0xC000));
    chunks(&mut fast, &mut slow, 50_000);
    assert_eq!(fast.fast_forward_skipped(), 0);
}

#[test]
fn idle_loop_with_rti_interrupts_matches() {
    // C000: LDS #$3FFF ; LDAA #$40 ; STAA TMSK2 (RTII) ; CLI ; C008: BRA *
    // C00A (RTI handler): INC $0100 ; LDAA #$40 ; STAA TFLG2 ; RTI
    let code = [
        0x8E, 0x3F, 0xFF, 0x86, 0x40, 0x97, 0x24, 0x0E, 0x20, 0xFE, 0x7C, 0x01, 0x00, 0x86, 0x40,
        0x97, 0x25, 0x3B,
    ];
    let (mut fast, mut slow) = pair(program(&code, &[], 0xC00A));
    chunks(&mut fast, &mut slow, 200_000);
    assert!(
        fast.peek(0x0100) >= 20,
        "RTI ran {} times",
        fast.peek(0x0100)
    );
    assert!(fast.fast_forward_skipped() > 1000);
}

#[test]
fn tcnt_polling_is_not_skipped() {
    // C000: LDD TCNT ; LDAB #0 ; CMPA #$50 ; BLO C000 ; INC $0100 ; BRA C000.
    // A holds the same TCNT high byte for 256 cycles and the 16-bit read
    // leaves the read buffer empty, so only the TCNT rule keeps this exact
    // ($5000 is no multiple of the RTI period, an event the skip stops at).
    let code = [
        0xDC, 0x0E, 0xC6, 0x00, 0x81, 0x50, 0x25, 0xF8, 0x7C, 0x01, 0x00, 0x20, 0xF3,
    ];
    let (mut fast, mut slow) = pair(program(&code, &[], 0xC000));
    chunks(&mut fast, &mut slow, 150_000);
    assert!(fast.peek(0x0100) > 0);
    assert_eq!(fast.fast_forward_skipped(), 0);
}

#[test]
fn sci_put_char_loop_matches() {
    // C000: LDX #$C020 ; C003: LDAA 0,X ; BEQ C010 ;
    // C007: BRCLR SCSR,#$80,* ; STAA SCDR ; INX ; BRA C003 ; C010: BRA *
    let code = [
        0xCE, 0xC0, 0x20, 0xA6, 0x00, 0x27, 0x09, 0x13, 0x2E, 0x80, 0xFC, 0x97, 0x2F, 0x08, 0x20,
        0xF3, 0x20, 0xFE,
    ];
    let text = b"Hello, fast world\0";
    let (mut fast, mut slow) = pair(program(&code, &[(0xC020, text)], 0xC000));
    chunks(&mut fast, &mut slow, 400_000);
    assert_eq!(fast.serial_text(), "Hello, fast world");
    assert!(fast.fast_forward_skipped() > 0);
    // The TDRE wait (`brclr SCSR,#$80,*`) is skipped from its code.
    assert!(fast.poll_loops_skipped() > 0);
}

/// The iteration that meets SPIF is skipped along with the others only if
/// every device read in it comes before SPIF rises: here the second read
/// of SPSR falls after it in some iterations (which NOP count puts it
/// where varies), and such an iteration must run (it leaves the loop).
#[test]
fn spi_wait_with_a_late_second_read_matches() {
    let mut skipped = 0;
    for nops in 0..=12 {
        let (mut fast, mut slow) = pair(image(poll_loops::spi_two_reads(nops)));
        chunks(&mut fast, &mut slow, 60_000);
        assert!(fast.peek(0x0100) > 50, "bytes were sent ({nops} NOPs)");
        skipped += fast.fast_forward_skipped();
    }
    assert!(skipped > 0, "the SPIF loops were never skipped");
}

/// An SPI interrupt at the end of each byte: the main loop waits on a RAM
/// flag the handler sets, so its iterations read no device; the iteration
/// in which SPIF rises may not be skipped (the CPU takes the interrupt
/// right after the instruction the transfer ends in, which NOPs before the
/// loop move around in it).
#[test]
fn spi_interrupt_inside_a_skipped_loop_matches() {
    for nops in 0..=8 {
        let (mut fast, mut slow) = pair(image(poll_loops::spi_interrupt(nops)));
        chunks(&mut fast, &mut slow, 40_000);
        assert!(fast.peek(0x0101) > 50, "{} bytes", fast.peek(0x0101));
        assert!(fast.fast_forward_skipped() > 0);
        // The wait on the RAM flag (`tst $0100 / beq`) from its code.
        assert!(fast.poll_loops_skipped() > 0);
    }
}

/// Loops that read the timer see its events, so a skip stops at them: one
/// waits for RTIF in TFLG2 (plainly and counting), one for output compare
/// 2 toggling PA6 (no interrupt enabled in any, where the timer's events
/// are otherwise skipped over as time passing).
#[test]
fn loops_polling_the_timer_stop_at_its_events() {
    for (code, total, counter, at_least) in [
        (poll_loops::rtif_wait(), 120_000, 0x0100, 10),
        (poll_loops::rtif_wait_counting(), 120_000, 0x0101, 10),
        (poll_loops::oc2_pin_wait(), 400_000, 0x0101, 2),
    ] {
        let (mut fast, mut slow) = pair(image(code));
        chunks(&mut fast, &mut slow, total);
        // And in even slices, whose ends fall elsewhere in the RTI period.
        for _ in 0..total / 1_200 {
            run_both(&mut fast, &mut slow, &StopConditions::budget(1_200));
        }
        assert!(
            fast.peek(counter) >= at_least,
            "{} passes",
            fast.peek(counter)
        );
        assert!(fast.fast_forward_skipped() > 0, "the wait was skipped");
    }
}

#[test]
fn one_big_skip_equals_many_small_ticks() {
    let mut a = Board::new();
    a.write(0x24, 0x02); // TMSK2: prescaler 8 (inside the protected window)
    a.write(0x28, 0x53); // SPCR: SPE, MSTR, E/32
    a.write(0x2A, 0x55); // a byte on the SPI
    a.read(0x2E); // SCSR with TDRE set, then SCDR: a frame goes out
    a.write(0x2F, b'x');
    a.tick(3);
    let mut b = a.clone();
    let n = a.next_event() - a.now() - 1;
    assert!(n > 100, "an event is pending ({n})");
    for _ in 0..n {
        a.tick(1);
    }
    assert!(b.skip_idle(n));
    assert!(a == b, "one skip of {n} differs from {n} ticks");
    assert_eq!((a.peek(0x0E), a.peek(0x0F)), (b.peek(0x0E), b.peek(0x0F)));
    // A skip may not reach the event.
    assert!(!b.skip_idle(1));
    a.tick(1);
    assert!(a != b);
}

#[test]
fn viergewinnt_games_match_at_every_stop() {
    let (mut fast, mut slow) = pair((*viergewinnt::program()).clone());
    let stop = StopConditions::budget(50_000_000);
    // Boot to the start screen.
    fast.start_script(&Script::empty());
    slow.start_script(&Script::empty());
    assert_eq!(run_both(&mut fast, &mut slow, &stop), StopReason::Settled);
    let mut rng = Lcg(0x4711);
    for round in 0..6 {
        let keys: Vec<&str> = (0..8)
            .map(|_| match rng.next(10) {
                0..=3 => "drop",
                4..=5 => "left",
                6..=7 => "right",
                8 => "wait:3000",
                _ => {
                    if round % 2 == 0 {
                        "reset"
                    } else {
                        "drop"
                    }
                }
            })
            .collect();
        let script = Script::parse_keys(&keys.join(",")).expect("keys");
        fast.start_script(&script);
        slow.start_script(&script);
        // Stop in the middle of drawing too: uneven budgets first.
        for budget in [12_345, 77_777, 150_001] {
            assert_eq!(
                run_both(&mut fast, &mut slow, &StopConditions::budget(budget)),
                StopReason::CycleBudget
            );
        }
        assert_eq!(run_both(&mut fast, &mut slow, &stop), StopReason::Settled);
        assert_eq!(fast.lcd_text(), slow.lcd_text());
    }
    // The reset button and a breakpoint in SPItransfer's wait loop.
    fast.reset_button();
    slow.reset_button();
    let p = viergewinnt::program();
    let wait = p.symbol("SPIwait2").expect("SPIwait2").value;
    let mut bp = StopConditions::budget(10_000_000);
    bp.breakpoints.insert(wait);
    for _ in 0..50 {
        assert_eq!(
            run_both(&mut fast, &mut slow, &bp),
            StopReason::Breakpoint(wait)
        );
    }
    assert!(
        fast.fast_forward_skipped() > 10_000,
        "skipped only {}",
        fast.fast_forward_skipped()
    );
}

/// Runs `m` in slices of `slice` E-cycles with `stop` until the key script
/// settles; returns the number of slices.
fn slices_until_settled(m: &mut Machine, stop: &mut StopConditions, slice: u64) -> u32 {
    stop.max_cycles = slice;
    for n in 1..=1_000_000 {
        match m.run_until(stop) {
            StopReason::Settled => return n,
            StopReason::CycleBudget => {}
            r => panic!("unexpected stop {r}"),
        }
    }
    panic!("never settled");
}

#[test]
fn skip_past_the_budget_only_when_asked_and_sp_allows() {
    let p = (*viergewinnt::program()).clone();
    let script = Script::parse_keys("drop,wait:40ms,left,wait:25ms,right").expect("keys");
    let mut slow = Machine::new(p.clone()).expect("loads");
    slow.set_fast_forward(false);
    slow.start_script(&script);
    assert_eq!(
        slow.run_until(&StopConditions::budget(100_000_000)),
        StopReason::Settled
    );
    let run = |range: Option<(u16, u16)>| {
        let mut m = Machine::new(p.clone()).expect("loads");
        m.start_script(&script);
        let mut stop = StopConditions::budget(0);
        stop.skip_past_budget = range;
        let n = slices_until_settled(&mut m, &mut stop, 1024);
        (m, n)
    };
    let (hard, hard_slices) = run(None);
    let (soft, soft_slices) = run(Some((0, u16::MAX)));
    // The waits (key held, quiet windows, wait:) go by in one skip each;
    // drawing still takes its slices.
    assert!(
        soft_slices + 200 < hard_slices,
        "{soft_slices} slices with the skip past the budget, {hard_slices} without"
    );
    assert!(hard == slow, "sliced run differs from the plain one");
    assert!(soft == slow, "a skip past the budget changed the result");
    assert_eq!(soft.cycles(), slow.cycles());
    assert_eq!(soft.instructions(), slow.instructions());
    // The firmware's main loop calls readInput (SP dips below $3FFD): a
    // range that excludes that keeps every slice.
    let (kept, kept_slices) = run(Some((0x3FFD, u16::MAX)));
    assert_eq!(kept_slices, hard_slices);
    assert!(kept == slow);
}

/// Which back-jumps are measured only changes speed, but the rules are
/// the speed: the firmware's boot sends its start screen byte by byte
/// through `SPItransfer`, and each byte's SPIF wait (`tst SPSR / bpl`)
/// should be skipped straight from its code, with no measurement at all:
/// not one for the wait, not one for every call into the LCD routines
/// below the caller, not one for the iteration that meets the end of the
/// transfer.
#[test]
fn the_spi_wait_is_skipped_from_its_code_once_per_byte() {
    let (mut fast, mut slow) = pair((*viergewinnt::program()).clone());
    fast.start_script(&Script::empty());
    slow.start_script(&Script::empty());
    let stop = StopConditions::budget(50_000_000);
    assert_eq!(run_both(&mut fast, &mut slow, &stop), StopReason::Settled);
    let bytes = fast.board().spi_traffic().lcd;
    let (probes, hits, skipped) = fast.fast_forward_stats();
    let polls = fast.poll_loops_skipped();
    assert!(bytes > 1_000, "the boot sent {bytes} LCD bytes");
    // One skip per byte (a few waits end before a whole iteration fits).
    assert!(polls * 10 >= bytes * 9, "{polls} skips for {bytes} bytes");
    assert!(
        skipped > polls + hits,
        "{skipped} iterations skipped in {} skips",
        polls + hits
    );
    // Measurements (of the boot's other loops): a few, not one per byte.
    assert!(
        probes < bytes / 4,
        "{probes} measurements ({hits} repeating) for {bytes} bytes"
    );
}

/// An idle loop after output halts once the output is out (a byte still
/// shifting out is the program's output, so the run goes on until it is
/// done). The iteration in which it goes out must not be skipped along
/// with the ones before it: that put the halt one iteration late with the
/// fast-forward on (3 cycles for `bra *`, `evb ram.asm` of a user). The
/// NOPs move where the output ends within the loop's iteration.
#[test]
fn idle_loops_after_output_halt_at_the_same_instruction() {
    for nops in 0..6usize {
        let (sci, _) = poll_loops::sci_then_idle(nops);
        #[rustfmt::skip]
        let spi: Vec<u8> = [
            &[0x86, 0x38, 0x97, 0x09,   // ldaa #$38 / staa DDRD
              0x86, 0x53, 0x97, 0x28,   // ldaa #$53 / staa SPCR (SPE, MSTR, slowest rate)
              0x86, 0x5A, 0x97, 0x2A][..], // ldaa #$5A / staa SPDR
            &vec![0x01; nops],
            &[0x01, 0x08, 0x20, 0xFC],  // nop / inx / bra back to the nop
        ]
        .concat();
        for (what, code) in [("sci", sci), ("spi", spi)] {
            let (mut fast, mut slow) = pair(program(&code, &[], 0xC000));
            let stop = run_both(&mut fast, &mut slow, &StopConditions::budget(2_000_000));
            assert!(
                matches!(stop, StopReason::Halted(_)),
                "{what} with {nops} NOPs: {stop}"
            );
            assert!(fast.cycles() > 100, "{what}: the output took its time");
            if what == "sci" {
                assert_eq!(fast.serial_text(), "A");
            }
        }
    }
}
