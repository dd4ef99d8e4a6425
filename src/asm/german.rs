//! The assembler's messages in German, for students who read the course in
//! German (`lesson check --lang de`, `grade --lang de`, the German window).
//!
//! The assembler writes its diagnostics in English, with `format!` in the
//! code. [`MESSAGES`] holds every such message and hint as written in the
//! code (its `{...}` placeholders included) with its German; a message is
//! translated by finding the template it was made from and putting the
//! values back, themselves translated when they are messages or words of
//! the assembler (`immediate value`, `extended`), else kept (symbol names,
//! numbers, code). The test `asm_german` reads the assembler's sources and
//! fails for a message that has no German here, so a new message cannot
//! reach a German student in English.

use super::diagnostics::{render, Diagnostic};
use crate::image::SourceFile;

/// Every message and hint of the assembler as written in its code, with
/// its German. Placeholders in the German are the English ones by name
/// (`{mnemonic}`), `{}` in the English order, or `{N}` (the N-th
/// placeholder of the English, from 0) where German wants another order.
pub const MESSAGES: &[(&str, &str)] = &[
    ("<unknown file>", "<unbekannte Datei>"),
    ("did you mean {}?", "meintest du {}?"),
    (
        "unknown dialect `{s}`; use course, as11 or asm11",
        "unbekannter Dialekt `{s}`; möglich sind course, as11 und asm11",
    ),
    ("`{c}` has no byte in Windows-1252", "`{c}` hat kein Byte in Windows-1252"),
    (
        "the LCD font and the terminal use single bytes; write the value as a number",
        "die LCD-Schrift und das Terminal verwenden einzelne Bytes; schreib den Wert als Zahl",
    ),
    ("expected data after the directive", "nach der Direktive fehlen die Daten"),
    (
        "strings are allowed in `dc.b` and `fcc` only",
        "Zeichenketten sind nur in `dc.b` und `fcc` erlaubt",
    ),
    (
        "expected `,` between data items, found {}",
        "zwischen den Datenwerten fehlt ein `,`, gefunden: {}",
    ),
    ("comments start with `;`", "Kommentare beginnen mit `;`"),
    ("expected a data item after `,`", "nach `,` fehlt ein Datenwert"),
    ("expected an operand after `,`", "nach `,` fehlt ein Operand"),
    ("unexpected {} after the operand", "unerwartet nach dem Operanden: {}"),
    (
        "operands are separated by `,`; comments start with `;`",
        "Operanden werden durch `,` getrennt; Kommentare beginnen mit `;`",
    ),
    (
        "`{mnemonic}` has no {what} addressing mode",
        "`{mnemonic}` hat die Adressierungsart „{what}“ nicht",
    ),
    ("`{mnemonic}` can use: {}", "`{mnemonic}` kann: {}"),
    (
        "write `{mnemonic} addr,#mask,target` or `{mnemonic} offset,x,#mask,target`",
        "schreib `{mnemonic} addr,#mask,target` oder `{mnemonic} offset,x,#mask,target`",
    ),
    (
        "write `{mnemonic} addr,#mask` or `{mnemonic} offset,x,#mask`",
        "schreib `{mnemonic} addr,#mask` oder `{mnemonic} offset,x,#mask`",
    ),
    (
        "`<`/`>` cannot be used on an index offset",
        "`<`/`>` gehen nicht bei einem Index-Offset",
    ),
    (
        "to reach an address above $FF, load it into X first: `ldx #addr` then use `0,x`",
        "um eine Adresse über $FF zu erreichen, lade sie zuerst in X: `ldx #addr`, dann `0,x`",
    ),
    (
        "the first operand of `{mnemonic}` is an address, not an immediate value",
        "der erste Operand von `{mnemonic}` ist eine Adresse, kein Direktwert",
    ),
    (
        "`{mnemonic}` needs an address and a bit mask",
        "`{mnemonic}` braucht eine Adresse und eine Bitmaske",
    ),
    ("`{mnemonic}` needs a bit mask", "`{mnemonic}` braucht eine Bitmaske"),
    ("`{mnemonic}` needs a branch target", "`{mnemonic}` braucht ein Sprungziel"),
    ("too many operands for `{mnemonic}`", "zu viele Operanden für `{mnemonic}`"),
    (
        "`{mnemonic}` needs a target address, not an immediate value",
        "`{mnemonic}` braucht eine Zieladresse, keinen Direktwert",
    ),
    (
        "`{mnemonic}` takes exactly one operand, the branch target",
        "`{mnemonic}` hat genau einen Operanden, das Sprungziel",
    ),
    ("`{mnemonic}` needs an operand", "`{mnemonic}` braucht einen Operanden"),
    ("`{mnemonic}` takes no operand", "`{mnemonic}` hat keinen Operanden"),
    (
        "cannot read the operands of `{mnemonic}`",
        "die Operanden von `{mnemonic}` sind nicht lesbar",
    ),
    (
        "operand forms: `#value`, `address`, `offset,x`, `offset,y`; `{mnemonic}` can use: {}",
        "Operanden: `#value`, `address`, `offset,x`, `offset,y`; `{mnemonic}` kann: {}",
    ),
    ("{what} {} is out of range", "{what} {} liegt außerhalb des Bereichs"),
    ("immediate value", "Direktwert"),
    (
        "`{m} #` takes an 8-bit value, -128..255 ($00-$FF); write `#<(...)` for the low byte",
        "`{m} #` nimmt einen 8-Bit-Wert, -128..255 ($00-$FF); schreib `#<(...)` für das niederwertige Byte",
    ),
    (
        "`{m} #` takes a 16-bit value, -32768..65535 ($0000-$FFFF)",
        "`{m} #` nimmt einen 16-Bit-Wert, -32768..65535 ($0000-$FFFF)",
    ),
    ("direct address", "direkte Adresse"),
    (
        "direct addressing reaches $0000-$00FF; write `>addr` (or no `<`) for extended addressing",
        "direkte Adressierung erreicht $0000-$00FF; schreib `>addr` (oder kein `<`) für erweiterte Adressierung",
    ),
    (
        "`{m}` reaches $0000-$00FF directly; for higher addresses load X first: `ldx #addr` then `{m} 0,x,...`",
        "`{m}` erreicht direkt nur $0000-$00FF; für höhere Adressen lade zuerst X: `ldx #addr`, dann `{m} 0,x,...`",
    ),
    (
        "extended addressing reaches $0000-$FFFF",
        "erweiterte Adressierung erreicht $0000-$FFFF",
    ),
    ("index offset", "Index-Offset"),
    (
        "indexed addressing takes an unsigned offset 0..255 ($00-$FF); for other offsets change X or Y first (`ldx #addr`, `abx`, `dex`)",
        "indizierte Adressierung nimmt einen Offset ohne Vorzeichen, 0..255 ($00-$FF); für andere Offsets ändere zuerst X oder Y (`ldx #addr`, `abx`, `dex`)",
    ),
    ("bit mask", "Bitmaske"),
    ("a bit mask is 8 bits, $00-$FF", "eine Bitmaske hat 8 Bit, $00-$FF"),
    ("{disp} bytes forward", "{disp} Bytes vorwärts"),
    ("{} bytes back", "{} Bytes zurück"),
    (
        "branch target {} is {far}; a branch reaches -128..+127",
        "das Sprungziel {} liegt {far}; ein Branch erreicht -128..+127",
    ),
    ("use `jmp` instead", "nimm stattdessen `jmp`"),
    ("use `jsr` instead", "nimm stattdessen `jsr`"),
    (
        "branch to a nearby `jmp` to the target",
        "spring auf ein nahes `jmp` zum Ziel",
    ),
    (
        "invert the condition and branch over a `jmp` to the target",
        "kehr die Bedingung um und spring über ein `jmp` zum Ziel",
    ),
    (
        "immediate value {} cut to its low byte ${:02X}",
        "Direktwert {} auf sein niederwertiges Byte ${:02X} gekürzt",
    ),
    (
        "AS11 keeps the low byte; write `#<(...)` (or mask it) to say so",
        "AS11 behält das niederwertige Byte; schreib `#<(...)` (oder maskiere den Wert), um das zu sagen",
    ),
    ("value is not known at this point", "der Wert ist an dieser Stelle noch nicht bekannt"),
    (
        "define the symbols it uses before this line",
        "definiere die Symbole, die er verwendet, vor dieser Zeile",
    ),
    ("division by zero", "Division durch null"),
    ("shift by {n}", "Verschiebung um {n}"),
    ("a shift count must be 0 to 63", "eine Verschiebung geht um 0 bis 63"),
    ("the end of the line", "das Zeilenende"),
    (
        "unterminated string: no closing {delim}",
        "Zeichenkette ohne Ende: das schließende {delim} fehlt",
    ),
    ("add a closing {delim}", "ergänze das schließende {delim}"),
    (
        "expression too complex (more than {MAX_EXPR_NODES} operators and parentheses)",
        "Ausdruck zu komplex (mehr als {MAX_EXPR_NODES} Operatoren und Klammern)",
    ),
    (
        "expected a value, found the end of the line",
        "ein Wert fehlt, die Zeile ist zu Ende",
    ),
    ("expected `)`, found {}", "`)` fehlt, gefunden: {}"),
    (
        "`$` must be followed by hexadecimal digits",
        "nach `$` müssen Hexadezimalziffern folgen",
    ),
    (
        "`%` must be followed by binary digits (0 and 1)",
        "nach `%` müssen Binärziffern folgen (0 und 1)",
    ),
    (
        "`@` must be followed by octal digits (0-7)",
        "nach `@` müssen Oktalziffern folgen (0-7)",
    ),
    (
        "`&` must be followed by decimal digits",
        "nach `&` müssen Dezimalziffern folgen",
    ),
    ("`{ch}` has no byte in Windows-1252", "`{ch}` hat kein Byte in Windows-1252"),
    ("empty character constant", "leere Zeichenkonstante"),
    (
        "a character constant holds one character",
        "eine Zeichenkonstante enthält genau ein Zeichen",
    ),
    (
        "strings belong in `dc.b` or `fcc`",
        "Zeichenketten gehören in `dc.b` oder `fcc`",
    ),
    ("expected a value, found {}", "ein Wert fehlt, gefunden: {}"),
    ("`{word}` is not a valid number", "`{word}` ist keine gültige Zahl"),
    (
        "hexadecimal numbers are written `$1F`, `0x1F` or `1Fh`; binary `%0101`",
        "Hexadezimalzahlen schreibt man `$1F`, `0x1F` oder `1Fh`; Binärzahlen `%0101`",
    ),
    (
        "numbers are decimal (`31`), `$1F`, `%0101`, `@17`, `0x1F` or `1Fh`",
        "Zahlen sind dezimal (`31`), `$1F`, `%0101`, `@17`, `0x1F` oder `1Fh`",
    ),
    (
        "assembling took longer than the {:.1} s allowed; it was stopped",
        "das Assemblieren dauerte länger als die erlaubten {:.1} s und wurde abgebrochen",
    ),
    (
        "a program for the 68HC11 assembles in well under a second; look for very long files or long chains of `equ`",
        "ein Programm für den 68HC11 ist in weit unter einer Sekunde assembliert; such nach sehr langen Dateien oder langen `equ`-Ketten",
    ),
    ("this `.if` has no `.endif`", "zu diesem `.if` fehlt das `.endif`"),
    (
        "add `.endif` before the end of the file",
        "ergänze `.endif` vor dem Ende der Datei",
    ),
    (
        "the sources have more than {} lines; reading stops here",
        "die Quelltexte haben mehr als {} Zeilen; hier endet das Lesen",
    ),
    (
        "assembler programs for the 68HC11 fit in far fewer lines; is this the right file?",
        "Assemblerprogramme für den 68HC11 kommen mit weit weniger Zeilen aus; ist das die richtige Datei?",
    ),
    (
        "a label must start with a letter, `_` or `.` and consist of letters, digits, `_`, `.`, `?`",
        "ein Label beginnt mit einem Buchstaben, `_` oder `.` und besteht aus Buchstaben, Ziffern, `_`, `.`, `?`",
    ),
    (
        "labels start in column 1; indent instructions and directives",
        "Labels beginnen in Spalte 1; rück Befehle und Direktiven ein",
    ),
    ("`.else` without `.if`", "`.else` ohne `.if`"),
    ("a second `.else` for the same `.if`", "ein zweites `.else` zum selben `.if`"),
    ("the `.if` is at {}", "das `.if` steht bei {}"),
    ("`.endif` without `.if`", "`.endif` ohne `.if`"),
    (
        "`{}` in column 1 is a label, not an instruction",
        "`{}` in Spalte 1 ist ein Label, kein Befehl",
    ),
    (
        "indent instructions with a space or tab",
        "rück Befehle mit einem Leerzeichen oder Tabulator ein",
    ),
    ("unknown mnemonic `{}`", "unbekannter Befehl `{}`"),
    (
        "`{}` starts in column 1, so it is read as a label; indent it",
        "`{}` beginnt in Spalte 1 und wird daher als Label gelesen; rück es ein",
    ),
    ("first defined at {}", "zuerst definiert bei {}"),
    (
        "first defined before the sources (a predefined symbol)",
        "schon vor den Quelltexten definiert (ein vordefiniertes Symbol)",
    ),
    ("`{shown}` is defined twice", "`{shown}` ist zweimal definiert"),
    (
        "symbols are case-insensitive: `{shown}` and `{name}` are the same",
        "bei Symbolen zählt Groß-/Kleinschreibung nicht: `{shown}` und `{name}` sind dasselbe",
    ),
    ("missing {what}", "es fehlt: {what}"),
    ("unexpected {} after the value", "unerwartet nach dem Wert: {}"),
    (
        "`{}` is a macro defined later, at {}: define a macro before its first use",
        "`{}` ist ein Makro, das erst später definiert wird, bei {}: definiere ein Makro vor seiner ersten Verwendung",
    ),
    ("the file is empty", "die Datei ist leer"),
    (
        "nothing here makes a byte (only comments, `equ`s or reservations)",
        "hier entsteht kein einziges Byte (nur Kommentare, `equ`s oder Reservierungen)",
    ),
    ("no program: {what}", "kein Programm: {what}"),
    (
        "write instructions after an `org` (`org $C000`), and the reset vector (`org $FFFE` / `dc.w Start`)",
        "schreib Befehle nach einem `org` (`org $C000`) und den Reset-Vektor (`org $FFFE` / `dc.w Start`)",
    ),
    ("byte count", "Anzahl der Bytes"),
    (
        "hc11lab assembles for the 68HC11 only",
        "hc11lab assembliert nur für den 68HC11",
    ),
    (
        "write `cpu 6811` or remove the line",
        "schreib `cpu 6811` oder lösch die Zeile",
    ),
    ("missing text after `fcs`", "nach `fcs` fehlt der Text"),
    ("value after `set`", "Wert nach `set`"),
    ("`set` needs a name", "`set` braucht einen Namen"),
    (
        "write the name in column 1: `NAME set value`",
        "schreib den Namen in Spalte 1: `NAME set value`",
    ),
    (
        "byte count {n} is out of range (0..{MAX_FILL})",
        "die Anzahl der Bytes {n} liegt außerhalb des Bereichs (0..{MAX_FILL})",
    ),
    (
        "the byte count must be known here",
        "die Anzahl der Bytes muss hier schon bekannt sein",
    ),
    (
        "use numbers or symbols defined above this line",
        "nimm Zahlen oder Symbole, die über dieser Zeile definiert sind",
    ),
    ("missing `value,count` after `fill`", "nach `fill` fehlt `value,count`"),
    (
        "expected `,` and a count, found {}",
        "`,` und eine Anzahl fehlen, gefunden: {}",
    ),
    ("write `fill value,count`", "schreib `fill value,count`"),
    ("unexpected {} after the count", "unerwartet nach der Anzahl: {}"),
    (
        "bit mask `{}` is read as decimal {dec} (${:02X}); some assemblers read it as ${digits}",
        "die Bitmaske `{}` wird dezimal gelesen, als {dec} (${:02X}); manche Assembler lesen sie als ${digits}",
    ),
    (
        "write `#${digits}` if you meant hexadecimal, or `#%...` for binary",
        "schreib `#${digits}`, wenn du hexadezimal meinst, oder `#%...` für binär",
    ),
    ("missing symbol name", "der Symbolname fehlt"),
    (
        "the condition of `.if` must be known here",
        "die Bedingung von `.if` muss hier schon bekannt sein",
    ),
    (
        "`.if` can use only symbols defined above it",
        "`.if` kann nur Symbole verwenden, die darüber definiert sind",
    ),
    (
        "missing file name after `include`",
        "nach `include` fehlt der Dateiname",
    ),
    ("`Section` needs a name", "`Section` braucht einen Namen"),
    (
        "write the section's name in column 1: `RomSection Section`",
        "schreib den Namen der Section in Spalte 1: `RomSection Section`",
    ),
    (
        "missing section name after `switch`",
        "nach `switch` fehlt der Name der Section",
    ),
    ("no section named `{}`", "keine Section namens `{}`"),
    ("declare it first: `NAME Section`", "deklarier sie zuerst: `NAME Section`"),
    ("address after `org`", "Adresse nach `org`"),
    ("value after `{word}`", "Wert nach `{word}`"),
    ("`{word}` needs a name", "`{word}` braucht einen Namen"),
    (
        "write the name in column 1: `NAME equ value`",
        "schreib den Namen in Spalte 1: `NAME equ value`",
    ),
    ("size after `{word}`", "Größe nach `{word}`"),
    ("missing data after `{word}`", "nach `{word}` fehlen die Daten"),
    ("start address", "Startadresse"),
    ("undefined symbol `{}`", "undefiniertes Symbol `{}`"),
    (
        "define it with a label in column 1 or `{} equ value`",
        "definiere es mit einem Label in Spalte 1 oder mit `{} equ value`",
    ),
    (
        "`org` address {} is out of range",
        "die `org`-Adresse {} liegt außerhalb des Bereichs",
    ),
    ("addresses are $0000-$FFFF", "Adressen gehen von $0000 bis $FFFF"),
    (
        "cannot reserve a negative number of bytes ({n})",
        "eine negative Anzahl von Bytes lässt sich nicht reservieren ({n})",
    ),
    (
        "this line runs past $FFFF (it starts at {})",
        "diese Zeile reicht über $FFFF hinaus (sie beginnt bei {})",
    ),
    (
        "memory ends at $FFFF; check the `org` above and the sizes of `ds` lines",
        "der Speicher endet bei $FFFF; prüf das `org` darüber und die Größen der `ds`-Zeilen",
    ),
    ("-128..255 ($00-$FF)", "-128..255 ($00-$FF)"),
    ("-32768..65535 ($0000-$FFFF)", "-32768..65535 ($0000-$FFFF)"),
    (
        "value {} does not fit in a {what}; {} is stored",
        "der Wert {} passt nicht in ein {what}; gespeichert wird {}",
    ),
    ("a {what} holds {range}", "ein {what} fasst {range}"),
    (
        "the value of `{}` does not settle",
        "der Wert von `{}` kommt nicht zur Ruhe",
    ),
    (
        "it depends on addresses that depend on it; use a constant size or move the definition",
        "er hängt von Adressen ab, die von ihm abhängen; nimm eine feste Größe oder verschieb die Definition",
    ),
    (
        "`{}` is defined in terms of itself",
        "`{}` ist durch sich selbst definiert",
    ),
    (
        "`{}` depends on `{}`, which depends on `{}`",
        "`{}` hängt von `{}` ab, und das hängt von `{}` ab",
    ),
    (
        "this value depends on `{}`, whose address depends on this line",
        "dieser Wert hängt von `{}` ab, dessen Adresse von dieser Zeile abhängt",
    ),
    ("break the cycle with a constant", "durchbrich den Kreis mit einer Konstanten"),
    (
        "bytes at ${from:04X}-${:04X} are already used",
        "die Bytes bei ${from:04X}-${:04X} sind schon belegt",
    ),
    (
        "{where_a} put bytes there first; check the `org` lines and section sizes",
        "zuerst hat {where_a} dort Bytes abgelegt; prüf die `org`-Zeilen und die Größen der Sections",
    ),
    (
        "a macro cannot define another macro",
        "ein Makro kann kein weiteres Makro definieren",
    ),
    ("`macro` needs a name", "`macro` braucht einen Namen"),
    (
        "write the name in column 1: `NAME macro`",
        "schreib den Namen in Spalte 1: `NAME macro`",
    ),
    (
        "`{}` is an instruction or directive and cannot be a macro's name",
        "`{}` ist ein Befehl oder eine Direktive und kann kein Makroname sein",
    ),
    (
        "macro `{}` is defined twice (first at {})",
        "das Makro `{}` ist zweimal definiert (zuerst bei {})",
    ),
    ("this macro has no `endm`", "zu diesem Makro fehlt das `endm`"),
    (
        "end the definition with a line `endm` in the same file",
        "beende die Definition mit einer Zeile `endm` in derselben Datei",
    ),
    ("`endm` without `macro`", "`endm` ohne `macro`"),
    ("`{name}` takes no operand", "`{name}` hat keinen Operanden"),
    (
        "macros expand more than {MAX_DEPTH} levels deep here",
        "die Makros werden hier mehr als {MAX_DEPTH} Ebenen tief aufgelöst",
    ),
    ("does `{name}` use itself?", "verwendet `{name}` sich selbst?"),
    (
        "{} arguments; a macro takes at most {MAX_ARGS}",
        "{} Argumente; ein Makro nimmt höchstens {MAX_ARGS}",
    ),
    ("`{n}` {c} times", "`{n}` {c}-mal"),
    (" (through {})", " (über {})"),
    (
        "expanded from the macro `{outer}` used at {}{through}",
        "entstanden aus dem Makro `{outer}`, verwendet bei {}{through}",
    ),
    (
        "cannot read `{code_path}`: file not found",
        "`{code_path}` ist nicht lesbar: die Datei gibt es nicht",
    ),
    (
        "cannot read `{code_path}`: {msg}",
        "`{code_path}` ist nicht lesbar: {msg}",
    ),
    (
        "`{code_path}` is too large ({size} bytes; the limit is {limit} bytes)",
        "`{code_path}` ist zu groß ({size} Bytes; die Grenze ist {limit} Bytes)",
    ),
    (
        "assembler sources are small text files; is this the right file?",
        "Assembler-Quelltexte sind kleine Textdateien; ist das die richtige Datei?",
    ),
    (
        "`{code_path}` is not a text file ({why})",
        "`{code_path}` ist keine Textdatei ({why})",
    ),
    (
        "include only assembler source text (.asm, .inc)",
        "binde nur Assembler-Quelltext ein (.asm, .inc)",
    ),
    (
        "including `{shown}` makes the sources larger than {} bytes in total",
        "mit `{shown}` werden die Quelltexte zusammen größer als {} Bytes",
    ),
    (
        "`{}` is outside `{root}`, the folder of the main source file",
        "`{}` liegt außerhalb von `{root}`, dem Ordner der Hauptdatei",
    ),
    (
        "includes must stay inside the main file's folder (or below it); copy the file there",
        "eingebundene Dateien müssen im Ordner der Hauptdatei (oder darunter) liegen; kopier die Datei dorthin",
    ),
    ("include file `{}` not found", "die eingebundene Datei `{}` gibt es nicht"),
    (
        "include files from the main file's folder, with a path relative to it",
        "binde Dateien aus dem Ordner der Hauptdatei ein, mit einem Pfad relativ zu ihm",
    ),
    ("include cycle", "Einbindung im Kreis"),
    ("{} includes itself again", "{} bindet sich wieder selbst ein"),
    (
        "use `.ifndef NAME` / `NAME equ 1` / `.endif` as an include guard, or remove the include",
        "nimm `.ifndef NAME` / `NAME equ 1` / `.endif` als Schutz vor doppelter Einbindung, oder lösch das `include`",
    ),
    (
        "includes nest deeper than {} files",
        "die Einbindungen sind tiefer als {} Dateien verschachtelt",
    ),
    ("file not found", "die Datei gibt es nicht"),
    (
        "file is {size} bytes, more than the limit of {limit} bytes",
        "die Datei hat {size} Bytes, mehr als die Grenze von {limit} Bytes",
    ),
    ("not a text file ({0})", "keine Textdatei ({0})"),
    ("is a folder, not a file", "ist ein Ordner, keine Datei"),
    (
        "it is UTF-16 text; save it as UTF-8 (or ANSI/Latin-1)",
        "es ist UTF-16-Text; speichere ihn als UTF-8 (oder ANSI/Latin-1)",
    ),
    ("NUL byte at offset {pos}", "NUL-Byte bei Offset {pos}"),
    ("{controls} control characters", "{controls} Steuerzeichen"),
    (
        "this file looks like GNU as source: GNU directives ({}); hc11lab reads the course, AS11 and ASM11 dialects, not binutils' syntax",
        "diese Datei sieht nach einem Quelltext für GNU as aus: GNU-Direktiven ({}); hc11lab liest den Kurs-Dialekt, AS11 und ASM11, nicht die Syntax von binutils",
    ),
    (
        "assemble and link it with m68hc11-as and m68hc11-ld (binutils-m68hc1x), then open the ELF file: `hc11lab run prog.elf` (its symbols come along, and its source lines with `as -g`)",
        "assembliere und linke sie mit m68hc11-as und m68hc11-ld (binutils-m68hc1x) und öffne dann die ELF-Datei: `hc11lab run prog.elf` (ihre Symbole kommen mit, mit `as -g` auch ihre Quelltextzeilen)",
    ),
    (
        "read as this dialect it has {errors} errors",
        "in diesem Dialekt gelesen hat sie {errors} Fehler",
    ),
    (
        "this file looks like {} source: {}; assemble with --dialect {}",
        "diese Datei sieht nach {}-Quelltext aus: {}; assembliere mit --dialect {}",
    ),
    (
        "read as the course dialect it has {course_errors} errors; as {} {}",
        "im Kurs-Dialekt gelesen hat sie {course_errors} Fehler, als {} {}",
    ),
    ("free-text comments after operands", "freie Kommentare nach den Operanden"),
    ("{} directives ({})", "{}-Direktiven ({})"),
    ("this file", "dieser Datei"),
    (
        "{n} more errors in {name} not shown (the first {MAX_ERRORS_PER_FILE} are)",
        "{n} weitere Fehler in {name} nicht gezeigt (die ersten {MAX_ERRORS_PER_FILE} stehen oben)",
    ),
    (
        "fix these first: later errors often follow from earlier ones",
        "behebe zuerst diese: spätere Fehler folgen oft aus früheren",
    ),
];

