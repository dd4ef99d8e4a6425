//! The window's labels, menus and messages in German: every label is
//! written in English in the code and looked up here (`tr(lang, "Run")`),
//! so a label without a German entry shows in English instead of failing;
//! the test `gui_i18n` finds such labels in the sources.

use crate::lesson::Lang;

/// `en` in `lang`: the German entry of the table, else `en` itself.
pub fn tr(lang: Lang, en: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::De => german(en).unwrap_or(en),
    }
}

/// `template` in `lang` with each `{}` replaced by the next of `args`, in
/// order (a German template keeps its placeholders in the English order).
/// Messages with values in them (status bar, link bar notes, tooltips) use
/// this; the table holds the template as written in the code.
pub fn trf(lang: Lang, template: &'static str, args: &[&dyn std::fmt::Display]) -> String {
    let mut out = String::new();
    let mut args = args.iter();
    let mut parts = tr(lang, template).split("{}");
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for part in parts {
        // A template with more `{}` than arguments shows the rest empty
        // rather than failing.
        if let Some(a) = args.next() {
            out.push_str(&a.to_string());
        }
        out.push_str(part);
    }
    out
}

/// A problem's severity (`error`, `warning`, `note` as the library names
/// them) in `lang`; an unknown word as it is.
pub fn severity_word(lang: Lang, severity: &str) -> &str {
    match severity {
        "error" => tr(lang, "error"),
        "warning" => tr(lang, "warning"),
        "note" => tr(lang, "note"),
        other => other,
    }
}

