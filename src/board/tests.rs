//! The board's own tests of its internals (the behaviour programs see is
//! tested under `tests/`).

use super::watch_bits::WatchBits;
use super::*;

/// SPI bytes back to back while the timer toggles OC2 and the A/D
/// scans: the board that services the SPI alone when only it is due
/// (`service_due`) equals, cycle by cycle, one that runs the full
/// service at every due event.
#[test]
fn the_spi_alone_is_serviced_as_the_full_service_would() {
    let mut a = Board::new();
    a.write(0x39, 0x80); // OPTION.ADPU
    a.write(0x30, 0x20); // ADCTL: SCAN of AN0
    a.write(0x16, 0x00); // TOC1 = $0080, TOC2 = $0133 (OC2 toggles PA6)
    a.write(0x17, 0x80);
    a.write(0x18, 0x01);
    a.write(0x19, 0x33);
    a.write(0x20, 0x40); // TCTL1: OC2 toggles
    a.write(0x28, spi::spcr::SPE | spi::spcr::MSTR); // E/2
    a.write(0x2A, 0x55);
    let mut b = a.clone();
    let mut next = 0u8;
    for _ in 0..40_000 {
        a.tick(1);
        b.now += 1;
        if b.now >= b.next_event {
            b.service();
        }
        for board in [&mut a, &mut b] {
            if board.peek(0x29) & 0x80 != 0 {
                board.read(0x29);
                board.read(0x2A);
                board.write(0x2A, next);
            }
        }
        next = next.wrapping_add(1);
        assert!(a == b, "the boards differ at cycle {}", a.now());
    }
    let t = a.spi_traffic();
    assert!(t.other.iter().sum::<u64>() + t.lcd > 1000, "{t:?}");
}

/// The PIO's data ports answer at $8000-$8002 unless the internal RAM
/// or the register block is moved over them (INIT), which win.
#[test]
fn the_internal_ram_and_the_registers_hide_the_pio() {
    let mut b = Board::new();
    b.write(0x8002, 0x3C);
    assert_eq!(b.read(0x8002), 0x3C, "port C's latch");
    // INIT $80: the internal RAM at $8000-$80FF.
    let mut ram = b.clone();
    ram.write(ports::addr::INIT, 0x80);
    ram.write(0x8002, 0xA5);
    assert_eq!(ram.read(0x8002), 0xA5);
    assert_eq!(ram.pio.port(2), 0x3C, "the store went to the RAM");
    // INIT $08: the registers at $8000-$803F ($8002 is PIOC).
    let mut regs = b.clone();
    regs.write(ports::addr::INIT, 0x08);
    regs.write(0x8002, 0x40);
    assert_eq!(regs.pio.port(2), 0x3C, "the store went to PIOC");
    assert_eq!(regs.read(0x8002), regs.ports.peek(ports::addr::PIOC, 0));
}

/// `block_is_ram` answers true only for blocks whose every byte is RAM
/// (the watch's quick test), and for most of a board's RAM: on the
/// trainer11 (PIO at $8000, RAM to $7FFF), with the registers and the
/// internal RAM moved by INIT, and on the EVB (EEPROM, RAM at $C000).
#[test]
fn block_is_ram_only_where_every_byte_is_ram() {
    use config::{BoardConfig, BoardSetup};
    let mut boards = vec![
        Board::new(),
        Board::with_setup(&BoardSetup::new(BoardConfig::evb())),
    ];
    for init in [0x80, 0x08, 0x71] {
        let mut b = Board::new();
        b.write(ports::addr::INIT, init);
        boards.push(b);
    }
    for b in &boards {
        let mut whole = 0;
        for block in 0..1024usize {
            let all = (0..64).all(|i| b.is_ram(((block << 6) | i) as u16));
            assert!(
                !b.block_is_ram(block) || all,
                "block ${:04X} is not all RAM",
                block << 6
            );
            whole += usize::from(b.block_is_ram(block));
        }
        assert!(whole >= 120, "{whole} blocks");
    }
}

/// `Bus::fetch`, which takes an instruction in one load where it can,
/// gives the bytes the fetch through `Bus::read` gives, at every
/// address: with the registers moved by INIT, across page ends before
/// the PIO, the register block and $FFFF, and with watched blocks.
#[test]
fn fetch_gives_the_bytes_a_byte_by_byte_fetch_reads() {
    use crate::cpu::decode::Instruction;
    let mut b = Board::new();
    let mut seed = 0x9E37_79B9u32;
    let mut bytes = vec![0u8; 0x10000];
    for v in bytes.iter_mut() {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        *v = seed as u8;
    }
    b.load(0x0040, &bytes[0x0040..0x8000]).expect("RAM");
    b.load(0xC000, &bytes[0xC000..]).expect("ROM");
    for init in [0x00, 0x01, 0x7B] {
        let mut board = b.clone();
        board.write(ports::addr::INIT, init);
        for watched in [false, true] {
            if watched {
                let mut bits = WatchBits::new();
                bits.add(0x7F00, true, true);
                board.set_watch(Some(&bits));
            }
            for pc in 0..=0xFFFFu16 {
                let len = match Instruction::decode(pc, |a| board.peek(a)) {
                    Ok(i) => i.len(),
                    Err(e) => u16::from(e.len),
                };
                let keep = !0u64 << (64 - 8 * u32::from(len.min(8)));
                let one = board.clone().fetch(pc) & keep;
                let by_byte = crate::cpu::core::fetch_code(&mut board.clone(), pc) & keep;
                assert_eq!(one, by_byte, "INIT ${init:02X}, watch {watched}: ${pc:04X}");
            }
        }
    }
}

