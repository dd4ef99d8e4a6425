//! The full ASM11 dialect, as far as hc11lab implements it (see
//! `docs/dialects.md`): `#`-directives (also in column 1), the segment
//! directives with one location counter each, `fcs`, `proc`/`endp` with
//! `@@` local labels, `set`, `def`, macros, the pseudo-instructions
//! (`clrd`, `pshd`, `jeq`, ...) and repeated instructions (`lsra:4`).

use super::directives::Directive;
use super::lexer::{self, BadLabel, Fields, Piece};

/// The directives ASM11 has beyond the course table. `#if` and friends are
/// the course's conditionals; the segments switch between location counters.
pub const DIRECTIVES: &[(&str, Directive)] = &[
    ("#include", Directive::Include),
    ("#if", Directive::If),
    ("#ifdef", Directive::Ifdef),
    ("#ifndef", Directive::Ifndef),
    ("#else", Directive::Else),
    ("#endif", Directive::Endif),
    ("#ram", Directive::Segment("RAM")),
    ("#rom", Directive::Segment("ROM")),
    ("#data", Directive::Segment("DATA")),
    ("#eeprom", Directive::Segment("EEPROM")),
    ("#vectors", Directive::Segment("VECTORS")),
    ("fcs", Directive::Fcs),
    ("proc", Directive::Proc),
    ("endp", Directive::Endp),
    ("set", Directive::Set),
    ("macro", Directive::Macro),
    ("#macro", Directive::Macro),
    ("endm", Directive::Endm),
    ("#endm", Directive::Endm),
    ("def", Directive::Def),
    ("long", Directive::Dc(4)),
    ("#uses", Directive::Uses),
    ("#ifz", Directive::Ifz),
    ("#ifnz", Directive::If),
    ("#ifmain", Directive::IfMain),
    ("#caseon", Directive::Case(true)),
    ("#caseoff", Directive::Case(false)),
    // Listing, optimisation hints and messages: they change no byte.
    ("#liston", Directive::Listing),
    ("#listoff", Directive::Listing),
    ("#extraon", Directive::Listing),
    ("#extraoff", Directive::Listing),
    ("#optrtson", Directive::Listing),
    ("#optrtsoff", Directive::Listing),
    ("#optrelon", Directive::Listing),
    ("#optreloff", Directive::Listing),
    ("#cycles", Directive::Listing),
    ("#hint", Directive::Listing),
    ("#message", Directive::Listing),
    ("#memory", Directive::Listing),
];

/// The character that stands for `@@` in a name while the assembler reads
/// it: a letter (so names containing it lex as names) that Windows-1252
/// text cannot contain. Reserved in ASM11 sources.
pub const LOCAL_MARK: char = '\u{0298}';

/// The pseudo-instructions ASM11 offers (its "extra mnemonics"), with the
/// real instructions each stands for (expanded like a macro and listed so;
/// `~1~` is the operand). `incd`/`decd` set the flags as `addd`/`subd` do
/// (C too, unlike `inx`); `pshd` leaves A at the lower address, as `pshx`
/// does with X's high byte, so `pshd` / `pulx` moves D to X; `clrx`/`clry`
/// are loads of zero (N, Z, V as `ldx`, C kept). A `jXX` is the branch
/// that reaches any address: the opposite branch over a `jmp` (5 bytes).
pub const PSEUDO_INSTRUCTIONS: &[(&str, &[&str])] = &[
    ("clrd", &["clra", "clrb"]),
    ("incd", &["addd #1"]),
    ("decd", &["subd #1"]),
    ("pshd", &["pshb", "psha"]),
    ("puld", &["pula", "pulb"]),
    ("clrx", &["ldx #0"]),
    ("clry", &["ldy #0"]),
    ("jeq", &["bne *+5", "jmp ~1~"]),
    ("jne", &["beq *+5", "jmp ~1~"]),
    ("jcc", &["bcs *+5", "jmp ~1~"]),
    ("jcs", &["bcc *+5", "jmp ~1~"]),
    ("jhs", &["blo *+5", "jmp ~1~"]),
    ("jlo", &["bhs *+5", "jmp ~1~"]),
    ("jhi", &["bls *+5", "jmp ~1~"]),
    ("jls", &["bhi *+5", "jmp ~1~"]),
    ("jge", &["blt *+5", "jmp ~1~"]),
    ("jlt", &["bge *+5", "jmp ~1~"]),
    ("jgt", &["ble *+5", "jmp ~1~"]),
    ("jle", &["bgt *+5", "jmp ~1~"]),
    ("jmi", &["bpl *+5", "jmp ~1~"]),
    ("jpl", &["bmi *+5", "jmp ~1~"]),
    ("jvc", &["bvs *+5", "jmp ~1~"]),
    ("jvs", &["bvc *+5", "jmp ~1~"]),
];

/// Most times one line may repeat its instruction (`lsra:4`).
pub const MAX_REPEAT: u32 = 256;

