//! Random counted loops for the fast-forward's tests: a loop body of
//! counting, copying and comparing pieces (now and then one that does
//! not count, or a call), closed by a random conditional branch, inside an
//! outer loop that counts its passes in $0110. Machine code for $C000.

use crate::lcg::Lcg;

/// Loop body pieces that count, copy or compare (the kind a counted loop
/// is made of); `x` is filled with random immediates.
const COUNTING: &[&[u8]] = &[
    &[0x4C],             // inca
    &[0x4A],             // deca
    &[0x5C],             // incb
    &[0x5A],             // decb
    &[0x08],             // inx
    &[0x09],             // dex
    &[0x18, 0x08],       // iny
    &[0x18, 0x09],       // dey
    &[0x8B, 0xFF],       // adda #imm
    &[0x80, 0xFF],       // suba #imm
    &[0xCB, 0xFF],       // addb #imm
    &[0xC0, 0xFF],       // subb #imm
    &[0xC3, 0x00, 0xFF], // addd #imm (small)
    &[0x83, 0x00, 0xFF], // subd #imm (small)
    &[0x7C, 0x01, 0x00], // inc $0100
    &[0x7A, 0x01, 0x01], // dec $0101
    &[0xB6, 0x01, 0x00], // ldaa $0100
    &[0xB7, 0x01, 0x02], // staa $0102
    &[0xF6, 0x01, 0x01], // ldab $0101
    &[0xF7, 0x01, 0x03], // stab $0103
    &[0xFD, 0x01, 0x04], // std $0104
    &[0xFC, 0x01, 0x04], // ldd $0104
    &[0xFF, 0x01, 0x06], // stx $0106
    &[0xFE, 0x01, 0x06], // ldx $0106
    &[0x36, 0x33],       // psha / pulb
    &[0x3C, 0x18, 0x38], // pshx / puly
    &[0x16],             // tab
    &[0x17],             // tba
    &[0x1B],             // aba
    &[0x10],             // sba
    &[0x8F],             // xgdx
    &[0x81, 0xFF],       // cmpa #imm
    &[0xC1, 0xFF],       // cmpb #imm
    &[0x8C, 0xFF, 0xFF], // cpx #imm
    &[0x4D],             // tsta
    &[0x7D, 0x01, 0x00], // tst $0100
    &[0xB1, 0x01, 0x01], // cmpa $0101
    &[0x4F],             // clra
    &[0x01],             // nop
    &[0x8D, 0x00],       // bsr to the next instruction... patched below
];

/// Pieces that do not count: results that are no sum (shifts, logic,
/// carries, decimal adjust, the CCR as data).
const OTHER: &[&[u8]] = &[
    &[0x48],       // asla
    &[0x54],       // lsrb
    &[0x84, 0xFF], // anda #imm
    &[0xCA, 0xFF], // orab #imm
    &[0x89, 0xFF], // adca #imm
    &[0x49],       // rola
    &[0x19],       // daa
    &[0x07],       // tpa
    &[0x43],       // coma
    &[0x50],       // negb
    &[0x88, 0xFF], // eora #imm
    &[0x06],       // tap
];

/// Conditional branches that may close the loop.
const BRANCHES: &[u8] = &[
    0x26, 0x27, 0x2A, 0x2B, 0x24, 0x25, 0x28, 0x29, 0x2C, 0x2D, 0x2E, 0x2F, 0x22, 0x23,
];

/// Where the outer loop goes after counting an exit of the inner one.
#[allow(dead_code)] // each test file takes one
pub enum Restart {
    /// Back to the inner loop's head, in whatever state the exit left.
    Head,
    /// Back to the setting of registers and RAM: every pass meets the
    /// inner loop in the same state (the loop reads nothing of $0110).
    Setup,
}

/// A random program: registers and RAM set, then a loop of `pieces` body
/// pieces closed by a random conditional branch (`other_odds` percent of
/// them pieces that do not count), and around it an outer loop that
/// counts its exits in $0110 and goes back as `restart` says.
pub fn random_program(rng: &mut Lcg, other_odds: u64, restart: Restart) -> Vec<u8> {
    let mut code = vec![0x8E, 0x01, 0xFF]; // lds #$01FF
    let setup = code.len();
    code.extend([0xCE, rng.byte(), rng.byte()]); // ldx #
    code.extend([0x18, 0xCE, rng.byte(), rng.byte()]); // ldy #
    for addr in [0x00u8, 0x01, 0x04, 0x05, 0x06, 0x07] {
        code.extend([0x86, rng.byte(), 0xB7, 0x01, addr]); // ldaa # / staa $01xx
    }
    code.extend([0x86, rng.byte(), 0xC6, rng.byte()]); // ldaa # / ldab #
    let head = code.len();
    let pieces = 1 + rng.next(6);
    for _ in 0..pieces {
        let piece: Vec<u8> = if rng.next(100) < other_odds {
            OTHER[rng.next(OTHER.len() as u64) as usize].to_vec()
        } else {
            let p = COUNTING[rng.next(COUNTING.len() as u64) as usize];
            if p == [0x8D, 0x00] {
                // bsr over a bra to an rts: a call and a return in the body.
                vec![0x8D, 0x02, 0x20, 0x01, 0x39]
            } else {
                p.to_vec()
            }
        };
        let mut piece = piece;
        // Immediates: small steps mostly, any value sometimes.
        let n = piece.len();
        if piece.get(n - 1) == Some(&0xFF) {
            piece[n - 1] = if rng.next(3) == 0 {
                rng.byte()
            } else {
                1 + rng.next(3) as u8
            };
        }
        if n == 3 && piece[1] == 0xFF {
            piece[1] = rng.byte();
        }
        code.extend(piece);
    }
    let branch = BRANCHES[rng.next(BRANCHES.len() as u64) as usize];
    let back = head as i64 - (code.len() as i64 + 2);
    code.extend([branch, back as i8 as u8]);
    code.extend([0x7C, 0x01, 0x10]); // inc $0110
    let to = match restart {
        Restart::Head => head,
        Restart::Setup => setup,
    };
    let back = to as i64 - (code.len() as i64 + 2);
    code.extend([0x20, back as i8 as u8]); // bra
    code
}