/// SPIF with SPIE set raises the SPI's interrupt, and reading SPSR then
/// SPDR takes it away again (the IRQ is brought up to date after the
/// SPDR read); with SPIE clear SPIF raises none.
#[test]
fn the_spi_interrupt_follows_spif_only_with_spie() {
    for spie in [true, false] {
        let mut b = Board::new();
        let enable = if spie { spi::spcr::SPIE } else { 0 };
        b.write(0x28, spi::spcr::SPE | spi::spcr::MSTR | enable); // E/2
        b.write(0x2A, 0x55);
        assert_eq!(b.irq_vector(), None, "a transfer under way");
        for _ in 0..64 {
            b.tick(1);
        }
        assert!(b.peek(0x29) & 0x80 != 0, "SPIF is set");
        let raised = spie.then_some(0xFFD8);
        assert_eq!(b.irq_vector(), raised, "SPIE {spie}: after the byte");
        b.read(0x29);
        assert_eq!(b.irq_vector(), raised, "SPIE {spie}: SPSR read");
        b.read(0x2A);
        assert_eq!(b.irq_vector(), None, "SPIE {spie}: SPDR read clears SPIF");
        b.write(0x2A, 0xAA);
        assert_eq!(b.irq_vector(), None, "SPIE {spie}: the next byte");
    }
}

/// The debugger sets the watch before every run and takes it away
/// after; a set that is the same as the last reuses its blocks, a
/// different one takes its own: each run logs exactly its own bytes.
#[test]
fn a_watch_set_again_or_changed_logs_its_own_bytes() {
    let bits = |addrs: &[u16]| {
        let mut b = WatchBits::new();
        for &a in addrs {
            b.add(a, true, false);
        }
        b
    };
    let mut board = Board::new();
    for (writes, store, logged) in [
        (bits(&[0x0100]), 0x0100, true),
        (bits(&[0x0100]), 0x0100, true),
        (bits(&[0x2000]), 0x0100, false),
        (bits(&[0x2000]), 0x2000, true),
        (bits(&[0x0100, 0x2000]), 0x0100, true),
        (bits(&[]), 0x2000, false),
    ] {
        board.set_watch(Some(&writes));
        board.write(store, 0x5A);
        assert_eq!(
            board.watched_accesses().len(),
            usize::from(logged),
            "store to ${store:04X}"
        );
        board.set_watch(None);
        assert!(board.watched_accesses().is_empty());
    }
}

/// `is_device` answers as a search of `device_ranges` does, wherever
/// INIT puts the registers (the default board with its PIO at $8000,
/// and the EVB without one).
#[test]
fn is_device_follows_the_device_ranges() {
    let evb = crate::board::config::BoardSetup::new(crate::board::config::BoardConfig::evb());
    for (name, board) in [
        ("trainer11", Board::new()),
        ("evb", Board::with_setup(&evb)),
    ] {
        for init in [None, Some(0x08), Some(0x0F), Some(0x81)] {
            let mut b = board.clone();
            if let Some(v) = init {
                b.write(b.register_base() + ports::addr::INIT, v);
                assert_eq!(b.register_base(), u16::from(v & 0x0F) << 12, "{name}");
            }
            let ranges = b.device_ranges();
            for a in 0..=0xFFFFu16 {
                let want = ranges.iter().any(|&(s, e)| (s..=e).contains(&a));
                assert_eq!(b.is_device(a), want, "{name} INIT {init:?} ${a:04X}");
            }
        }
    }
}

#[test]
fn starting_a_conversion_is_not_activity() {
    let mut b = Board::new();
    b.tick(100);
    let before = b.last_activity();
    b.write(0x30, 0x20); // ADCTL: start SCAN conversions of AN0
    assert_eq!(b.last_activity(), before);
    b.write(0x39, 0x80); // OPTION.ADPU: a control register changed
    assert!(b.last_activity() > before);
}

#[test]
fn memory_map_ram_rom_unmapped() {
    let mut b = Board::new();
    b.write(0x0040, 0x12);
    b.write(0x7FFF, 0x34);
    assert_eq!(b.read(0x0040), 0x12);
    assert_eq!(b.read(0x7FFF), 0x34);
    assert_eq!(b.read(0x9000), 0xFF);
    assert_eq!(b.peek(0xBFFF), 0xFF);
    b.write(0x9000, 1);
    assert!(matches!(
        b.take_fault(),
        Some(BusFault::UnmappedWrite { addr: 0x9000, .. })
    ));
    assert!(b.take_fault().is_none());
}