/// A problem's message in `lang`: the assembler's (`[E0004] message` and
/// `help:` lines) in German through [`crate::asm::german`]; other
/// messages as they are.
pub fn problem_text(lang: Lang, message: &str) -> String {
    if lang == Lang::En {
        return message.to_string();
    }
    message
        .lines()
        .map(|line| {
            if let Some(rest) = line.strip_prefix('[') {
                if let Some((code, text)) = rest.split_once("] ") {
                    if let Some(de) = crate::asm::german::german(text) {
                        return format!("[{code}] {de}");
                    }
                }
            }
            let indent = &line[..line.len() - line.trim_start().len()];
            if let Some(hint) = line.trim_start().strip_prefix("help: ") {
                let de = crate::asm::german::german(hint).unwrap_or_else(|| hint.to_string());
                return format!("{indent}Hilfe: {de}");
            }
            line.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The German of `en`, if the table has it.
pub fn german(en: &str) -> Option<&'static str> {
    GERMAN
        .iter()
        .find(|(e, _)| *e == en)
        .map(|(_, d)| *d)
        .or_else(|| super::editor::words::german(en))
}

/// English label -> German label.
pub const GERMAN: &[(&str, &str)] = &[
    ("Course", "Kurs"),
    ("Debugger", "Debugger"),
    ("Listing", "Listing"),
    ("Memory", "Speicher"),
    ("Serial", "Seriell"),
    ("Problems", "Probleme"),
    ("Board keys", "Tasten der Platine"),
    ("This board has no keys: type into the Serial tab.", "Diese Platine hat keine Tasten: Eingaben im Reiter Seriell."),
    ("This board has no LCD: the program's output is on the Serial tab.", "Diese Platine hat kein LCD: die Ausgabe des Programms steht im Reiter Seriell."),
    ("Keys go to the running program.", "Die Tasten gehen an das laufende Programm."),
    ("Paused: a key pressed now is held until the program runs (F5) and reads it.", "Angehalten: eine jetzt gedrückte Taste bleibt gedrückt, bis das Programm läuft (F5) und sie liest."),
    ("No program loaded.", "Kein Programm geladen."),
    ("File", "Datei"),
    ("Open file…", "Datei öffnen…"),
    ("Open folder…", "Ordner öffnen…"),
    ("Open bundled Viergewinnt", "Mitgeliefertes Viergewinnt öffnen"),
    ("Reload", "Neu laden"),
    ("Source dialect", "Quelltext-Dialekt"),
    ("Course (default)", "Kurs (Standard)"),
    ("AS11 (Motorola freeware)", "AS11 (Motorola-Freeware)"),
    ("ASM11 (full)", "ASM11 (vollständig)"),
    ("Save a copy of the sources…", "Kopie der Quelltexte speichern…"),
    ("Write the program's source files into a folder you choose and open that copy: edit it in your editor, the window reloads on every save.", "Schreibt die Quelltexte des Programms in einen Ordner deiner Wahl und öffnet diese Kopie: bearbeite sie in deinem Editor, das Fenster lädt nach jedem Speichern neu."),
    ("Recent", "Zuletzt geöffnet"),
    ("(none)", "(keine)"),
    ("Quit", "Beenden"),
    ("Debug", "Debuggen"),
    ("Breakpoints...", "Haltepunkte..."),
    ("The breakpoint list in the side column: add one with a hit count or a condition (`drawCell if [cellAddress].w == 136`, `readInput:3`)", "Die Haltepunktliste in der Seitenspalte: einen mit Trefferzahl oder Bedingung hinzufügen (`drawCell if [cellAddress].w == 136`, `readInput:3`)"),
    ("Go to label…", "Gehe zu Label…"),
    ("Record data flow (links)", "Datenfluss aufzeichnen (Verknüpfungen)"),
    ("Record which instruction stored and loaded every byte: what the links between listing, buffer and LCD are made of. Off, the machine runs several times faster; links then cover only what ran with recording on.", "Zeichnet auf, welcher Befehl jedes Byte geschrieben und gelesen hat: daraus bestehen die Verknüpfungen zwischen Listing, Puffer und LCD. Aus läuft die Maschine mehrfach schneller; die Verknüpfungen umfassen dann nur, was mit Aufzeichnung lief."),
    ("View", "Ansicht"),
    ("LCD page grid", "LCD-Seitenraster"),
    ("Frame time overlay", "Bildzeit-Anzeige"),
    ("Clear selection", "Auswahl aufheben"),
    ("Dark theme", "Dunkles Design"),
    ("Light theme", "Helles Design"),
    ("Text size", "Schriftgröße"),
    ("Language", "Sprache"),
    ("needs a loaded program", "braucht ein geladenes Programm"),
    ("Run", "Start"),
    ("Run / continue", "Starten / fortsetzen"),
    ("Pause", "Pause"),
    ("Step", "Schritt"),
    ("Step into", "Schritt hinein"),
    ("Over", "Über"),
    ("Step over", "Schritt über"),
    ("Out", "Heraus"),
    ("Step out", "Schritt heraus"),
    ("Step back", "Schritt zurück"),
    ("Step back: undo the last step or run", "Schritt zurück: den letzten Schritt oder Lauf rückgängig machen"),
    ("Reset", "Reset"),
    ("Reset the board", "Die Platine zurücksetzen"),
    ("Run speed", "Geschwindigkeit"),
    ("cycles", "Zyklen"),
    ("E-clock cycles since reset (2 MHz)", "E-Takt-Zyklen seit dem Reset (2 MHz)"),
    ("Lessons", "Lektionen"),
    ("Exercises", "Aufgaben"),
    ("The exercises need the course folder (`lessons/`): start hc11lab in the folder that holds it, or set HC11LAB_LESSONS to it.", "Die Aufgaben brauchen den Kursordner (`lessons/`): starte hc11lab in dem Ordner, der ihn enthält, oder setz HC11LAB_LESSONS darauf."),
    ("Pick an exercise", "Aufgabe wählen"),
    ("Exercise", "Aufgabe"),
    ("Open my copy", "Meine Kopie öffnen"),
    ("Start (copy the starter code)", "Beginnen (Startcode kopieren)"),
    ("Opened", "Geöffnet"),
    ("Your copy lives in this page (the browser's storage); bring in what you edited on your computer with Take files from my computer.", "Deine Kopie liegt in dieser Seite (im Speicher des Browsers); was du auf deinem Computer bearbeitet hast, holst du mit Dateien von meinem Computer holen herein."),
    ("Take files from my computer…", "Dateien von meinem Computer holen…"),
    ("Copy files from your computer (or a zip) into your copy; a file of the same name is replaced", "Dateien von deinem Computer (oder ein Zip) in deine Kopie kopieren; eine Datei gleichen Namens wird ersetzt"),
    ("Opened {}: a copy kept in the browser as {}.", "{} geöffnet: eine Kopie liegt im Browser als {}."),
    ("Download the sources (.zip)…", "Quelltexte herunterladen (.zip)…"),
    ("The program's source files in one zip, saved where you choose (in a browser: downloaded)", "Die Quelltexte des Programms in einem Zip, gespeichert, wo du wählst (im Browser: heruntergeladen)"),
    ("Saved {}.", "{} gespeichert."),
    ("Downloaded {}.", "{} heruntergeladen."),
    ("Not saved.", "Nicht gespeichert."),
    ("Files in the browser…", "Dateien im Browser…"),
    ("Files in the browser", "Dateien im Browser"),
    ("This page keeps {} KB in the browser's storage (about {} KB allowed).", "Diese Seite belegt {} KB im Speicher des Browsers (etwa {} KB erlaubt)."),
    ("Your files stay in this browser only: download what you want to keep elsewhere.", "Deine Dateien bleiben nur in diesem Browser: lade herunter, was du anderswo behalten willst."),
    ("Open", "Öffnen"),
    ("Download", "Herunterladen"),
    ("Really delete?", "Wirklich löschen?"),
    ("Delete", "Löschen"),
    ("Deleted {}.", "{} gelöscht."),
    ("Choose the files in the browser's dialog…", "Wähle die Dateien im Dialog des Browsers…"),
    ("Nothing copied: no file chosen.", "Nichts kopiert: keine Datei gewählt."),
    ("Copied into {}: {}.", "Kopiert nach {}: {}."),
    ("Check", "Prüfen"),
    ("Grade your copy with the course's checks (as the server does)", "Deine Kopie mit den Prüfungen des Kurses bewerten (wie der Server)"),
    ("Hand in", "Abgeben"),
    ("Write the zip of your sources to hand in", "Das Zip deiner Quelltexte zur Abgabe schreiben"),
    ("Hand-in zip written:", "Abgabe-Zip geschrieben:"),
    ("Your copy:", "Deine Kopie:"),
    ("Checking…", "Prüfe…"),
    ("Task", "Aufgabe"),
    ("Points:", "Punkte:"),
    ("ok", "ok"),
    ("failed", "nicht bestanden"),
    ("Go to label", "Gehe zu Label"),
    ("part of a name, then Enter", "Teil eines Namens, dann Enter"),
    ("No label contains that.", "Kein Label enthält das."),
    ("Grid", "Raster"),
    ("Show the 8-pixel pages and 8-column cells", "Die 8-Pixel-Seiten und 8-Spalten-Zellen zeigen"),
    ("Fit", "Einpassen"),
    ("zoom", "Zoom"),
    ("pixel", "Pixel"),
    ("selected", "ausgewählt"),
    ("hover or click a pixel", "auf ein Pixel zeigen oder klicken"),
    ("Select a pixel on the LCD, a byte in the cell buffer or memory, or a listing line: its partners light up in the other views.", "Wähle ein Pixel im LCD, ein Byte im Zellpuffer oder Speicher oder eine Listingzeile: ihre Partner leuchten in den anderen Ansichten auf."),
    ("Pixel", "Pixel"),
    ("Byte", "Byte"),
    ("Line", "Zeile"),
    ("bit", "Bit"),
    ("select this byte", "dieses Byte auswählen"),
    ("pixel(s)", "Pixel"),
    ("written by the instruction", "geschrieben vom Befehl"),
    ("read by the instruction", "gelesen vom Befehl"),
    ("value computed by", "Wert berechnet von"),
    ("go to this line", "zu dieser Zeile"),
    ("Recorded chain (each step from the next):", "Aufgezeichnete Kette (jeder Schritt stammt vom nächsten):"),
    ("No problems.", "Keine Probleme."),
    ("Send:", "Senden:"),
    ("text for the program's serial receiver", "Text für den seriellen Empfänger des Programms"),
    ("What Enter sends after the text", "Was Enter nach dem Text sendet"),
    ("Send", "Senden"),
    ("byte(s) sent", "Byte gesendet"),
    ("; they arrive while the program runs", "; sie kommen an, während das Programm läuft"),
    ("Nothing sent on the serial line yet.", "Noch nichts über die serielle Leitung gesendet."),
    ("Host port (ACIA)", "Host-Schnittstelle (ACIA)"),
    ("to", "an"),
    (
        "Where the line goes: the SCI (the terminal port) or the host port's ACIA",
        "Wohin die Zeile geht: zum SCI (der Terminal-Schnittstelle) oder zum ACIA der Host-Schnittstelle",
    ),
    ("Nothing sent on the host port yet.", "Noch nichts über die Host-Schnittstelle gesendet."),
    ("Registers", "Register"),
    ("Stop:", "Halt:"),
    ("No machine (nothing loaded).", "Keine Maschine (nichts geladen)."),
    ("Call stack", "Aufrufstapel"),
    ("(top level)", "(oberste Ebene)"),
    ("Breakpoints", "Haltepunkte"),
    ("Watch", "Beobachten"),
    ("Click the gutter left of a line, or F9, or add one below.", "Links neben eine Zeile klicken, F9 drücken oder unten einen hinzufügen."),
    ("Add breakpoint", "Haltepunkt hinzufügen"),
    ("Add", "Hinzufügen"),
    ("Add the breakpoint (Enter)", "Den Haltepunkt hinzufügen (Enter)"),
    ("unknown", "unbekannt"),
    ("remove watch", "Beobachtung entfernen"),
    ("symbol or $addr[:len]", "Symbol oder $adr[:länge]"),
    ("Run to cursor", "Bis zum Cursor laufen"),
    ("Toggle breakpoint", "Haltepunkt an/aus"),
    ("Reset board", "Platine zurücksetzen"),
    ("Real time (2 MHz)", "Echtzeit (2 MHz)"),
    ("x10", "x10"),
    ("As fast as possible", "So schnell wie möglich"),
    ("Next lesson", "Nächste Lektion"),
    ("This program has no `board` symbol, so there is no cell buffer to show.", "Dieses Programm hat kein Symbol `board`, also gibt es keinen Zellpuffer zu zeigen."),
    ("Cell buffer", "Zellpuffer"),
    ("(7 x 6 cells of 8 bytes; click a bit)", "(7 x 6 Zellen zu 8 Bytes; ein Bit anklicken)"),
    ("go to $addr / symbol", "gehe zu $adr / Symbol"),
    ("pause to edit", "zum Bearbeiten anhalten"),
    ("double-click a byte to edit", "Doppelklick auf ein Byte zum Bearbeiten"),
    ("Go to", "Gehe zu"),
    ("Toggle breakpoint at", "Haltepunkt an/aus bei"),
    ("Run to", "Laufen bis"),
    ("Show in memory", "Im Speicher zeigen"),
    ("No program loaded: File > Open, or see the Problems panel.", "Kein Programm geladen: Datei > Öffnen, oder siehe die Probleme."),
    ("No source files: the program's disassembly.", "Keine Quelldateien: die Disassemblierung des Programms."),
    // Status bar, run state and messages (templates: `{}` is a value).
    ("Viergewinnt (bundled)", "Viergewinnt (mitgeliefert)"),
    ("nothing loaded", "nichts geladen"),
    ("running", "läuft"),
    ("running to ${}", "läuft bis ${}"),
    ("stepping out", "läuft bis zum Rücksprung"),
    ("paused: {}", "angehalten: {}"),
    ("paused", "angehalten"),
    ("paused by you", "von dir angehalten"),
    ("reset", "Reset"),
    ("no subroutine to step out of (at top level)", "kein Unterprogramm zum Verlassen (oberste Ebene)"),
    ("${} is not RAM or program memory: not changed.", "${} ist weder RAM noch Programmspeicher: nicht geändert."),
    ("Running to ${}{}.", "Laufe bis ${}{}."),
    ("Run to cursor: select a listing line with code first (click its number).", "Bis zum Cursor laufen: zuerst eine Listingzeile mit Code wählen (auf ihre Nummer klicken)."),
    ("Recording data flow is off (Debug menu): links show only the buffer/LCD formula, not which lines stored or loaded a byte.", "Die Datenfluss-Aufzeichnung ist aus (Menü Debuggen): die Verknüpfungen zeigen nur die Puffer/LCD-Formel, nicht welche Zeilen ein Byte geschrieben oder gelesen haben."),
    ("Data flow recorded only since cycle {}, when recording was switched back on: bytes written earlier show no writer. Reset to record from power-on.", "Datenfluss erst seit Zyklus {} aufgezeichnet, als die Aufzeichnung wieder eingeschaltet wurde: früher geschriebene Bytes zeigen keinen Schreiber. Ein Reset zeichnet ab dem Einschalten auf."),
    ("Assembly failed: see Problems (click one to go to its line).", "Assemblieren fehlgeschlagen: siehe Probleme (eines anklicken, um zu seiner Zeile zu gehen)."),
    ("Not loaded: see Problems.", "Nicht geladen: siehe Probleme."),
    ("Reloaded: a source file changed on disk.", "Neu geladen: eine Quelldatei hat sich auf der Festplatte geändert."),
    ("No file chosen (or no file dialog available: pass the path on the command line, `hc11lab gui PATH`).", "Keine Datei gewählt (oder kein Dateidialog verfügbar: gib den Pfad auf der Kommandozeile an, `hc11lab gui PFAD`)."),
    ("Loaded {}.", "{} geladen."),
    (
        "Loaded {}, with {} warning(s): see Problems.",
        "{} geladen, mit {} Warnung(en): siehe Probleme.",
    ),
    ("nothing to save: the program has no source files", "nichts zu speichern: das Programm hat keine Quelldateien"),
    ("{} exists already: choose an empty folder (nothing was written)", "{} existiert schon: wähle einen leeren Ordner (nichts wurde geschrieben)"),
    ("Saved {} file(s) to {} and opened the copy: edit it in your editor, the window reloads when you save.", "{} Datei(en) nach {} gespeichert und die Kopie geöffnet: bearbeite sie in deinem Editor, das Fenster lädt beim Speichern neu."),
    ("No folder chosen (or no file dialog available).", "Kein Ordner gewählt (oder kein Dateidialog verfügbar)."),
    ("no program loaded", "kein Programm geladen"),
    ("Breakpoint #{} `{}` set.", "Haltepunkt #{} `{}` gesetzt."),
    ("Breakpoint at ${} removed.", "Haltepunkt bei ${} entfernt."),
    ("Breakpoint at ${}{}.", "Haltepunkt bei ${}{}."),
    ("Line {} has no code: no breakpoint there.", "Zeile {} hat keinen Code: dort kein Haltepunkt."),
    ("saved breakpoint dropped: {}", "gespeicherter Haltepunkt verworfen: {}"),
    ("error", "Fehler"),
    ("warning", "Warnung"),
    ("note", "Hinweis"),
    ("{} is not part of a loaded program (it did not assemble); open it in your editor at line {}.", "{} gehört zu keinem geladenen Programm (es ließ sich nicht assemblieren); öffne es in deinem Editor in Zeile {}."),
    // Listing tooltips.
    ("now: [{}].w = ${} = {}", "jetzt: [{}].w = ${} = {}"),
    ("now: [{}] = ${} = {} = %{}", "jetzt: [{}] = ${} = {} = %{}"),
    ("label", "Label"),
    ("constant", "Konstante"),
    (", {} bytes", ", {} Bytes"),
    ("defined at {}:{}", "definiert in {}:{}"),
    ("click: go to definition · right-click: break / run to", "Klick: zur Definition · Rechtsklick: Haltepunkt / laufen bis"),
    // Link bar notes.
    ("Pixel ({},{}) is off the display.", "Pixel ({},{}) liegt außerhalb des Displays."),
    ("LCD RAM page {} column {} bit {}", "LCD-RAM Seite {} Spalte {} Bit {}"),
    ("recorded: loaded from ${}, not where the cell layout puts it", "aufgezeichnet: geladen von ${}, nicht dort, wo die Zellaufteilung es vorsieht"),
    ("no recorded load from the cell buffer behind this pixel (yet); shown by the cell layout", "(noch) kein aufgezeichnetes Laden aus dem Zellpuffer hinter diesem Pixel; gezeigt nach der Zellaufteilung"),
    ("not drawn from the cell buffer (text or cursor)", "nicht aus dem Zellpuffer gezeichnet (Text oder Cursor)"),
    ("the cell buffer is unknown: the program names no `board` buffer (an image without symbols)", "der Zellpuffer ist unbekannt: das Programm nennt keinen Puffer `board` (ein Abbild ohne Symbole)"),
    ("drawn to LCD RAM page {} column {}", "gezeichnet in LCD-RAM Seite {} Spalte {}"),
    ("assembled to ${}: {}", "assembliert nach ${}: {}"),
    ("no recorded data flow: recording is off (Debug > Record data flow)", "kein aufgezeichneter Datenfluss: die Aufzeichnung ist aus (Debuggen > Datenfluss aufzeichnen)"),
    ("touched in the last run: {} buffer byte(s), {} pixel(s)", "im letzten Lauf berührt: {} Pufferbyte(s), {} Pixel"),
    ("nothing recorded for it yet: not written since the data flow recording started", "noch nichts dazu aufgezeichnet: seit Beginn der Datenfluss-Aufzeichnung nicht geschrieben"),
    ("bit {} = {} in the buffer and on the LCD", "Bit {} = {} im Puffer und auf dem LCD"),
    ("bit {} = {} in the buffer but {} on the LCD (not drawn since)", "Bit {} = {} im Puffer, aber {} auf dem LCD (seitdem nicht gezeichnet)"),
    // Board keys, LCD, cell buffer.
    ("drop", "Einwurf"),
    ("left", "links"),
    ("right", "rechts"),
    ("Space / Enter", "Leertaste / Enter"),
    ("Left arrow", "Pfeil links"),
    ("Right arrow", "Pfeil rechts"),
    ("R", "R"),
    ("Board key {} (PIO_B bit {})", "Taste {} der Platine (PIO_B Bit {})"),
    (", keyboard: {}", ", Tastatur: {}"),
    ("({},{}) page {} bit {}", "({},{}) Seite {} Bit {}"),
    ("Column {}, row {} @ ${}:", "Spalte {}, Zeile {} @ ${}:"),
    ("board: 7 columns x 6 rows x 8 bytes. Byte k of a cell is its column k, bit b is pixel row b (bit 0 on top). Cell address = column*8 + row*56.", "board: 7 Spalten x 6 Zeilen x 8 Bytes. Byte k einer Zelle ist ihre Spalte k, Bit b ist die Pixelzeile b (Bit 0 oben). Zelladresse = Spalte*8 + Zeile*56."),
    // Registers and the debugger column.
    ("{} = ${} = {} = signed {} = %{}", "{} = ${} = {} = mit Vorzeichen {} = %{}"),
    ("was ${} before the last step", "vor dem letzten Schritt ${}"),
    (" (changed)", " (geändert)"),
    ("Stop disable", "STOP gesperrt"),
    ("XIRQ mask", "XIRQ-Maske"),
    ("Half carry (from bit 3)", "Halbübertrag (aus Bit 3)"),
    ("IRQ mask", "IRQ-Maske"),
    ("Negative", "Negativ"),
    ("Zero", "Null"),
    ("Overflow (two's complement)", "Überlauf (Zweierkomplement)"),
    ("Carry / borrow", "Übertrag / Borgen"),
    (" from {}:{}", " aus {}:{}"),
    ("not trusted: {}", "unsicher: {}"),
    ("{} frame; returns to {} (${})", "{}-Rahmen; kehrt zurück nach {} (${})"),
    ("go to its line", "zu seiner Zeile"),
    ("hits {}", "Treffer {}"),
    ("times it was reached with its condition true; stops from hit {} on", "wie oft er mit wahrer Bedingung erreicht wurde; hält ab Treffer {}"),
    ("times it was reached with its condition true", "wie oft er mit wahrer Bedingung erreicht wurde"),
    ("delete this breakpoint", "diesen Haltepunkt löschen"),
    ("LOC[:N][ if COND], Enter to apply. LOC: label[+n], $addr or file:line; :N stops from the Nth hit on; COND e.g. A == 3, [cellAddress].w == 136", "ORT[:N][ if BED], Enter übernimmt. ORT: Label[+n], $adr oder Datei:Zeile; :N hält ab dem N-ten Treffer; BED z. B. A == 3, [cellAddress].w == 136"),
    // Stop reasons (src/ui/debug_words.rs).
    ("stepped; next instruction at {}", "Schritt ausgeführt; nächster Befehl bei {}"),
    ("the frame of {} was abandoned (stack moved by hand); now at {}", "der Rahmen von {} wurde verlassen (Stack von Hand verschoben); jetzt bei {}"),
    ("returned from {} to {} instead of {} (the stack was changed by hand)", "aus {} nach {} statt nach {} zurückgekehrt (der Stack wurde von Hand geändert)"),
    ("read ${} from ${}", "las ${} aus ${}"),
    ("wrote ${} (was ${}) to ${}", "schrieb ${} (vorher ${}) nach ${}"),
    ("watchpoint #{}: the instruction at {} {}", "Beobachtungspunkt #{}: der Befehl bei {} {}"),
    ("illegal opcode {} at {}; stopped before it: nothing ran, nothing was stacked (continue to take the trap through $FFF8)", "ungültiger Opcode {} bei {}; davor angehalten: nichts lief, nichts wurde gestapelt (Fortsetzen nimmt den Trap über $FFF8)"),
    ("program memory", "den Programmspeicher"),
    ("unmapped memory", "unbelegten Speicher"),
    ("the instruction at {} writes ${} to {} ${}; stopped before it took effect (continue to run it as the chip does: the byte is not stored)", "der Befehl bei {} schreibt ${} in {} ${}; angehalten, bevor er wirkte (Fortsetzen führt ihn wie der Chip aus: das Byte wird nicht gespeichert)"),
    ("the keys (PIO_B)", "die Tasten (PIO_B)"),
    ("serial input (SCSR.RDRF)", "serielle Eingabe (SCSR.RDRF)"),
    ("Pane", "Bereich"),
    ("key script done, program waits for input: {}; at {}", "Tastenskript fertig, das Programm wartet auf Eingabe: {}; bei {}"),
    ("script done (no keys), program waits for input: {}; at {}", "Skript fertig (ohne Tasten), das Programm wartet auf Eingabe: {}; bei {}"),
    ("the program settled and waits for input: {}; at {}", "Das Programm ist zur Ruhe gekommen und wartet auf Eingabe: {}; bei {}"),
    ("halted: WAI with no interrupt that could end it", "angehalten: WAI ohne Interrupt, der es beenden könnte"),
    ("halted: STOP with nothing that could end it", "angehalten: STOP, und nichts kann es beenden"),
    ("halted: an endless loop that nothing can leave", "angehalten: eine Endlosschleife, die nichts verlassen kann"),
    ("at {}", "bei {}"),
    ("breakpoint #{} `{}` hit (hit {}) at {}", "Haltepunkt #{} `{}` erreicht ({}. Treffer) bei {}"),
    ("returned from {} to {}", "zurück aus {} nach {}"),
    ("reached {} (${})", "{} erreicht (${})"),
    ("ran {} E-cycles without stopping; paused at {}", "{} E-Zyklen ohne Halt gelaufen; angehalten bei {}"),
    ("reached the oldest state kept (start of history)", "ältester gespeicherter Zustand erreicht (Anfang des Verlaufs)"),
    ("{} at ${}, 1 byte", "{} bei ${}, 1 Byte"),
    ("{} at ${}, {} bytes", "{} bei ${}, {} Bytes"),
    ("{} at ${}", "{} bei ${}"),
    ("new value for ${} (hex)", "neuer Wert für ${} (hex)"),
    ("cycles {}  ·  instructions {}", "Zyklen {}  ·  Befehle {}"),
    // Links of a recorded chain (src/ui/debug_words.rs).
    ("`{}` at {}", "`{}` bei {}"),
    ("${} stored to {} by {}", "${} gespeichert nach {} durch {}"),
    ("${} pushed to the stack at {} by {}", "${} auf den Stapel gelegt bei {} durch {}"),
    ("${} loaded from {} by {}", "${} geladen aus {} durch {}"),
    ("${} read from device register {} by {}", "${} gelesen aus dem Geräteregister {} durch {}"),
    ("${} is a constant of {}", "${} ist eine Konstante von {}"),
    ("${} computed by {}", "${} berechnet von {}"),
    ("a register value from before tracking started (or from reset)", "ein Registerwert von vor Beginn der Aufzeichnung (oder vom Reset)"),
    ("no data byte reached this display RAM byte since tracking began", "seit Beginn der Aufzeichnung hat kein Datenbyte dieses Display-RAM-Byte erreicht"),
    ("older history was dropped to bound memory", "ältere Geschichte wurde verworfen, um den Speicher zu begrenzen"),
    ("on", "an"),
    ("off", "aus"),
    ("pixel ({},{}) is bit {} of display RAM page {}, column {}: ${} (pixel {})", "Pixel ({},{}) ist Bit {} von Display-RAM Seite {}, Spalte {}: ${} (Pixel {})"),
    (" with the constant {}", " mit der Konstanten {}"),
    (" with {} from {}", " mit {} aus {}"),
    (" with {} computed at {}", " mit {}, berechnet bei {}"),
    ("${} at {} is part of the program image, unchanged since loading", "${} bei {} ist Teil des Programmabbilds, unverändert seit dem Laden"),
    ("${} at {} was not written since tracking began", "${} bei {} wurde seit Beginn der Aufzeichnung nicht geschrieben"),
    // Course folders that did not load.
    ("{} course folder(s) left out: they did not load", "{} Kursordner ausgelassen: sie ließen sich nicht laden"),
    ("Fix the file at the place shown (the message says what the parser expected), then reload the course. The other lessons and exercises work meanwhile.", "Korrigiere die Datei an der gezeigten Stelle (die Meldung sagt, was der Parser erwartet hat) und lade den Kurs neu. Die anderen Lektionen und Aufgaben funktionieren solange."),
    ("Reload course", "Kurs neu laden"),
    // The lab bench (src/ui/bench_panel.rs).
    ("Bench", "Laborplatz"),
    ("A/D inputs (port E)", "A/D-Eingänge (Port E)"),
    ("A potentiometer on each input, VRL 0 V to VRH 5 V: the converter reads the voltage when it samples (ADCTL, OPTION ADPU).", "Ein Potentiometer an jedem Eingang, VRL 0 V bis VRH 5 V: der Wandler liest die Spannung, wenn er abtastet (ADCTL, OPTION ADPU)."),
    ("Logic analyser", "Logikanalysator"),
    ("Tick \"trace\" under a pin to see its level over time.", "Unter einem Pin \"aufzeichnen\" ankreuzen, um seinen Pegel über die Zeit zu sehen."),
    ("{}: {} edge(s) in the last {} ms", "{}: {} Flanke(n) in den letzten {} ms"),
    ("{} ms of machine time up to now (cycle {}); high is up.", "{} ms Maschinenzeit bis jetzt (Zyklus {}); High ist oben."),
    ("Port A pins", "Pins von Port A"),
    ("switch on PA{}: click to drive it {}", "Schalter an PA{}: klicken setzt ihn auf {}"),
    ("trace PA{}", "PA{} aufzeichnen"),
    ("PA0: input capture IC3 (input)", "PA0: Input Capture IC3 (Eingang)"),
    ("PA1: input capture IC2 (input)", "PA1: Input Capture IC2 (Eingang)"),
    ("PA2: input capture IC1 (input)", "PA2: Input Capture IC1 (Eingang)"),
    ("PA3: output compare OC5 / IC4 (output)", "PA3: Output Compare OC5 / IC4 (Ausgang)"),
    ("PA4: output compare OC4 (output)", "PA4: Output Compare OC4 (Ausgang)"),
    ("PA5: output compare OC3 (output)", "PA5: Output Compare OC3 (Ausgang)"),
    ("PA6: output compare OC2 (output)", "PA6: Output Compare OC2 (Ausgang)"),
    ("PA7: pulse accumulator input / OC1 (input or output by DDRA7)", "PA7: Eingang des Pulsakkumulators / OC1 (Ein- oder Ausgang nach DDRA7)"),
    // The board file's parts on the bench (src/ui/bench_panel.rs).
    ("Board parts", "Bauteile der Platine"),
    ("What the board file wires to the pins; they start as the file says.", "Was die Platinendatei an die Pins anschließt; sie beginnen so, wie die Datei es sagt."),
    ("push button: {} while held, {} when released", "Taster: {} solange gedrückt, {} nach dem Loslassen"),
    ("toggle switch: ticked = 1", "Kippschalter: angekreuzt = 1"),
    ("square-wave generator: ticked = running", "Rechteckgenerator: angekreuzt = läuft"),
    ("Interrupt pins", "Interrupt-Pins"),
    ("ticked: the {} pin is pulled low (asserted); OPTION's IRQE makes IRQ edge-sensitive", "angekreuzt: der Pin {} wird auf Low gezogen (aktiv); IRQE in OPTION macht IRQ flankengesteuert"),
    ("The trace keeps the newest {} changes: {} older ones were dropped.", "Die Aufzeichnung behält die neuesten {} Wechsel: {} ältere wurden verworfen."),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_entry_is_unique_and_keeps_its_placeholders() {
        for (i, (en, de)) in GERMAN.iter().enumerate() {
            assert!(
                GERMAN[..i].iter().all(|(e, _)| e != en),
                "{en:?} twice in the table"
            );
            assert_eq!(
                en.matches("{}").count(),
                de.matches("{}").count(),
                "{en:?} -> {de:?}"
            );
        }
    }

    #[test]
    fn assembler_problems_read_in_german() {
        let m = "[E0004] undefined symbol `foo`\n  help: did you mean `fo`?";
        assert_eq!(
            problem_text(Lang::De, m),
            "[E0004] undefiniertes Symbol `foo`\n  Hilfe: meintest du `fo`?"
        );
        assert_eq!(problem_text(Lang::En, m), m);
        assert_eq!(problem_text(Lang::De, "a loader's note"), "a loader's note");
    }

    #[test]
    fn the_window_says_du() {
        for (en, de) in GERMAN {
            let formal = crate::lesson::validate::formal_address(de);
            assert!(formal.is_empty(), "{en:?} -> {de:?}: {formal:?}");
        }
    }

    #[test]
    fn templates_take_their_values_in_order() {
        assert_eq!(
            trf(Lang::De, "Breakpoint at ${}{}.", &[&"C553", &" (mainLoop)"]),
            "Haltepunkt bei $C553 (mainLoop)."
        );
        assert_eq!(trf(Lang::En, "Loaded {}.", &[&"x.asm"]), "Loaded x.asm.");
        // Missing values leave the place empty instead of failing.
        assert_eq!(trf(Lang::En, "Line {} has", &[]), "Line  has");
    }
}