/// Words and names the assembler puts into its messages as values (the
/// kind of value, an addressing mode's name), with their German.
pub const WORDS: &[(&str, &str)] = &[
    ("byte", "Byte"),
    ("word", "Wort"),
    ("condition", "Bedingung"),
    ("address", "Adresse"),
    ("none", "keine"),
    ("immediate", "unmittelbar"),
    ("extended", "erweitert"),
    ("inherent", "inhärent"),
    ("immediate (8-bit)", "unmittelbar (8 Bit)"),
    ("immediate (16-bit)", "unmittelbar (16 Bit)"),
    ("direct", "direkt"),
    ("indexed X", "indiziert X"),
    ("indexed Y", "indiziert Y"),
    ("relative", "relativ"),
    ("bit direct", "Bit direkt"),
    ("bit indexed X", "Bit indiziert X"),
    ("bit indexed Y", "Bit indiziert Y"),
    ("bit-branch direct", "Bit-Branch direkt"),
    ("bit-branch indexed X", "Bit-Branch indiziert X"),
    ("bit-branch indexed Y", "Bit-Branch indiziert Y"),
    ("#-directives", "#-Direktiven"),
];

/// Text in the assembler's code with a space in it that is no message a
/// student reads as prose: output formats, code, and the beginnings of
/// messages other code looks for. The test `asm_german` accepts these
/// without German.
pub const NOT_MESSAGES: &[&str] = &[
    // Code the ASM11 dialect expands to.
    "addd #1",
    "subd #1",
    // How a diagnostic is laid out (the words in it are translated by
    // [`translate_rendered`]).
    "{}[{}]: {}\n",
    "{pad}--> {}:{line}:{col}\n",
    "{pad} |\n",
    "{line} | {}\n",
    "{pad} | {}{}\n",
    "{pad} = help: {hint}\n",
    "{n} {word}",
    "{n} {word}s",
    "{head}: {}, {}\n",
    // A value as the messages show it: `$0100 (256)`.
    "${v:02X} ({v})",
    "${v:04X} ({v})",
    // A comment line of the macros' virtual file, and its name.
    "; {name} at {from}",
    "{main} (macros)",
    // Beginnings of messages that the dialect triage looks for.
    "unknown mnemonic `",
    "unexpected ",
    "expected `,`",
    "a label must start",
];

