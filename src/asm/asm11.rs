//! The full ASM11 dialect, as far as hc11lab implements it (see
//! `docs/dialects.md`): `#`-directives (also in column 1), the segment
//! directives with one location counter each, `fcs`, `proc`/`endp` with
//! `@@` local labels, `set`, `def`, macros, the pseudo-instructions
//! (`clrd`, `pshd`, `jeq`, ...) and repeated instructions (`lsra:4`).

use super::directives::Directive;
use super::expr::BinOp;
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
    // Nine more segments by number, each with its own location counter.
    ("#seg1", Directive::Segment("SEG1")),
    ("#seg2", Directive::Segment("SEG2")),
    ("#seg3", Directive::Segment("SEG3")),
    ("#seg4", Directive::Segment("SEG4")),
    ("#seg5", Directive::Segment("SEG5")),
    ("#seg6", Directive::Segment("SEG6")),
    ("#seg7", Directive::Segment("SEG7")),
    ("#seg8", Directive::Segment("SEG8")),
    ("#seg9", Directive::Segment("SEG9")),
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
    ("#temp", Directive::Temp),
    ("next", Directive::Next),
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
    ("#cycles", Directive::Cycles),
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
/// are loads of zero (N, Z, V as `ldx`, C kept). `negd` is the two's
/// complement the Motorola application notes write out (`coma`, `comb`,
/// `addd #1`: C is set only when D was 0, so an `adca #0` after it carries
/// into a third byte, as AN974's 24-bit negation relies on). `aix #n` adds
/// to X through D and gives D back (Y likewise for `aiy`); which sequence
/// ASM11 itself emits is not documented where hc11lab could read it, so
/// the bytes of these two may differ from ASM11's. A `jXX` is the branch
/// that reaches any address: the opposite branch over a `jmp` (5 bytes).
pub const PSEUDO_INSTRUCTIONS: &[(&str, &[&str])] = &[
    ("clrd", &["clra", "clrb"]),
    ("incd", &["addd #1"]),
    ("decd", &["subd #1"]),
    ("pshd", &["pshb", "psha"]),
    ("puld", &["pula", "pulb"]),
    ("negd", &["coma", "comb", "addd #1"]),
    ("aix", &["xgdx", "addd #~1~", "xgdx"]),
    ("aiy", &["xgdy", "addd #~1~", "xgdy"]),
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

/// How ASM11's counter `:temp` is written in a line while the assembler
/// reads it: a name (a letter Windows-1252 text cannot contain, then
/// `tmp`: five bytes, as `:temp`, so offsets stay valid). Messages and
/// the symbol table show it as `:temp`.
pub const TEMP_NAME: &str = "\u{0294}tmp";

/// `line` with every `:temp` outside quotes and comments replaced by
/// [`TEMP_NAME`]; `None` if the line has none.
pub fn mark_temp(line: &str) -> Option<String> {
    replace_internal(line, ":temp", TEMP_NAME)
}

/// ASM11's `:AnRTS` ("an RTS"): the address of the last `rts` above the
/// line, as public sources use it to branch to a near return (`Done@@ equ
/// :AnRTS`). `line` with every `:AnRTS` outside quotes and comments
/// replaced by that address; `None` if the line has none or no `rts` is
/// known yet (then the name stays and is reported as no value).
pub fn put_an_rts(line: &str, last_rts: Option<i64>) -> Option<String> {
    put_value(
        line,
        ":anrts",
        last_rts.filter(|a| (0..=0xFFFF).contains(a))?,
    )
}

/// ASM11's cycle counters: `:cycles` is the sum of the cycles of the
/// instructions since the last `#Cycles`, `:ocycles` the sum `#Cycles`
/// found there before it started again. `line` with both put in; `None`
/// if the line has neither.
pub fn put_cycles(line: &str, cycles: i64, ocycles: i64) -> Option<String> {
    let with = put_value(line, ":cycles", cycles);
    let text = with.as_deref().unwrap_or(line);
    put_value(text, ":ocycles", ocycles).or(with)
}

/// `line` with every `NAME` (an internal symbol written with its colon,
/// lower case) outside quotes and comments replaced by `value` in
/// hexadecimal, as long as the name (so offsets stay valid); `None` if
/// the line has none, or the value does not fit.
fn put_value(line: &str, name: &str, value: i64) -> Option<String> {
    let digits = name.len() - 1;
    let text = format!("${value:0digits$X}");
    if value < 0 || text.len() != name.len() {
        return None;
    }
    replace_internal(line, name, &text)
}

/// `line` with every internal symbol `name` (written with its colon, lower
/// case; any case in the line) outside quotes and comments replaced by
/// `with`, which is as long, so offsets stay valid; `None` if the line has
/// none. A name that continues a word (`x:temp`, `::temp`) is not one.
fn replace_internal(line: &str, name: &str, with: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    if !lower.contains(name) {
        return None;
    }
    let end = lexer::comment_start(line, 0);
    let mut out = line.to_string();
    let mut from = 0;
    while let Some(i) = lower.get(from..end).and_then(|t| t.find(name)) {
        let at = from + i;
        let after = lower[at + name.len()..].chars().next();
        let before = lower[..at].chars().next_back();
        let whole = !after.is_some_and(lexer::is_ident_char)
            && !before.is_some_and(|c| c == ':' || lexer::is_ident_char(c));
        if whole && !inside_quotes(&line[..at]) {
            out.replace_range(at..at + name.len(), with);
        }
        from = at + name.len();
    }
    (out != line).then_some(out)
}

/// True if `before` leaves a `"` string open (an odd number of `"`).
fn inside_quotes(before: &str) -> bool {
    before.matches('"').count() % 2 == 1
}

/// An ASM11 condition written as a comparison with blanks around its
/// operator (`#if ROM < $D000`, `#if :temp <> 67`): the two sides and the
/// operator. Inside a value `<` and `>` shift (`CR<8`), so only the blanks
/// tell a comparison. `None` if the condition has no such operator.
pub fn comparison(ops: Piece<'_>) -> Option<(Piece<'_>, BinOp, Piece<'_>)> {
    const OPERATORS: &[(&str, BinOp)] = &[
        (" >= ", BinOp::Ge),
        (" <= ", BinOp::Le),
        (" <> ", BinOp::Ne),
        (" != ", BinOp::Ne),
        (" == ", BinOp::Eq),
        (" = ", BinOp::Eq),
        (" > ", BinOp::Gt),
        (" < ", BinOp::Lt),
    ];
    let text = ops.text;
    let (at, written, op) = OPERATORS
        .iter()
        .filter_map(|&(w, op)| text.find(w).map(|i| (i, w, op)))
        .filter(|&(i, _, _)| !inside_quotes(&text[..i]))
        .min_by_key(|&(i, w, _)| (i, std::cmp::Reverse(w.len())))?;
    let right = &text[at + written.len()..];
    let right_trimmed = right.trim_start();
    Some((
        Piece {
            text: text[..at].trim_end(),
            start: ops.start,
        },
        op,
        Piece {
            text: right_trimmed,
            start: ops.start + at + written.len() + (right.len() - right_trimmed.len()),
        },
    ))
}

/// ASM11's `equ value,size`: the value and the size, split at the last
/// comma outside quotes and parentheses; `None` without such a comma.
pub fn value_and_size(ops: Piece<'_>) -> Option<(Piece<'_>, Piece<'_>)> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut comma = None;
    let mut skip = false;
    for (i, c) in ops.text.char_indices() {
        if std::mem::take(&mut skip) {
            continue;
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            // `',`: one character, whatever it is.
            (None, '\'') if lexer::is_open_char(&ops.text[i..]) => skip = true,
            (None, '"' | '\'') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => depth -= 1,
            (None, ',') if depth == 0 => comma = Some(i),
            _ => {}
        }
    }
    let at = comma?;
    let value = ops.text[..at].trim_end();
    let size_text = &ops.text[at + 1..];
    let size = size_text.trim_start();
    Some((
        Piece {
            text: value,
            start: ops.start,
        },
        Piece {
            text: size.trim_end(),
            start: ops.start + at + 1 + (size_text.len() - size.len()),
        },
    ))
}

/// Splits one ASM11 line: as the course dialect, except that a line starting
/// with `#` in column 1 is a directive line without a label.
pub fn split_line(line: &str, base: usize) -> Result<Fields<'_>, BadLabel> {
    if !line.starts_with('#') {
        let mut f = lexer::split_line(line, base)?;
        // ASM11 reads an instruction that takes no operand without one: the
        // rest of its line is a comment, `;` or not (`tsta WAS NEGATIVE?`).
        if f.mnemonic
            .is_some_and(|m| super::as11::takes_no_operand(m.text))
        {
            f.operands = None;
        }
        return Ok(f);
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
