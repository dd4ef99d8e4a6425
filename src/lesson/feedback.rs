//! What `lesson check` adds to the grader's results for a student: the
//! checks' names and advice in German (`feedback.de.toml` beside
//! `assignment.toml`), the grader's own sentences in German, every address
//! it names followed by the source line there (`Input.inc:45 dc.b $41`), and
//! a failed LCD comparison as two text pictures side by side.
//!
//! The grader writes English; the German sentences below are matched by
//! pattern, phrase by phrase. A sentence without a pattern stays English
//! (the test `lesson_check_german` runs the shipped exercises and fails if
//! one slips through).

use super::i18n::Lang;
use crate::grade::frame::{Frame, Rect};
use crate::image::Program;
use regex::Regex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

/// File with the German names and advice of an exercise's checks.
pub const GERMAN_FILE: &str = "feedback.de.toml";

/// One check's German name and advice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Localized {
    /// The check's `name` in `assignment.toml` (the key).
    pub name: String,
    /// The German name shown instead.
    pub title: String,
    /// The German advice shown instead of `feedback`.
    pub feedback: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    check: Vec<Localized>,
}

/// The German texts of the exercise in `dir`, by check name (empty if it
/// has none). Err names the file and what is wrong.
pub fn load_german(dir: &Path) -> Result<BTreeMap<String, Localized>, String> {
    let path = dir.join(GERMAN_FILE);
    let text = match super::read_course_file(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let file: File = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for c in file.check {
        if out.insert(c.name.clone(), c).is_some() {
            return Err(format!("{}: a check is named twice", path.display()));
        }
    }
    Ok(out)
}

/// German for the grader's sentences, phrase by phrase, most specific first.
fn patterns() -> &'static [(Regex, &'static str)] {
    static P: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    P.get_or_init(|| {
        let table: &[(&str, &str)] = &[
            (r"after keys ``:", "nach dem Start:"),
            (r"after keys `([^`]*)`:", "nach den Tasten `$1`:"),
            (r"after the start:", "nach dem Start:"),
            (
                r"the program defines no symbol `([^`]+)`; the checks read it, so keep that name",
                "das Programm definiert kein Symbol `$1`; die Prüfungen lesen es, behalte also diesen Namen",
            ),
            (
                r"the program defines no `([^`]+)`; the checks read it, so keep that name from the starter code",
                "das Programm definiert kein `$1`; die Prüfungen lesen es, behalte also den Namen aus dem Ausgangsprogramm",
            ),
            (
                r"register (\w+) was (\$[0-9A-F]+) at the breakpoint and is (\$[0-9A-F]+) after the return",
                "Register $1 war am Haltepunkt $2 und ist nach der Rückkehr $3",
            ),
            (
                r"register (\w+) is (\$[0-9A-F]+), expected (\$[0-9A-F]+)",
                "Register $1 ist $2, erwartet $3",
            ),
            (
                r"flag (\w+) is (\d), expected (\d) \(CCR (\$[0-9A-F]+)\)",
                "Flag $1 ist $2, erwartet $3 (CCR $4)",
            ),
            (
                r"(\S+) differs in (\d+) byte\(s\); from (\S+) \((\$[0-9A-F]{4})\) on it is ([$0-9A-F ]+?), the reference has ([$0-9A-F ]+)",
                "$1 weicht in $2 Byte(s) ab; ab $3 ($4) steht dort $5, bei der Musterlösung $6",
            ),
            (
                r"(\S+) differs in (\d+) byte\(s\); from (\S+) \((\$[0-9A-F]{4})\) on it is ([$0-9A-F ]+?), expected ([$0-9A-F ]+)",
                "$1 weicht in $2 Byte(s) ab; ab $3 ($4) steht dort $5, erwartet $6",
            ),
            (
                r"(\S+) \((\$[0-9A-F]{4})\) is ([$0-9A-F ]+?), the reference has ([$0-9A-F ]+)",
                "$1 ($2) ist $3, bei der Musterlösung $4",
            ),
            (
                r"(\S+) \((\$[0-9A-F]{4})\) is ([$0-9A-F ]+?), expected ([$0-9A-F ]+)",
                "$1 ($2) ist $3, erwartet $4",
            ),
            (
                r"the LCD differs from the reference solution's in (\d+) pixel\(s\) of the whole LCD, first at x=(\d+), y=(\d+)",
                "das LCD weicht in $1 Pixel(n) vom LCD der Musterlösung ab (ganzes LCD), zuerst bei x=$2, y=$3",
            ),
            (
                r"the LCD differs from the reference solution's in (\d+) pixel\(s\) of the region (x=[0-9.]+, y=[0-9.]+), first at x=(\d+), y=(\d+)",
                "das LCD weicht im Ausschnitt $2 in $1 Pixel(n) vom LCD der Musterlösung ab, zuerst bei x=$3, y=$4",
            ),
            (
                r"the LCD differs from the expected picture in (\d+) pixel\(s\) of the whole LCD, first at x=(\d+), y=(\d+)",
                "das LCD weicht in $1 Pixel(n) vom erwarteten Bild ab (ganzes LCD), zuerst bei x=$2, y=$3",
            ),
            (
                r"the LCD differs from the expected picture in (\d+) pixel\(s\) of the region (x=[0-9.]+, y=[0-9.]+), first at x=(\d+), y=(\d+)",
                "das LCD weicht im Ausschnitt $2 in $1 Pixel(n) vom erwarteten Bild ab, zuerst bei x=$3, y=$4",
            ),
            (
                r"the last (\d+) key\(s\) changed (\d+) pixel\(s\) of the whole LCD, first at x=(\d+), y=(\d+); after them the screen must stay as it was",
                "die letzten $1 Taste(n) haben $2 Pixel des LCD geändert, zuerst bei x=$3, y=$4; danach muss der Bildschirm bleiben, wie er war",
            ),
            (
                r"the last (\d+) key\(s\) changed (\d+) pixel\(s\) of the region (x=[0-9.]+, y=[0-9.]+), first at x=(\d+), y=(\d+); after them the screen must stay as it was",
                "die letzten $1 Taste(n) haben im Ausschnitt $3 $2 Pixel geändert, zuerst bei x=$4, y=$5; danach muss der Bildschirm bleiben, wie er war",
            ),
            (
                r"the LCD differs in (\d+) pixel\(s\), first at x=(\d+), y=(\d+)",
                "das LCD weicht in $1 Pixel(n) ab, zuerst bei x=$2, y=$3",
            ),
            (
                r"the LCD's electronic volume is (\d+) \((\$[0-9A-F]+)\), expected (\d+) \(the byte after a \$81 command\)",
                "das Kontrastregister (electronic volume) des LCD ist $1 ($2), erwartet $3 (das Byte nach einem $$81-Kommando)",
            ),
            (
                r"the serial output was (.*), expected exactly (.*)",
                "die serielle Ausgabe war $1, erwartet genau $2",
            ),
            (
                r"the serial output was (.*), expected something containing (.*)",
                "die serielle Ausgabe war $1, erwartet etwas, das $2 enthält",
            ),
            (
                r"the serial output was (.*), expected text matching (/.*/)",
                "die serielle Ausgabe war $1, erwartet Text passend zu $2",
            ),
            (
                r"the serial output was (.*), expected what the reference sent, (.*)",
                "die serielle Ausgabe war $1, erwartet das, was die Musterlösung gesendet hat: $2",
            ),
            (
                r"illegal opcode ([$0-9A-F ]+) at (.+?): the CPU met bytes that are no instruction; is data in the code path, or a jump to a wrong address\?",
                "ungültiger Opcode $1 bei $2: die CPU ist auf Bytes gestoßen, die kein Befehl sind; liegen Daten im Programmablauf, oder springt ein Befehl an eine falsche Adresse?",
            ),
            (
                r"The `(.+?)` at (.+?) went there\.",
                "Dorthin führte `$1` bei $2.",
            ),
            // The replayed exit from the program's bytes (`ProgramExit`).
            (
                r"`rts` at (\$[0-9A-F]{4})((?: in \S+)?(?: \([^)]*\))?) returned there: it took (\$[0-9A-F]{4}) from the stack at (\$[0-9A-F]{4}), which is no return address a `jsr` left \(a push without its pull, or a pull too many, before the `rts`\?\)",
                "Dorthin ist `rts` bei $1$2 zurückgekehrt: es hat $3 vom Stack bei $4 genommen, und das ist keine Rücksprungadresse, die ein `jsr` hinterlassen hat (ein Push ohne sein Pull oder ein Pull zu viel vor dem `rts`?)",
            ),
            (
                r"`rti` at (\$[0-9A-F]{4})((?: in \S+)?(?: \([^)]*\))?) returned there with the return address it found on the stack \(does the handler leave the stack as the interrupt found it\?\)",
                "Dorthin ist `rti` bei $1$2 mit der Rücksprungadresse zurückgekehrt, die es auf dem Stack fand (hinterlässt der Handler den Stack so, wie der Interrupt ihn vorfand?)",
            ),
            (
                r"The program ran on into it from `([^`]+)` at (\$[0-9A-F]{4})((?: in \S+)?(?: \([^)]*\))?), its last instruction before it \(no jump or return went there\): is a `bra`, `jmp` or `rts` missing at the end of the code\?",
                "Das Programm ist von `$1` bei $2$3, seinem letzten Befehl davor, dort hineingelaufen (kein Sprung und kein Rücksprung führte dorthin): fehlt am Ende des Codes ein `bra`, `jmp` oder `rts`?",
            ),
            (
                r"`([^`]+)` at (\$[0-9A-F]{4})((?: in \S+)?(?: \([^)]*\))?) went there",
                "Dorthin führte `$1` bei $2$3",
            ),
            (
                r"the stack ran into the program: a push wrote to program memory at (.+?) \(instruction at (.+?)\); set the stack pointer into RAM \(`lds #\$3FFF`\) before the first jsr",
                "der Stack ist ins Programm gelaufen: ein Push hat bei $1 in den Programmspeicher geschrieben (Befehl bei $2); setz den Stackpointer vor dem ersten jsr ins RAM (`lds #$$3FFF`)",
            ),
            (
                r"write into program memory \(ROM\) at (.+?) by the instruction at (.+?); variables belong in RAM \(RamSection\)",
                "Schreibzugriff auf den Programmspeicher (ROM) bei $1 durch den Befehl bei $2; Variablen gehören ins RAM (RamSection)",
            ),
            (
                r"write to (\$[0-9A-F]{4}), where nothing is mapped, by the instruction at (.+)",
                "Schreibzugriff auf $1, wo nichts eingeblendet ist, durch den Befehl bei $2",
            ),
            (
                r"stack overflow: the stack pointer reached (\$[0-9A-F]{4}), below (\$[0-9A-F]{4}) \((.+?)\), so pushes overwrite the variables \(at (.+?)\); is a subroutine calling itself, or a push without its pull\?",
                "Stacküberlauf: der Stackpointer hat $1 erreicht, unter $2 ($3), Pushes überschreiben also die Variablen (bei $4); ruft sich eine Subroutine selbst auf, oder fehlt zu einem Push das Pull?",
            ),
            (r"the end of the variables, after `([^`]+)`", "das Ende der Variablen, nach `$1`"),
            (
                r"the CPU executed STOP at (.+?) and nothing wakes it",
                "die CPU hat bei $1 STOP ausgeführt, und nichts weckt sie auf",
            ),
            (
                r"stopped after (\d+) E-cycles \((\d+) ms of board time\), the cycle budget, at (.+?): ",
                "nach $1 E-Takten ($2 ms Board-Zeit), dem Taktbudget, bei $3 angehalten: ",
            ),
            (
                r"the program never became idle \(it kept writing to the LCD or the ports\); is there an endless loop, e\.g\. a branch back to the start instead of the main loop\?",
                "das Programm kam nie zur Ruhe (es schrieb ständig auf das LCD oder die Ports); gibt es eine Endlosschleife, z. B. einen Sprung zurück an den Anfang statt in die Hauptschleife?",
            ),
            (
                r"the program never became idle \(it kept writing to the LCD or the ports for (\d+) E-cycles after a key\); is there an endless loop, e\.g\. a branch back to the start instead of the main loop\?",
                "das Programm kam nie zur Ruhe (es schrieb nach einer Taste noch $1 E-Takte lang auf das LCD oder die Ports); gibt es eine Endlosschleife, z. B. einen Sprung zurück an den Anfang statt in die Hauptschleife?",
            ),
            (r"is there an endless loop\?", "gibt es eine Endlosschleife?"),
            (
                r"the program is stuck in a loop on itself at (.+?) \(`(.*)`\)",
                "das Programm hängt bei $1 in einer Schleife auf sich selbst (`$2`)",
            ),
            (
                r"the program is stuck in an endless loop at (.+?) \(`(.*)`\) that nothing can leave",
                "das Programm hängt bei $1 in einer Endlosschleife fest, die nichts verlassen kann (`$2`)",
            ),
            (
                r" At that point the stack pointer is (\$[0-9A-F]{4}), below (\$[0-9A-F]{4}) \((.+?)\): the stack lies among the variables, where their stores overwrite return addresses; set it above them \(`lds #\$3FFF`, the top of RAM\)",
                " Der Stackpointer steht da auf $1, unter $2 ($3): der Stack liegt zwischen den Variablen, deren Schreibbefehle Rücksprungadressen überschreiben; setz ihn darüber (`lds #$$3FFF`, das Ende des RAM)",
            ),
            (
                r"took (\d+) E-cycles, more than the (\d+) allowed",
                "brauchte $1 E-Takte, mehr als die erlaubten $2",
            ),
            (
                r"after the subroutine at `([^`]+)` returned \(stopped there at (.+?)\)",
                "nach der Rückkehr aus der Subroutine `$1` (dort angehalten bei $2)",
            ),
            (r"at the breakpoint `([^`]+)` \((.+?)\)", "am Haltepunkt `$1` ($2)"),
            (r", keys `([^`]*)`", ", Tasten `$1`"),
            (r", with (.+?) set at the breakpoint", ", mit $1 am Haltepunkt gesetzt"),
            (
                r"the program never stopped at the breakpoint `([^`]+)` \((.*?)\) with keys `([^`]*)` within (\d+) E-cycles",
                "das Programm hielt mit den Tasten `$3` innerhalb von $4 E-Takten nie am Haltepunkt `$1` ($2) an",
            ),
            (
                r"the program never stopped at the breakpoint `([^`]+)` \((.*?)\) after the start within (\d+) E-cycles",
                "das Programm hielt nach dem Start innerhalb von $3 E-Takten nie am Haltepunkt `$1` ($2) an",
            ),
            (
                r": it never got there; is the routine still called on this way\?",
                ": es kam nie dort an; wird die Routine auf diesem Weg noch aufgerufen?",
            ),
            (
                r": it got there (\d+) time\(s\), the condition held (\d+) time\(s\), but the breakpoint waits for that to happen (\d+) time\(s\)",
                ": es kam $1-mal dort an, die Bedingung galt $2-mal, der Haltepunkt wartet aber auf das $3. Mal",
            ),
            (
                r"before the breakpoint `([^`]+)` was reached \(with keys `([^`]*)`\): ",
                "bevor der Haltepunkt `$1` erreicht war (mit den Tasten `$2`): ",
            ),
            (
                r"before the breakpoint `([^`]+)` was reached \(after the start\): ",
                "bevor der Haltepunkt `$1` erreicht war (nach dem Start): ",
            ),
            (
                r"after the breakpoint `([^`]+)`, before the subroutine returned to (.+?): ",
                "nach dem Haltepunkt `$1`, bevor die Subroutine nach $2 zurückkehrte: ",
            ),
            (
                r"stopped at `([^`]+)`, but the subroutine did not return to (.+?) \(the return address on the stack\) within the budget of (\d+) E-cycles; does it end with rts, with as many pulls as pushes\?",
                "bei `$1` angehalten, aber die Subroutine kehrte innerhalb des Budgets von $3 E-Takten nicht nach $2 (die Rücksprungadresse auf dem Stack) zurück; endet sie mit rts, mit so vielen Pulls wie Pushes?",
            ),
            (
                r"(\d+) of (\d+) random games played exactly like the reference solution",
                "$1 von $2 Zufallspartien liefen genau wie bei der Musterlösung",
            ),
            (
                r"(\d+) of (\d+) random games \((\d+) moves of player 1\) kept every rule after every move",
                "$1 von $2 Zufallspartien ($3 Züge von Spieler 1) hielten nach jedem Zug alle Regeln ein",
            ),
            (r"first difference: game (\d+) differs ", "erster Unterschied: Partie $1 weicht ab "),
            (r"game (\d+) differs ", "Partie $1 weicht ab "),
            (r"keys from the start: ", "Tasten ab dem Start: "),
            (
                r"in move (\d+) \(player 1 drops in column (\d+)\)",
                "in Zug $1 (Spieler 1 wirft in Spalte $2)",
            ),
            (
                r"after move (\d+) \(player 1 drops in column (\d+)\)",
                "nach Zug $1 (Spieler 1 wirft in Spalte $2)",
            ),
            (r"in move (\d+) \(drop in column (\d+)\)", "in Zug $1 (Wurf in Spalte $2)"),
            (r"after move (\d+) \(drop in column (\d+)\)", "nach Zug $1 (Wurf in Spalte $2)"),
            (r"in move (\d+) \(([^)]*)\): ", "in Zug $1 ($2): "),
            (r"after move (\d+) \(([^)]*)\)", "nach Zug $1 ($2)"),
            (
                r"player 1 has (\d+) stone\(s\) after (\d+) drop\(s\) of its own: a stone went missing or landed for the wrong player",
                "Spieler 1 hat $1 Stein(e) nach $2 eigenen Würfen: ein Stein fehlt oder landete beim falschen Spieler",
            ),
            (
                r"player 1 has (\d+) stone\(s\) and player 2 (\d+): player 2 should have as many \(player 2 answers every stone\)",
                "Spieler 1 hat $1 Stein(e) und Spieler 2 $2: Spieler 2 sollte gleich viele haben (Spieler 2 antwortet auf jeden Stein)",
            ),
            (
                r"player 1 has (\d+) stone\(s\) and player 2 (\d+): player 2 should have as many or one fewer \(the players take turns, player 1 first\)",
                "Spieler 1 hat $1 Stein(e) und Spieler 2 $2: Spieler 2 sollte gleich viele oder einen weniger haben (die Spieler ziehen abwechselnd, Spieler 1 zuerst)",
            ),
            (
                r"the cell in column (\d+), row (\d+) \(board\+(\d+)\) holds (.+?): neither empty nor a stone",
                "das Feld in Spalte $1, Zeile $2 (board+$3) enthält $4: weder leer noch ein Stein",
            ),
            (
                r"column (\d+) has a stone in row (\d+) above an empty cell: stones fall to the bottom",
                "Spalte $1 hat in Zeile $2 einen Stein über einem leeren Feld: Steine fallen nach unten",
            ),
            (r"the buffer has (\d+) bytes, not 336", "der Buffer hat $1 Bytes, nicht 336"),
            (
                r"the last (\d+) game\(s\) were not played: (\d+) games already ran out of cycles",
                "die letzten $1 Partie(n) wurden nicht gespielt: $2 Partien haben ihr Taktbudget schon überschritten",
            ),
            (r"the program did not start \(see `([^`]+)`\)", "das Programm startete nicht (siehe `$1`)"),
            (r"first failure: ", "erster Fehler: "),
            (r"\bgame (\d+) ", "Partie $1 "),
            (r"^not run: ", "nicht ausgeführt: "),
            (r"while starting up: ", "beim Start: "),
            (r"reference solution: ", "Musterlösung: "),
            (r"(?m)^does not assemble:", "wird nicht assembliert:"),
            (
                r"(\S+) differs from the course's copy; it is provided by the course, so the course's (\S+) was used instead",
                "$1 weicht von der Kopie des Kurses ab; die Datei stellt der Kurs, daher wurde dessen $2 verwendet",
            ),
            (r"; the check stops there, so keep that name", "; die Prüfung hält dort an, behalte also diesen Namen"),
        ];
        table
            .iter()
            .filter_map(|(re, de)| Regex::new(re).ok().map(|r| (r, *de)))
            .collect()
    })
}