/// The German of one message or hint of the assembler; `None` if no
/// template of [`MESSAGES`] fits it (then it stays English).
pub fn german(message: &str) -> Option<String> {
    translate_message(message, 0).map(|(text, _)| text)
}

/// Values of `message` that stayed English prose in its German (a value
/// with words that is no message or word of the assembler), or the whole
/// message if no template fits. Empty: fully German. For the tests.
pub fn untranslated(message: &str) -> Vec<String> {
    match translate_message(message, 0) {
        Some((_, left)) => left,
        None => vec![message.to_string()],
    }
}

/// Translates the assembler's diagnostics rendered in `text` (by
/// [`render`] or [`super::diagnostics::render_all`], also inside a longer
/// text such as a grader's feedback): the `error[E....]: ` and
/// `warning[W....]: ` lines, the `= help: ` lines and the summary line.
/// Other lines are left as they are.
pub fn translate_rendered(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&translate_line(line));
    }
    out
}

/// A diagnostic rendered as [`render`] does, in German.
pub fn render_german(diag: &Diagnostic, files: &[SourceFile]) -> String {
    translate_rendered(&render(diag, files))
}

fn translate_line(line: &str) -> String {
    for (en, de) in [("error[", "Fehler["), ("warning[", "Warnung[")] {
        if let Some(rest) = line.strip_prefix(en) {
            if let Some((code, message)) = rest.split_once("]: ") {
                let message = german(message).unwrap_or_else(|| message.to_string());
                return format!("{de}{code}]: {message}");
            }
        }
    }
    let indent = line.len() - line.trim_start().len();
    if let Some(hint) = line.trim_start().strip_prefix("= help: ") {
        let hint = german(hint).unwrap_or_else(|| hint.to_string());
        return format!("{}= Hilfe: {hint}", &line[..indent]);
    }
    summary(line).unwrap_or_else(|| line.to_string())
}

