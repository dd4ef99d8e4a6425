//! Small programs with polling loops whose fast-forward has a rule of its
//! own (the iteration that meets the event, timer events a loop cannot
//! see): each is machine code for $C000 on and the vectors it needs
//! besides reset (which the tests point at $C000).

/// Code for $C000 and other segments (start, bytes).
pub type Image = (Vec<u8>, Vec<(u16, Vec<u8>)>);

/// A relative branch offset from the end of a 2-byte branch ending the
/// code so far (`len` bytes from $C000) back to `target`.
fn back(len: usize, target: u16) -> u8 {
    (i32::from(target) - (0xC000 + len as i32 + 2)) as i8 as u8
}

/// Sets the SCI up (9600 baud, TE), waits for TDRE (after the idle
/// preamble TE queues), sends 'A', then `nops` NOPs and BRA *: an idle loop
/// that halts once the byte is out.
pub fn sci_then_idle(nops: usize) -> Image {
    #[rustfmt::skip]
    let mut code = vec![
        0x86, 0x30, 0x97, 0x2B,   // ldaa #$30 / staa BAUD
        0x86, 0x08, 0x97, 0x2D,   // ldaa #$08 / staa SCCR2 (TE)
        0x86, 0x41,               // ldaa #'A'
        0x13, 0x2E, 0x80, 0xFC,   // brclr SCSR,#$80,* (TDRE after the preamble)
        0x97, 0x2F,               // staa SCDR
    ];
    code.extend(std::iter::repeat_n(0x01, nops));
    code.extend([0x20, 0xFE]); // bra *
    (code, Vec::new())
}

/// LDAA #$52 / STAA SPCR, then forever: send $AA and wait for SPIF in a
/// loop that reads SPSR twice, `nops` NOPs apart (C008: TST SPSR ; NOP... ;
/// LDAB SPSR ; BPL C008), then LDAA SPDR ; INC $0100 ; BRA C004.
pub fn spi_two_reads(nops: usize) -> Image {
    let mut code = vec![0x86, 0x52, 0x97, 0x28, 0x86, 0xAA, 0x97, 0x2A];
    code.extend([0x7D, 0x00, 0x29]);
    code.extend(std::iter::repeat_n(0x01, nops));
    code.extend([0xD6, 0x29]);
    code.extend([0x2A, back(code.len(), 0xC008)]);
    code.extend([0x96, 0x2A, 0x7C, 0x01, 0x00]);
    code.extend([0x20, back(code.len(), 0xC004)]);
    (code, Vec::new())
}

/// An SPI interrupt at the end of each byte; the main loop waits on a RAM
/// flag ($0100) the handler sets and counts bytes in $0101:
/// C000: LDS #$3FFF ; LDAA #$D2 ; STAA SPCR (SPIE, SPE, MSTR, E/16) ; CLI
/// C008: CLR $0100 ; LDAA #$AA ; STAA SPDR ; NOP... (`nops`)
/// loop: TST $0100 ; BEQ loop ; INC $0101 ; BRA C008
/// handler: LDAA SPSR ; LDAA SPDR ; LDAA #1 ; STAA $0100 ; RTI
pub fn spi_interrupt(nops: usize) -> Image {
    let mut code = vec![
        0x8E, 0x3F, 0xFF, 0x86, 0xD2, 0x97, 0x28, 0x0E, 0x7F, 0x01, 0x00, 0x86, 0xAA, 0x97, 0x2A,
    ];
    code.extend(std::iter::repeat_n(0x01, nops));
    code.extend([0x7D, 0x01, 0x00, 0x27, 0xFB, 0x7C, 0x01, 0x01]);
    code.extend([0x20, back(code.len(), 0xC008)]);
    let handler = 0xC000 + code.len() as u16;
    code.extend([0x96, 0x29, 0x96, 0x2A, 0x86, 0x01, 0xB7, 0x01, 0x00, 0x3B]);
    (code, vec![(0xFFD8, handler.to_be_bytes().to_vec())])
}

/// Waits for RTIF in TFLG2, counting passes in $0100:
/// C000: LDAA #$40 ; STAA TFLG2 ; C004: BRCLR TFLG2,#$40,* ; INC $0100 ; BRA C000
pub fn rtif_wait() -> Image {
    let code = [
        0x86, 0x40, 0x97, 0x25, 0x13, 0x25, 0x40, 0xFC, 0x7C, 0x01, 0x00, 0x20, 0xF3,
    ];
    (code.to_vec(), Vec::new())
}

/// Counts in $0100 while it waits for RTIF, passes in $0101: C000: LDAA
/// #$40 ; STAA TFLG2 ; C004: INC $0100 ; BRCLR TFLG2,#$40,C004 ; INC $0101 ;
/// BRA C000
pub fn rtif_wait_counting() -> Image {
    let code = [
        0x86, 0x40, 0x97, 0x25, 0x7C, 0x01, 0x00, 0x13, 0x25, 0x40, 0xF9, 0x7C, 0x01, 0x01, 0x20,
        0xF0,
    ];
    (code.to_vec(), Vec::new())
}

/// Output compare 2 toggles PA6; the loop waits for each edge and counts
/// falling ones in $0101: C000: LDAA #$40 ; STAA TCTL1 ; LDD #$1000 ; STD
/// TOC2 ; C009: BRCLR PORTA,#$40,* ; INC $0100 ; C010: BRSET PORTA,#$40,* ;
/// INC $0101 ; BRA C009
pub fn oc2_pin_wait() -> Image {
    let code = [
        0x86, 0x40, 0x97, 0x20, 0xCC, 0x10, 0x00, 0xDD, 0x18, 0x13, 0x00, 0x40, 0xFC, 0x7C, 0x01,
        0x00, 0x12, 0x00, 0x40, 0xFC, 0x7C, 0x01, 0x01, 0x20, 0xF0,
    ];
    (code.to_vec(), Vec::new())
}