/// The grader's English `text` in `lang` (unchanged for English).
pub fn translate(text: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    let mut out = text.to_string();
    for (re, de) in patterns() {
        out = re.replace_all(&out, *de).into_owned();
    }
    out
}

/// Appends the source line to every `($ADDR)` the text names that `program`
/// has a line for: `button0+15 ($C2FF)` becomes
/// `button0+15 ($C2FF, Input.inc:45 `dc.b $41`)`.
pub fn with_source_lines(text: &str, program: &Program) -> String {
    static ADDR: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(re) = ADDR
        .get_or_init(|| Regex::new(r"\(\$([0-9A-F]{4})\)").ok())
        .as_ref()
    else {
        return text.to_string();
    };
    re.replace_all(text, |c: &regex::Captures<'_>| {
        let whole = c[0].to_string();
        let Ok(addr) = u16::from_str_radix(&c[1], 16) else {
            return whole;
        };
        let Some(entry) = program.line_at(addr) else {
            return whole;
        };
        let Some(file) = program.files.get(entry.file) else {
            return whole;
        };
        let name = file
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let code = file
            .line_text(entry.line)
            .map(|l| {
                l.split(';')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        if code.is_empty() {
            format!("(${addr:04X}, {name}:{})", entry.line)
        } else {
            format!("(${addr:04X}, {name}:{} `{code}`)", entry.line)
        }
    })
    .into_owned()
}

/// A picture of the `region` of `frame` in Braille characters (2 × 4
/// pixels per character), one string per text line.
pub fn braille(frame: &Frame, region: Rect) -> Vec<String> {
    let (x0, y0) = (region.x as usize, region.y as usize);
    let (w, h) = (region.w as usize, region.h as usize);
    // Dot bits of a Braille cell, by (dx, dy).
    const DOTS: [[u32; 4]; 2] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]];
    let mut lines = Vec::new();
    for cy in (0..h).step_by(4) {
        let mut line = String::new();
        for cx in (0..w).step_by(2) {
            let mut bits = 0u32;
            for (dx, col) in DOTS.iter().enumerate() {
                for (dy, bit) in col.iter().enumerate() {
                    let (x, y) = (x0 + cx + dx, y0 + cy + dy);
                    if cx + dx < w && cy + dy < h && x < 128 && y < 64 && frame.get(x, y) {
                        bits |= bit;
                    }
                }
            }
            line.push(char::from_u32(0x2800 + bits).unwrap_or(' '));
        }
        lines.push(line);
    }
    lines
}

