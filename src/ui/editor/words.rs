//! The editor's labels and messages in German (the window's table in
//! `i18n.rs` asks here for what it does not have).

/// The German of `en`, if this table has it.
pub fn german(en: &str) -> Option<&'static str> {
    GERMAN.iter().find(|(e, _)| *e == en).map(|(_, d)| *d)
}

/// English label -> German label.
pub const GERMAN: &[(&str, &str)] = &[
    // Menus and the listing's tab row.
    ("Edit", "Bearbeiten"),
    ("New file", "Neue Datei"),
    ("Save", "Speichern"),
    ("Save as…", "Speichern unter …"),
    ("Save all", "Alle speichern"),
    ("Saved {} file(s).", "{} Datei(en) gespeichert."),
    ("Edit at the current line", "An der aktuellen Zeile bearbeiten"),
    ("Undo", "Rückgängig"),
    ("Redo", "Wiederholen"),
    ("Find…", "Suchen …"),
    ("Replace…", "Ersetzen …"),
    ("Go to line…", "Gehe zu Zeile …"),
    ("Comment / uncomment", "Aus-/einkommentieren"),
    ("Complete", "Vervollständigen"),
    ("Go to definition", "Gehe zur Definition"),
    ("Help at the cursor", "Hilfe am Cursor"),
    ("Fix the error on this line", "Fehler in dieser Zeile beheben"),
    ("No help here: put the cursor on an instruction, a label or an underlined error.", "Hier gibt es keine Hilfe: setz den Cursor auf einen Befehl, ein Label oder einen unterstrichenen Fehler."),
    ("Fixed: {}", "Behoben: {}"),
    ("No fix for: {}", "Keine Behebung für: {}"),
    ("No error on this line.", "In dieser Zeile ist kein Fehler."),
    ("Indent to the next column", "Zur nächsten Spalte einrücken"),
    ("Assemble and reset", "Assemblieren und zurücksetzen"),
    ("edited: F7 runs the new text", "bearbeitet: F7 führt den neuen Text aus"),
    ("The program running is the one loaded before your last edits. F7 (Assemble and reset) loads what the editor holds; breakpoints stay on their lines, watches stay.", "Das laufende Programm ist das vor deinen letzten Änderungen geladene. F7 (Assemblieren und zurücksetzen) lädt, was im Editor steht; Haltepunkte bleiben auf ihren Zeilen, Beobachtungen bleiben."),
    ("Your copy lives in the folder shown below and opens in the editor here (or edit it in your own editor: the window reloads when you save).", "Deine Kopie liegt im unten gezeigten Ordner und öffnet sich hier im Editor (oder bearbeite sie in deinem eigenen Editor: das Fenster lädt beim Speichern neu)."),
    ("Save the editor's changes and grade your copy with the course's checks (as the server does)", "Die Änderungen im Editor speichern und deine Kopie mit den Prüfungen des Kurses bewerten (wie der Server)"),
    ("The listing: links, narrow columns, the running program's text", "Das Listing: Verknüpfungen, schmale Spalten, der Text des laufenden Programms"),
    ("This text is not the running program's: F7 assembles and resets first.", "Dieser Text ist nicht der des laufenden Programms: F7 assembliert und setzt zuerst zurück."),
    ("Edit the source here (Ctrl+E, or click into the text)", "Die Quelle hier bearbeiten (Strg+E, oder in den Text klicken)"),
    ("New file (Ctrl+N)", "Neue Datei (Strg+N)"),
    // Find, replace, go to line.
    ("Find", "Suchen"),
    ("Match case", "Groß-/Kleinschreibung beachten"),
    ("Previous match (Shift+Enter)", "Vorheriger Treffer (Umschalt+Enter)"),
    ("Next match (Enter)", "Nächster Treffer (Enter)"),
    ("no match", "kein Treffer"),
    ("{} of {}", "{} von {}"),
    ("Close (Esc)", "Schließen (Esc)"),
    ("Replace with", "Ersetzen durch"),
    ("Replace", "Ersetzen"),
    ("Replace all", "Alle ersetzen"),
    ("Go to line", "Gehe zu Zeile"),
    ("of {}", "von {}"),
    ("a line from 1 to {}", "eine Zeile von 1 bis {}"),
    ("Replaced {} match(es).", "{} Treffer ersetzt."),
    // The editor's status row.
    ("Ln {}, Col {}", "Z. {}, Sp. {}"),
    ("assembling…", "assembliere …"),
    ("{} error(s)", "{} Fehler"),
    ("assembled, {} warning(s)", "assembliert, {} Warnung(en)"),
    ("assembled", "assembliert"),
    ("the running program is older than this text: F7", "das laufende Programm ist älter als dieser Text: F7"),
    ("No definition here: put the cursor on a label or constant.", "Hier ist keine Definition: setz den Cursor auf ein Label oder eine Konstante."),
    ("Enter or Tab: take · Esc: close", "Enter oder Tab: übernehmen · Esc: schließen"),
    ("This line is not in the running program yet: F7 assembles and resets, then set the breakpoint.", "Diese Zeile ist noch nicht im laufenden Programm: F7 assembliert und setzt zurück, dann den Haltepunkt setzen."),
    // Help under the pointer.
    ("{} by the result", "{} nach dem Ergebnis"),
    ("{} only cleared", "{} nur gelöscht"),
    ("{} undefined", "{} undefiniert"),
    ("flags: none change", "Flags: keines ändert sich"),
    ("flags:", "Flags:"),
    ("{} bytes", "{} Bytes"),
    ("{} cycles", "{} Zyklen"),
    ("this line: {}, {} ({} bytes), {} cycles", "diese Zeile: {}, {} ({} Bytes), {} Zyklen"),
    ("defined at {}", "definiert in {}"),
    ("not used anywhere", "nirgends benutzt"),
    ("used {}x: {}", "{}-mal benutzt: {}"),
    ("Ctrl+click or F12: go to the definition", "Strg+Klick oder F12: zur Definition"),
    ("help:", "Hilfe:"),
    ("Fix: indent the line", "Beheben: die Zeile einrücken"),
    ("Fix: write `{}`", "Beheben: `{}` schreiben"),
    ("inherent", "inhärent"),
    ("immediate (8-bit)", "unmittelbar (8 Bit)"),
    ("immediate (16-bit)", "unmittelbar (16 Bit)"),
    ("direct", "direkt"),
    ("extended", "erweitert"),
    ("indexed X", "indiziert X"),
    ("indexed Y", "indiziert Y"),
    ("relative", "relativ"),
    ("bit direct", "Bit direkt"),
    ("bit indexed X", "Bit indiziert X"),
    ("bit indexed Y", "Bit indiziert Y"),
    ("bit-branch direct", "Bit-Sprung direkt"),
    ("bit-branch indexed X", "Bit-Sprung indiziert X"),
    ("bit-branch indexed Y", "Bit-Sprung indiziert Y"),
    // Questions.
    ("Unsaved changes", "Ungespeicherte Änderungen"),
    ("{} have unsaved changes. Load another program anyway?", "{} haben ungespeicherte Änderungen. Trotzdem ein anderes Programm laden?"),
    ("Save all and load", "Alle speichern und laden"),
    ("Load without saving", "Ohne Speichern laden"),
    ("Cancel", "Abbrechen"),
    ("{} have unsaved changes. Close the window anyway?", "{} haben ungespeicherte Änderungen. Das Fenster trotzdem schließen?"),
    ("Save all and close", "Alle speichern und schließen"),
    ("Close without saving", "Ohne Speichern schließen"),
    ("Changed on disk", "Auf der Festplatte geändert"),
    ("{} changed on disk (another editor?) while you have unsaved changes here. Load the version on disk? Your text stays in undo (Ctrl+Z).", "{} wurde auf der Festplatte geändert (ein anderer Editor?), während du hier ungespeicherte Änderungen hast. Die Fassung von der Festplatte laden? Dein Text bleibt im Rückgängig-Verlauf (Strg+Z)."),
    ("Load from disk", "Von der Festplatte laden"),
    ("Keep mine", "Meine behalten"),
    ("Unsaved changes from last time", "Ungespeicherte Änderungen vom letzten Mal"),
    ("hc11lab did not close properly last time. Unsaved changes to {} were kept. Restore them?", "hc11lab wurde letztes Mal nicht ordnungsgemäß geschlossen. Ungespeicherte Änderungen an {} wurden aufbewahrt. Wiederherstellen?"),
    ("Restore", "Wiederherstellen"),
    ("Discard them", "Verwerfen"),
    ("Save {} as", "{} speichern unter"),
    ("File:", "Datei:"),
    ("Save a copy of the sources", "Eine Kopie der Quellen speichern"),
    ("The bundled Viergewinnt has no files of its own: type a folder (new or empty) for a copy of all its sources with your changes; the copy is opened, and Ctrl+S saves there.", "Das mitgelieferte Viergewinnt hat keine eigenen Dateien: gib einen (neuen oder leeren) Ordner für eine Kopie aller Quellen mit deinen Änderungen ein; die Kopie wird geöffnet, und Strg+S speichert dort."),
    ("Folder:", "Ordner:"),
    ("Save copy", "Kopie speichern"),
    // Status and Problems.
    ("Not loaded: {} error(s) in the text (see Problems); the program loaded before still runs.", "Nicht geladen: {} Fehler im Text (siehe Probleme); das zuvor geladene Programm läuft weiter."),
    ("breakpoint `{}` removed: its line was deleted", "Haltepunkt `{}` entfernt: seine Zeile wurde gelöscht"),
    ("Assembled and reset: {} bytes loaded; breakpoints and watches kept.", "Assembliert und zurückgesetzt: {} Bytes geladen; Haltepunkte und Beobachtungen behalten."),
    ("Assembled and reset: {} bytes loaded; {} breakpoint(s) removed with their lines (see Problems).", "Assembliert und zurückgesetzt: {} Bytes geladen; {} Haltepunkt(e) mit ihren Zeilen entfernt (siehe Probleme)."),
    ("Not saved: {}: {}", "Nicht gespeichert: {}: {}"),
    ("{} (as UTF-8: `{}` has no Windows-1252 byte)", "{} (als UTF-8: `{}` hat kein Windows-1252-Byte)"),
    ("Type a file name.", "Gib einen Dateinamen ein."),
    ("{} exists: press Replace to write over it.", "{} gibt es schon: Ersetzen überschreibt sie."),
    ("{} is open in another tab: save that tab instead.", "{} ist in einem anderen Reiter offen: speichere diesen."),
    ("Saved as {}.", "Gespeichert als {}."),
    ("A source file changed on disk: the editor took it in (F7 runs it).", "Eine Quelldatei wurde auf der Festplatte geändert: der Editor hat sie übernommen (F7 führt sie aus)."),
    ("{} not read: {}", "{} nicht gelesen: {}"),
    ("{} file(s) with unsaved changes restored: save them (Ctrl+S) to keep them.", "{} Datei(en) mit ungespeicherten Änderungen wiederhergestellt: speichere sie (Strg+S), um sie zu behalten."),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The window says du to the student, in the editor's words as in the
    /// rest of the window.
    #[test]
    fn the_window_says_du() {
        let formal = ["Sie", "Ihre", "Ihr", "Ihren", "Ihrem", "Ihrer", "Ihnen"];
        for (en, de) in GERMAN.iter().chain(crate::ui::i18n::GERMAN.iter()) {
            let words: Vec<&str> = de
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| !w.is_empty())
                .collect();
            assert!(
                !words.iter().any(|w| formal.contains(w)),
                "{en:?}: formal German {de:?}"
            );
        }
    }

    #[test]
    fn each_entry_is_new_unique_and_keeps_its_placeholders() {
        for (i, (en, de)) in GERMAN.iter().enumerate() {
            assert!(GERMAN[..i].iter().all(|(e, _)| e != en), "{en:?} twice");
            assert!(
                crate::ui::i18n::GERMAN.iter().all(|(e, _)| e != en),
                "{en:?} is in the window's table already"
            );
            assert_eq!(en.matches("{}").count(), de.matches("{}").count(), "{en:?}");
        }
    }
}