/// `error: 2 errors, 1 warning` in German.
fn summary(line: &str) -> Option<String> {
    let (head, rest) = line.split_once(": ")?;
    let head = match head {
        "error" => "Fehler",
        "warning" => "Warnung",
        _ => return None,
    };
    let (errors, warnings) = rest.split_once(", ")?;
    let count = |part: &str, one: &str, many: &str| -> Option<String> {
        let (n, word) = part.split_once(' ')?;
        let n: usize = n.parse().ok()?;
        (word == one || word == many).then_some(n)?;
        Some(n.to_string())
    };
    let e = count(errors, "error", "errors")?;
    let w = count(warnings, "warning", "warnings")?;
    let w_word = if w == "1" { "Warnung" } else { "Warnungen" };
    Some(format!("{head}: {e} Fehler, {w} {w_word}"))
}

/// A piece of a message template.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    /// Text as it is.
    Text(String),
    /// A placeholder: its name (empty for `{}`), as written before any `:`.
    Hole(String),
}

/// Splits a `format!` template into text and placeholders (`{{`, `}}`
/// are braces).
fn pieces(template: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut inner = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    inner.push(c);
                }
                if !text.is_empty() {
                    out.push(Piece::Text(std::mem::take(&mut text)));
                }
                let name = inner.split(':').next().unwrap_or("").trim().to_string();
                out.push(Piece::Hole(name));
            }
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    out
}

