//! The serial terminal: what the program sent through the SCI (M68HC11 RM
//! section 9) and an input line whose text goes to the program's serial
//! receiver, as a terminal on the board's RS-232 port would send it; on a
//! board with a host-port ACIA (the EVB) the line may go there instead.

use egui::RichText;

use super::i18n::tr;
use super::session::Session;

/// What Enter appends to the typed line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineEnd {
    /// Carriage return (a terminal's Enter key).
    #[default]
    Cr,
    /// Line feed.
    Lf,
    /// CR then LF.
    CrLf,
    /// Nothing: only the typed characters.
    None,
}

impl LineEnd {
    fn bytes(self) -> &'static [u8] {
        match self {
            LineEnd::Cr => b"\r",
            LineEnd::Lf => b"\n",
            LineEnd::CrLf => b"\r\n",
            LineEnd::None => b"",
        }
    }

    fn label(self) -> &'static str {
        match self {
            LineEnd::Cr => "CR",
            LineEnd::Lf => "LF",
            LineEnd::CrLf => "CR LF",
            LineEnd::None => "-",
        }
    }
}

/// Where the typed line goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Port {
    /// The SCI, the terminal port of every board.
    #[default]
    Sci,
    /// The board's second port, the EVB's host-port ACIA at $9800.
    Acia,
}

/// The serial terminal panel.
#[derive(Default)]
pub struct SerialPanel {
    input: String,
    line_end: LineEnd,
    port: Port,
    /// Bytes sent so far (shown, so a student sees the send happened even
    /// when the program does not echo).
    sent: usize,
}

/// The characters of `text` as the SCI's 8-bit data: Latin-1 where it fits,
/// `?` for anything else (the receiver takes bytes, not Unicode).
pub fn to_serial_bytes(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

impl SerialPanel {
    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let lang = session.lang();
        ui.horizontal(|ui| {
            let label = ui.label(tr(lang, "Send:"));
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut self.input)
                        .font(egui::TextStyle::Monospace)
                        .desired_width((ui.available_width() - 150.0).max(80.0))
                        .hint_text(tr(lang, "text for the program's serial receiver")),
                )
                .labelled_by(label.id);
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            egui::ComboBox::from_id_salt("line-end")
                .selected_text(self.line_end.label())
                .width(60.0)
                .show_ui(ui, |ui| {
                    for e in [LineEnd::Cr, LineEnd::Lf, LineEnd::CrLf, LineEnd::None] {
                        ui.selectable_value(&mut self.line_end, e, e.label());
                    }
                })
                .response
                .on_hover_text(tr(lang, "What Enter sends after the text"));
            // A board with a second port: the user picks where the line goes.
            let has_acia = session.has_acia();
            if !has_acia {
                self.port = Port::Sci;
            } else {
                let shown = |p: Port| match p {
                    Port::Sci => "SCI",
                    Port::Acia => "ACIA",
                };
                let to = ui.label(tr(lang, "to"));
                egui::ComboBox::from_id_salt("serial-port")
                    .selected_text(shown(self.port))
                    .width(60.0)
                    .show_ui(ui, |ui| {
                        for p in [Port::Sci, Port::Acia] {
                            ui.selectable_value(&mut self.port, p, shown(p));
                        }
                    })
                    .response
                    .labelled_by(to.id)
                    .on_hover_text(tr(
                        lang,
                        "Where the line goes: the SCI (the terminal port) or the host port's ACIA",
                    ));
            }
            let send = ui
                .add_enabled(session.has_machine(), egui::Button::new(tr(lang, "Send")))
                .clicked();
            if send || enter {
                let mut bytes = to_serial_bytes(&self.input);
                bytes.extend_from_slice(self.line_end.bytes());
                let sent = match self.port {
                    Port::Sci => session.send_serial(&bytes),
                    Port::Acia => session.send_acia(&bytes),
                };
                if !bytes.is_empty() && sent {
                    self.sent += bytes.len();
                    self.input.clear();
                    if enter {
                        r.request_focus();
                    }
                }
            }
        });
        if self.sent > 0 {
            ui.weak(format!(
                "{} {}{}",
                self.sent,
                tr(lang, "byte(s) sent"),
                if session.is_paused() {
                    tr(lang, "; they arrive while the program runs")
                } else {
                    ""
                }
            ));
        }
        // The board's second port (the EVB's host-port ACIA), above the
        // terminal: what the program sent there.
        if let Some(host) = session.acia_text() {
            egui::CollapsingHeader::new(tr(lang, "Host port (ACIA)"))
                .id_salt("acia")
                .default_open(true)
                .show(ui, |ui| {
                    if host.is_empty() {
                        ui.weak(tr(lang, "Nothing sent on the host port yet."));
                    }
                    egui::ScrollArea::vertical()
                        .id_salt("acia-text")
                        .max_height(120.0)
                        .stick_to_bottom(true)
                        .show(ui, |ui| {
                            ui.label(RichText::new(printable(&host)).monospace());
                        });
                });
        }
        let text = session.serial_text();
        if text.is_empty() {
            ui.weak(tr(lang, "Nothing sent on the serial line yet."));
        }
        egui::ScrollArea::vertical()
            .id_salt("serial")
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.label(RichText::new(printable(&text)).monospace());
            });
    }
}

/// Serial text as the panel shows it: control characters (the firmware
/// clears the terminal with $0C) as ^L and the like, CR dropped.
fn printable(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '\n' | '\t' => vec![c],
            '\r' => vec![],
            c if (c as u32) < 0x20 => vec!['^', char::from(b'@' + c as u8)],
            c => vec![c],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_becomes_latin1_bytes() {
        assert_eq!(to_serial_bytes("Aä€"), vec![b'A', 0xE4, b'?']);
    }
}