#[test]
fn rom_write_is_a_fault_and_not_stored() {
    let mut b = Board::new();
    b.load(0xC000, &[0xAA]).unwrap();
    b.write(0xC000, 0x55);
    assert_eq!(b.read(0xC000), 0xAA);
    assert_eq!(
        b.take_fault(),
        Some(BusFault::RomWrite {
            addr: 0xC000,
            value: 0x55,
            cycle: 0
        })
    );
    assert_eq!(b.fault_count(), 1);
}

#[test]
fn load_refuses_registers_and_pio() {
    let mut b = Board::new();
    assert_eq!(b.load(0x0030, &[1]), Err(0x0030));
    assert_eq!(b.load(0x7FFF, &[1, 2]), Err(0x8000));
    assert_eq!(b.load(0xFFFF, &[1, 2]), Err(0x10000));
    assert!(b.load(0xFFFE, &[1, 2]).is_ok());
}

#[test]
fn keys_read_on_pio_b_active_low() {
    let mut b = Board::new();
    assert_eq!(b.read(0x8001), 0xFF);
    b.set_key(0, true);
    b.set_key(4, true);
    assert_eq!(b.read(0x8001), 0b1110_1110);
    b.set_key(0, false);
    assert_eq!(b.read(0x8001), 0b1110_1111);
}

/// The firmware's LCDSend path: select the LCD on PIO_C, A0 on PORTD
/// bit 5, SPDR write, poll SPSR, read SPDR.
#[test]
fn spi_byte_reaches_lcd_as_command_or_data() {
    let mut b = Board::new();
    b.write(0x08, 0x03); // PORTD
    b.write(0x09, 0x3A); // DDRD
    b.write(0x28, 0x52); // SPCR: SPE, MSTR, E/16
    let pc = b.read(0x8002) & 0x3F;
    b.write(0x8002, pc); // select the LCD
    b.write(0x2A, 0xAF); // display on, A0 = 0: command
    let mut polls = 0;
    while b.read(0x29) & 0x80 == 0 {
        b.tick(6);
        polls += 1;
        assert!(polls < 100);
    }
    assert!(b.now() >= 128);
    let _ = b.read(0x2A);
    assert_eq!(b.read(0x29) & 0x80, 0, "SPIF cleared by SPSR, SPDR");
    assert!(b.lcd().display_on());
    // Data byte at page 0, column 0.
    b.write(0x08, 0x23);
    b.write(0x2A, 0x81);
    b.tick(200);
    assert_eq!(b.lcd().ram(0, 0), 0x81);
    assert_eq!(b.spi_traffic().lcd, 2);
}

#[test]
fn deselected_lcd_gets_nothing() {
    let mut b = Board::new();
    b.write(0x09, 0x3A);
    b.write(0x08, 0x20);
    b.write(0x28, 0x52);
    b.write(0x8002, 0xC0);
    b.write(0x2A, 0x55);
    b.tick(200);
    assert_eq!(b.lcd().ram(0, 0), 0);
    assert_eq!(b.spi_traffic().other, [0, 0, 1]);
}

#[test]
fn porta_bit6_low_is_backlight() {
    let mut b = Board::new();
    b.write(0x00, 0x40);
    assert!(!b.lcd().backlight());
    b.write(0x00, 0x00);
    assert!(b.lcd().backlight());
}

#[test]
fn serial_output_reaches_log() {
    let mut b = Board::new();
    // putChar: brclr SCSR,#$80,* then staa SCDR.
    assert_ne!(b.read(0x2E) & 0x80, 0);
    b.write(0x2F, b'H');
    assert_ne!(b.read(0x2E) & 0x80, 0, "TDR moved to the shifter at once");
    b.write(0x2F, b'i');
    assert_eq!(b.read(0x2E) & 0x80, 0, "second byte waits in TDR");
    b.tick(2 * 2080);
    assert_eq!(b.serial_text(), "Hi");
}

#[test]
fn activity_is_output_or_a_visible_change() {
    let mut b = Board::new();
    b.tick(100);
    b.write(0x00, 0x00); // PORTA unchanged
    b.write(0x3A, 0x55); // COPRST
    b.write(0x25, 0x40); // TFLG2
    b.write(0x8002, 0x00); // PIO_C unchanged
    assert_eq!(b.last_activity(), 0);
    b.write(0x8002, 0xC0);
    assert_eq!(b.last_activity(), 100);
    b.tick(100);
    b.write(0x00, 0x40);
    assert_eq!(b.last_activity(), 200);
    b.tick(100);
    b.read(0x2E); // SCSR with TDRE set, then SCDR: a frame goes out
    b.write(0x2F, b'x'); // and keeps the board active to its end
    assert_eq!(b.last_activity(), 300 + 2080);
}

#[test]
fn registers_are_listed_in_address_order() {
    let b = Board::new();
    let regs = b.registers();
    let names: Vec<_> = regs.iter().map(|r| r.name).collect();
    for n in ["PORTA", "DDRD", "TCNT", "SPCR", "SCSR", "PIO_B", "page"] {
        assert!(names.contains(&n), "{n} missing");
    }
    let addrs: Vec<_> = regs.iter().filter_map(|r| r.address).collect();
    assert!(addrs.first() == Some(&0));
}