/// Every way `text` fits `pieces`: the placeholders' values, in order.
fn fits<'a>(pieces: &[Piece], text: &'a str) -> Vec<Vec<&'a str>> {
    match pieces.split_first() {
        None => {
            if text.is_empty() {
                vec![Vec::new()]
            } else {
                Vec::new()
            }
        }
        Some((Piece::Text(t), rest)) => match text.strip_prefix(t.as_str()) {
            Some(r) => fits(rest, r),
            None => Vec::new(),
        },
        Some((Piece::Hole(_), rest)) => {
            let mut out = Vec::new();
            match rest.first() {
                // A placeholder at the end takes the rest.
                None => out.push(vec![text]),
                Some(Piece::Text(next)) => {
                    for (at, _) in text.match_indices(next.as_str()) {
                        for mut tail in fits(rest, &text[at..]) {
                            tail.insert(0, &text[..at]);
                            out.push(tail);
                        }
                    }
                }
                // Two placeholders side by side: the first may take any
                // prefix (rare, and short).
                Some(Piece::Hole(_)) => {
                    for at in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
                        for mut tail in fits(rest, &text[at..]) {
                            tail.insert(0, &text[..at]);
                            out.push(tail);
                        }
                    }
                }
            }
            out
        }
    }
}

/// True for a value that reads as code, a number or a name rather than
/// English: outside backticks, one token alone, or no word of letters
/// among several (`$C0DC (49372)`).
fn is_code(value: &str) -> bool {
    let outside: String = value
        .split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, p)| p)
        .collect::<Vec<_>>()
        .join("`");
    let tokens: Vec<&str> = outside.split_whitespace().collect();
    let is_word = |t: &&str| {
        let w = t.trim_matches(|c: char| c.is_ascii_punctuation() && c != '$');
        w.chars().count() >= 2 && w.chars().all(char::is_alphabetic)
    };
    !(tokens.len() > 1 && tokens.iter().any(is_word))
}