/// `lsra:4`: ASM11 repeats an instruction that many times. The mnemonic
/// and the count (1 to [`MAX_REPEAT`]), if `word` is written so.
pub fn repeated(word: &str) -> Option<(&str, u32)> {
    let (name, count) = word.split_once(':')?;
    let n: u32 = count.parse().ok()?;
    (!name.is_empty() && (1..=MAX_REPEAT).contains(&n)).then_some((name, n))
}

/// The real instructions of a pseudo-instruction, if `word` is one.
pub fn pseudo_instruction(word: &str) -> Option<&'static [&'static str]> {
    PSEUDO_INSTRUCTIONS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(word))
        .map(|(_, body)| *body)
}

/// `line` with every `@@` outside quotes and comments replaced by
/// [`LOCAL_MARK`] (same length in bytes, so offsets stay valid); `None` if
/// the line has no `@@` there.
pub fn mark_locals(line: &str) -> Option<String> {
    if !line.contains("@@") {
        return None;
    }
    let end = lexer::comment_start(line, 0);
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut changed = false;
    let mut chars = line[..end].char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' && lexer::is_open_char(&line[i..]) => {
                out.push(c);
                if let Some((_, next)) = chars.next() {
                    out.push(next);
                }
                continue;
            }
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '@' && chars.peek().is_some_and(|&(_, n)| n == '@') => {
                chars.next();
                out.push(LOCAL_MARK);
                changed = true;
                continue;
            }
            None => {}
        }
        out.push(c);
    }
    out.push_str(&line[end..]);
    changed.then_some(out)
}

/// ASM11's `:AnRTS` ("an RTS"): the address of the last `rts` above the
/// line, as public sources use it to branch to a near return (`Done@@ equ
/// :AnRTS`). `line` with every `:AnRTS` outside quotes and comments
/// replaced by that address as `$0HHHH` (the same length, so offsets stay
/// valid); `None` if the line has none or no `rts` is known yet (then the
/// name stays and is reported as no value).
pub fn put_an_rts(line: &str, last_rts: Option<i64>) -> Option<String> {
    const NAME: &str = ":anrts";
    let lower = line.to_ascii_lowercase();
    if !lower.contains(NAME) {
        return None;
    }
    let address = last_rts.filter(|a| (0..=0xFFFF).contains(a))?;
    let end = lexer::comment_start(line, 0);
    let mut out = line.to_string();
    let mut from = 0;
    while let Some(i) = lower.get(from..end).and_then(|t| t.find(NAME)) {
        let at = from + i;
        let after = lower[at + NAME.len()..].chars().next();
        if !after.is_some_and(lexer::is_ident_char) && !inside_quotes(&line[..at]) {
            out.replace_range(at..at + NAME.len(), &format!("${address:05X}"));
        }
        from = at + NAME.len();
    }
    (out != line).then_some(out)
}

/// True if `before` leaves a `"` string open (an odd number of `"`).
fn inside_quotes(before: &str) -> bool {
    before.matches('"').count() % 2 == 1
}

/// Splits one ASM11 line: as the course dialect, except that a line starting
/// with `#` in column 1 is a directive line without a label.
pub fn split_line(line: &str, base: usize) -> Result<Fields<'_>, BadLabel> {
    if !line.starts_with('#') {
        return lexer::split_line(line, base);
    }
    let word_end = line
        .char_indices()
        .find(|&(_, c)| c == ' ' || c == '\t' || c == ';')
        .map_or(line.len(), |(i, _)| i);
    let mut f = Fields {
        label: None,
        mnemonic: Some(Piece {
            text: &line[..word_end],
            start: base,
        }),
        operands: None,
    };
    let rest = &line[word_end..];
    let ops_start = word_end + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
    let ops_end = lexer::comment_start(line, ops_start);
    let ops = line[ops_start..ops_end].trim_end_matches([' ', '\t']);
    if !ops.is_empty() {
        f.operands = Some(Piece {
            text: ops,
            start: base + ops_start,
        });
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_directives_in_column_one() {
        let f = split_line("#include \"regs.inc\" ; registers", 0).expect("line");
        assert_eq!(f.label, None);
        assert_eq!(f.mnemonic.map(|p| p.text), Some("#include"));
        assert_eq!(f.operands.map(|p| p.text), Some("\"regs.inc\""));
        let f = split_line("#ROM", 0).expect("line");
        assert_eq!(f.mnemonic.map(|p| p.text), Some("#ROM"));
        let f = split_line("start ldaa #1", 0).expect("line");
        assert_eq!(f.label.map(|p| p.text), Some("start"));
    }

    #[test]
    fn local_marks_keep_offsets_and_skip_strings() {
        let m = mark_locals("Loop@@ bne Loop@@ ; @@").expect("marked");
        assert_eq!(m.len(), "Loop@@ bne Loop@@ ; @@".len());
        assert_eq!(m, format!("Loop{LOCAL_MARK} bne Loop{LOCAL_MARK} ; @@"));
        assert_eq!(mark_locals(" fcc \"a@@b\""), None);
        assert_eq!(mark_locals(" ldaa #'@"), None);
        assert_eq!(mark_locals(" nop"), None);
    }
}
