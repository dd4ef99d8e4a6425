//! The table of [`super`]: every message and hint of the assembler as
//! written in its code, with its German; the words it puts into them; and
//! the text with spaces in its code that is no message.

/// Every message and hint of the assembler as written in its code, with
/// its German. Placeholders in the German are the English ones by name
/// (`{mnemonic}`), `{}` in the English order, or `{N}` (the N-th
/// placeholder of the English, from 0) where German wants another order.
pub const MESSAGES: &[(&str, &str)] = &[
    ("a folder", "ein Ordner"),
    ("a fifo, device or socket", "ein FIFO, Gerät oder Socket"),
    ("the value does not fit in 64 bits", "der Wert passt nicht in 64 Bit"),
    (
        "values are 64-bit signed numbers; check the multiplications and sums here",
        "Werte sind vorzeichenbehaftete 64-Bit-Zahlen; prüf die Multiplikationen und Summen hier",
    ),
    (
        "macro `{name}` expands more than {MAX_DEPTH} levels deep here; its expansion stops",
        "das Makro `{name}` wird hier mehr als {MAX_DEPTH} Ebenen tief expandiert; seine Expansion endet",
    ),
    (
        "`{name}` uses itself, so its expansion never ends",
        "`{name}` verwendet sich selbst, seine Expansion endet also nie",
    ),
    (
        "macros may use other macros at most {MAX_DEPTH} levels deep",
        "Makros dürfen andere Makros höchstens {MAX_DEPTH} Ebenen tief verwenden",
    ),
    ("makes more than {} lines", "ergibt mehr als {} Zeilen"),
    ("takes longer than {:.1} s", "dauert länger als {:.1} s"),
    (
        "expanding the macro `{outer}` {what}; expansion stops here",
        "das Expandieren des Makros `{outer}` {what}; die Expansion endet hier",
    ),
    ("it stopped inside `{inner}`", "sie endete in `{inner}`"),
    (
        "a macro that uses another macro several times multiplies the lines at every level of nesting: is that meant?",
        "ein Makro, das ein anderes mehrmals verwendet, vervielfacht die Zeilen auf jeder Verschachtelungsebene: ist das so gewollt?",
    ),
    (
        "cannot include `{}`: it is {kind}, not a regular file",
        "`{}` kann nicht eingebunden werden: es ist {kind}, keine normale Datei",
    ),
    (
        "include a source file (`.inc`, `.asm`) by its name",
        "binde eine Quelltextdatei (`.inc`, `.asm`) mit ihrem Namen ein",
    ),
    ("this `{word}` has no `{endif}`", "zu diesem `{word}` fehlt das `{endif}`"),
    (
        "add `{endif}` before the end of the file",
        "ergänze `{endif}` vor dem Ende der Datei",
    ),
    (
        "{errors} more errors in {name} not shown (the first {MAX_ERRORS_PER_FILE} are)",
        "{errors} weitere Fehler in {name} nicht gezeigt (die ersten {MAX_ERRORS_PER_FILE} schon)",
    ),
    (
        "{warnings} more warnings in {name} not shown (the first {MAX_WARNINGS_PER_FILE} are)",
        "{warnings} weitere Warnungen in {name} nicht gezeigt (die ersten {MAX_WARNINGS_PER_FILE} schon)",
    ),
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
        "-2147483648..4294967295 ($00000000-$FFFFFFFF)",
        "-2147483648..4294967295 ($00000000-$FFFFFFFF)",
    ),
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
        "`{name}` needs a target address",
        "`{name}` braucht eine Zieladresse",
    ),
    (
        "`{name}` takes one address (no indexed operand)",
        "`{name}` nimmt eine Adresse (keinen indizierten Operanden)",
    ),
    ("write `{name} Label`", "schreib `{name} Label`"),
    ("`{name}` needs a value", "`{name}` braucht einen Wert"),
    ("write `{name} #value`", "schreib `{name} #Wert`"),
    (
        "missing counter after `next`",
        "nach `next` fehlt der Zähler",
    ),
    (
        "write `NAME next :temp,2` after `#temp`",
        "schreib `NAME next :temp,2` nach `#temp`",
    ),
    (
        "the counter after `next` must be a name (`:temp` or a `set` name)",
        "der Zähler nach `next` muss ein Name sein (`:temp` oder ein `set`-Name)",
    ),
    ("counter after `next`", "Zähler nach `next`"),
    ("step after the counter", "Schritt nach dem Zähler"),
    (
        "`next` needs a value known here",
        "`next` braucht einen hier bekannten Wert",
    ),
    (
        "set the counter above this line (`#temp 0` or `COUNTER set 0`)",
        "setz den Zähler über dieser Zeile (`#temp 0` oder `ZAEHLER set 0`)",
    ),
    ("size after the value", "Größe nach dem Wert"),
    ("cycle count", "Zyklenzahl"),
    (
        "macro `{name}` needs its parameter {n}",
        "das Makro `{name}` braucht seinen Parameter {n}",
    ),
    (
        "macro `{name}` needs its parameter {n} ({what})",
        "das Makro `{name}` braucht seinen Parameter {n} ({what})",
    ),
    (
        "`{expr}` in braces has no value here",
        "`{expr}` in geschweiften Klammern hat hier keinen Wert",
    ),
    (
        "the size after `equ value,` must be a number from 0 to 65535 known here",
        "die Größe nach `equ Wert,` muss eine hier bekannte Zahl von 0 bis 65535 sein",
    ),
    (
        "write the size as a number: `PORTB equ REGS+4,1`",
        "schreib die Größe als Zahl: `PORTB equ REGS+4,1`",
    ),
    (
        "missing file name after `#Uses`",
        "nach `#Uses` fehlt der Dateiname",
    ),
    (
        "`FCC {n},...` needs {n} characters after the comma",
        "`FCC {n},...` braucht {n} Zeichen nach dem Komma",
    ),
    (
        "write as many characters as the count says, or `FCC /text/`",
        "schreib so viele Zeichen, wie die Zahl sagt, oder `FCC /text/`",
    ),
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
    ("long", "Langwort"),
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
    "addd #~1~",
    "subd #1",
    "ldx #0",
    "ldy #0",
    "jmp ~1~",
    "bne *+5",
    "beq *+5",
    "bcs *+5",
    "bcc *+5",
    "blo *+5",
    "bhs *+5",
    "bls *+5",
    "bhi *+5",
    "blt *+5",
    "bge *+5",
    "ble *+5",
    "bgt *+5",
    "bpl *+5",
    "bmi *+5",
    "bvs *+5",
    "bvc *+5",
    // A repeated instruction (`lsra:4`) as it is expanded.
    "\t{name} {}",
    // How a diagnostic is laid out (the words in it are translated by
    // `translate_rendered`).
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