/// Splits a list (`a, b (c, d), e`) at the commas outside brackets and
/// backticks.
fn list_items(value: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut code, mut start) = (0i32, false, 0usize);
    let bytes = value.as_bytes();
    for (i, c) in value.char_indices() {
        match c {
            '`' => code = !code,
            '(' if !code => depth += 1,
            ')' if !code => depth -= 1,
            ',' if !code && depth == 0 && bytes.get(i + 1) == Some(&b' ') => {
                out.push(&value[start..i]);
                start = i + 2;
            }
            _ => {}
        }
    }
    out.push(&value[start.min(value.len())..]);
    out
}

/// The German of a placeholder's value and the English prose left in it.
fn translate_value(value: &str, depth: usize) -> (String, Vec<String>) {
    if let Some((_, de)) = WORDS.iter().find(|(en, _)| *en == value) {
        return (de.to_string(), Vec::new());
    }
    if value.is_empty() || is_code(value) {
        return (value.to_string(), Vec::new());
    }
    if let Some(t) = translate_message(value, depth + 1) {
        return t;
    }
    let items = list_items(value);
    if items.len() > 1 {
        let mut left = Vec::new();
        let parts: Vec<String> = items
            .iter()
            .map(|item| {
                let (t, l) = translate_value(item, depth + 1);
                left.extend(l);
                t
            })
            .collect();
        return (parts.join(", "), left);
    }
    (value.to_string(), vec![value.to_string()])
}