/// The expected picture beside the student's, with headings in `lang`.
pub fn lcd_side_by_side(expected: &Frame, actual: &Frame, region: Rect, lang: Lang) -> String {
    let a = braille(expected, region);
    let b = braille(actual, region);
    let width = a.first().map_or(0, |l| l.chars().count());
    let (left, right) = match lang {
        Lang::De => ("erwartet", "dein LCD"),
        Lang::En => ("expected", "your LCD"),
    };
    let mut out = format!(
        "{left:<width$}   {right}  (x={}..{}, y={}..{})\n",
        region.x,
        u32::from(region.x) + u32::from(region.w) - 1,
        region.y,
        u32::from(region.y) + u32::from(region.h) - 1
    );
    for (l, r) in a.iter().zip(&b) {
        out.push_str(&format!("{l} | {r}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::stray::{ExitKind, ProgramExit};

    #[test]
    fn every_way_out_of_the_program_reads_in_german() {
        // $C000: rts, rti, jmp 0,x, nop, in `sub` of Main.asm.
        let code = [0x39u8, 0x3B, 0x6E, 0x00, 0x01];
        let program = crate::asm::assemble_source(
            "Main.asm",
            " org $C000\nsub rts\n rti\n jmp 0,x\n nop\n",
            &crate::asm::AsmOptions::default(),
        )
        .program
        .expect("assembles");
        let peek = |a: u16| {
            code.get(usize::from(a.wrapping_sub(0xC000)))
                .copied()
                .unwrap_or(0)
        };
        for (from, kind) in [
            (0xC000, ExitKind::Return),
            (0xC001, ExitKind::ReturnFromInterrupt),
            (0xC002, ExitKind::Jump),
            (0xC004, ExitKind::RanOn),
        ] {
            let exit = ProgramExit {
                from,
                to: 0x2AC0,
                sp: 0x00FC,
                stacked: 0x2AC0,
                kind,
            };
            let english = format!("illegal opcode $00 at $2AC0: the CPU met bytes that are no instruction; is data in the code path, or a jump to a wrong address? {}.", exit.describe(&peek, &program));
            let german = translate(&english, Lang::De);
            for word in [" the ", " it ", "went there", "returned", "ran on"] {
                assert!(!german.contains(word), "{word:?} left in: {german}");
            }
            assert!(german.contains("(Main.asm:"), "{german}");
        }
    }
}