/// The best German for `message`: the template whose fit leaves the least
/// English, among those with the most text of their own.
fn translate_message(message: &str, depth: usize) -> Option<(String, Vec<String>)> {
    if depth > 4 {
        return None;
    }
    let mut best: Option<(usize, usize, String, Vec<String>)> = None;
    for (en, de) in MESSAGES {
        let en_pieces = pieces(en);
        let quoted = quoted_holes(&en_pieces);
        for values in fits(&en_pieces, message) {
            let mut left = Vec::new();
            let translated: Vec<String> = values
                .iter()
                .zip(&quoted)
                .map(|(v, q)| {
                    if *q {
                        // Code in backticks: a name, kept as written.
                        return v.to_string();
                    }
                    let (t, l) = translate_value(v, depth);
                    left.extend(l);
                    t
                })
                .collect();
            let own: usize = en_pieces
                .iter()
                .map(|p| match p {
                    Piece::Text(t) => t.len(),
                    Piece::Hole(_) => 0,
                })
                .sum();
            let better = match &best {
                None => true,
                Some((b_left, b_own, ..)) => {
                    left.len() < *b_left || (left.len() == *b_left && own > *b_own)
                }
            };
            if better {
                let text = fill(de, &en_pieces, &translated);
                best = Some((left.len(), own, text, left));
            }
        }
    }
    best.map(|(_, _, text, left)| (text, left))
}

/// For each placeholder of a template: true if it stands in backticks
/// (`` `{}` ``), where its value is code.
fn quoted_holes(pieces: &[Piece]) -> Vec<bool> {
    let mut out = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        if let Piece::Hole(_) = p {
            let before = i
                .checked_sub(1)
                .and_then(|j| pieces.get(j))
                .is_some_and(|p| matches!(p, Piece::Text(t) if t.ends_with('`')));
            let after = pieces
                .get(i + 1)
                .is_some_and(|p| matches!(p, Piece::Text(t) if t.starts_with('`')));
            out.push(before && after);
        }
    }
    out
}

/// The German template `de` with the values of the English placeholders
/// `en` put in: by name, `{}` in order, or `{N}` by position.
fn fill(de: &str, en: &[Piece], values: &[String]) -> String {
    let names: Vec<&str> = en
        .iter()
        .filter_map(|p| match p {
            Piece::Hole(n) => Some(n.as_str()),
            Piece::Text(_) => None,
        })
        .collect();
    let positional: Vec<usize> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.is_empty())
        .map(|(i, _)| i)
        .collect();
    let mut next = 0usize;
    let mut out = String::new();
    for p in pieces(de) {
        match p {
            Piece::Text(t) => out.push_str(&t),
            Piece::Hole(name) => {
                let index = if name.is_empty() {
                    let i = positional.get(next).copied();
                    next += 1;
                    i
                } else if let Ok(n) = name.parse::<usize>() {
                    Some(n)
                } else {
                    names.iter().position(|n| *n == name)
                };
                if let Some(v) = index.and_then(|i| values.get(i)) {
                    out.push_str(v);
                }
            }
        }
    }
    out
}

/// The placeholders of a template, by name (`{}` as the empty name), in
/// order. For the tests.
pub fn placeholders(template: &str) -> Vec<String> {
    pieces(template)
        .into_iter()
        .filter_map(|p| match p {
            Piece::Hole(n) => Some(n),
            Piece::Text(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_translated_with_its_values() {
        assert_eq!(
            german("undefined symbol `nowhere`").as_deref(),
            Some("undefiniertes Symbol `nowhere`")
        );
        assert_eq!(
            german("immediate value $0100 (256) is out of range").as_deref(),
            Some("Direktwert $0100 (256) liegt außerhalb des Bereichs")
        );
        assert_eq!(
            german("`staa` has no immediate addressing mode").as_deref(),
            Some("`staa` hat die Adressierungsart „unmittelbar“ nicht")
        );
        assert_eq!(
            german("`ldaa` can use: immediate (8-bit), direct, extended, indexed X, indexed Y")
                .as_deref(),
            Some("`ldaa` kann: unmittelbar (8 Bit), direkt, erweitert, indiziert X, indiziert Y")
        );
        assert_eq!(
            german("missing value after `set`").as_deref(),
            Some("es fehlt: Wert nach `set`")
        );
        assert_eq!(
            german("did you mean `ldaa`, `ldab`?").as_deref(),
            Some("meintest du `ldaa`, `ldab`?")
        );
        assert_eq!(
            german("this file looks like AS11 source: free-text comments after operands, AS11 directives (fcb, rmb); assemble with --dialect as11").as_deref(),
            Some("diese Datei sieht nach AS11-Quelltext aus: freie Kommentare nach den Operanden, AS11-Direktiven (fcb, rmb); assembliere mit --dialect as11")
        );
        assert!(untranslated("something the assembler never says").len() == 1);
    }

    #[test]
    fn a_rendered_diagnostic_reads_in_german() {
        let text = "error[E0004]: undefined symbol `foo`\n  --> a.asm:3:9\n   |\n 3 |  ldaa foo\n   |       ^^^\n   = help: did you mean `fo`?\n\nerror: 1 error, 2 warnings\n";
        assert_eq!(
            translate_rendered(text),
            "Fehler[E0004]: undefiniertes Symbol `foo`\n  --> a.asm:3:9\n   |\n 3 |  ldaa foo\n   |       ^^^\n   = Hilfe: meintest du `fo`?\n\nFehler: 1 Fehler, 2 Warnungen\n"
        );
    }

    #[test]
    fn german_placeholders_may_change_order() {
        let en = pieces("{} of {}");
        assert_eq!(
            fill("{1} von {0}", &en, &["a".into(), "b".into()]),
            "b von a"
        );
    }
}
