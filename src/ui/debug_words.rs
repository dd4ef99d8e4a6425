//! The debugger's sentences in the window's language: why the machine
//! stopped, and each link of a recorded data-flow chain. The debugger words
//! them in English (`Stop::message`, `LinkReport::text`, which `run --json`
//! and the tests keep); the window words them in German from their fields
//! (the stop's [`Reason`], the link's kind, value, instruction and place),
//! and shows the library's sentence where it has no words of its own.

use super::i18n::{tr, trf};
use crate::debug::profile::label_of;
use crate::debug::{LinkReport, Reason, Stop};
use crate::image::Program;
use crate::lesson::Lang;
use crate::script::Played;

/// The stop in `lang`: `None` in English (the library's sentence is used).
/// `played`: what the script did whose end a settled stop reports.
pub fn stop_words(
    lang: Lang,
    stop: &Stop,
    program: Option<&Program>,
    played: Played,
) -> Option<String> {
    if lang == Lang::En {
        return None;
    }
    let label = |a: u16| label_of(program, a);
    let line = |a: u16| line_at(program, a);
    let pc = stop.pc;
    let here = || format!("{} (${pc:04X})", label(pc));
    Some(match &stop.reason {
        Reason::Step => trf(lang, "stepped; next instruction at {}", &[&here()]),
        Reason::Breakpoint { id, spec, hits } => trf(
            lang,
            "breakpoint #{} `{}` hit (hit {}) at {}",
            &[id, spec, hits, &here()],
        ),
        Reason::Returned {
            from,
            to,
            expected,
            by_return: true,
        } if to == expected => trf(
            lang,
            "returned from {} to {}",
            &[&label(*from), &label(*to)],
        ),
        Reason::Reached { addr } => trf(
            lang,
            "reached {} (${})",
            &[&label(*addr), &format!("{addr:04X}")],
        ),
        Reason::Budget { cycles } => trf(
            lang,
            "ran {} E-cycles without stopping; paused at {}",
            &[cycles, &label(pc)],
        ),
        Reason::StartOfHistory => {
            tr(lang, "reached the oldest state kept (start of history)").into()
        }
        Reason::NoFrame => tr(lang, "no subroutine to step out of (at top level)").into(),
        Reason::Returned {
            from,
            by_return: false,
            ..
        } => trf(
            lang,
            "the frame of {} was abandoned (stack moved by hand); now at {}",
            &[&label(*from), &here()],
        ),
        Reason::Returned {
            from, to, expected, ..
        } => trf(
            lang,
            "returned from {} to {} instead of {} (the stack was changed by hand)",
            &[&label(*from), &label(*to), &label(*expected)],
        ),
        Reason::Watchpoint { hits } => {
            let parts: Vec<String> = hits
                .iter()
                .map(|h| {
                    let what = match h.kind {
                        crate::machine::observe::AccessKind::Read => trf(
                            lang,
                            "read ${} from ${}",
                            &[&format!("{:02X}", h.new), &format!("{:04X}", h.addr)],
                        ),
                        crate::machine::observe::AccessKind::Write => trf(
                            lang,
                            "wrote ${} (was ${}) to ${}",
                            &[
                                &format!("{:02X}", h.new),
                                &format!("{:02X}", h.old),
                                &format!("{:04X}", h.addr),
                            ],
                        ),
                    };
                    trf(
                        lang,
                        "watchpoint #{}: the instruction at {} {}",
                        &[&h.id, &format!("{} (${:04X})", label(h.pc), h.pc), &what],
                    )
                })
                .collect();
            parts.join("; ")
        }
        Reason::IllegalOpcode { addr, bytes } => {
            let b: Vec<String> = bytes.iter().map(|b| format!("${b:02X}")).collect();
            let mut words = trf(
                lang,
                "illegal opcode {} at {}; stopped before it: nothing ran, nothing was stacked (continue to take the trap through $FFF8)",
                &[&b.join(" "), &format!("{} (${addr:04X}){}", label(*addr), line(*addr))],
            );
            // The step that went there, in the grader's German.
            if let Some(exit) = &stop.exit {
                words.push_str(". ");
                words.push_str(&crate::lesson::feedback::translate(exit, lang));
            }
            words
        }
        Reason::BadWrite {
            area,
            addr,
            value,
            pc,
        } => {
            let area = if area == "rom" {
                tr(lang, "program memory")
            } else {
                tr(lang, "unmapped memory")
            };
            let mut words = trf(
                lang,
                "the instruction at {} writes ${} to {} ${}; stopped before it took effect (continue to run it as the chip does: the byte is not stored)",
                &[
                    &format!("{} (${pc:04X}){}", label(*pc), line(*pc)),
                    &format!("{value:02X}"),
                    &area,
                    &format!("{addr:04X}"),
                ],
            );
            if let Some(exit) = &stop.exit {
                words.push_str(". ");
                words.push_str(&crate::lesson::feedback::translate(exit, lang));
            }
            words
        }
        Reason::Settled { waiting_on } => {
            let what = if waiting_on.starts_with("keys") {
                tr(lang, "the keys (PIO_B)").to_string()
            } else if waiting_on.starts_with("serial") {
                tr(lang, "serial input (SCSR.RDRF)").to_string()
            } else {
                waiting_on.clone()
            };
            let template = match played {
                Played::Keys => "key script done, program waits for input: {}; at {}",
                Played::NoKeys => "script done (no keys), program waits for input: {}; at {}",
                Played::Nothing => "the program settled and waits for input: {}; at {}",
            };
            trf(lang, template, &[&what, &here()])
        }
        Reason::Halted { halt, .. } => {
            let why = match halt.as_str() {
                "wai" => tr(lang, "halted: WAI with no interrupt that could end it"),
                "stop" => tr(lang, "halted: STOP with nothing that could end it"),
                _ => tr(lang, "halted: an endless loop that nothing can leave"),
            };
            format!(
                "{why}; {}",
                trf(lang, "at {}", &[&format!("{}{}", here(), line(pc))])
            )
        }
    })
}

/// ` (file:line)` of the source line at `addr`, or nothing.
fn line_at(program: Option<&Program>, addr: u16) -> String {
    program
        .and_then(|p| p.source_place(addr))
        .map(|p| format!(" ({p})"))
        .unwrap_or_default()
}

/// The place of a link's instruction: `` `staa $2A` bei SPItransfer (LCDutils.inc:34)``.
fn place(lang: Lang, l: &LinkReport) -> String {
    let mut s = trf(
        lang,
        "`{}` at {}",
        &[
            &l.instruction.as_deref().unwrap_or("?"),
            &l.label
                .clone()
                .unwrap_or_else(|| format!("${:04X}", l.address)),
        ],
    );
    if let (Some(f), Some(line)) = (&l.file, l.line) {
        let short = std::path::Path::new(f)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| f.clone());
        s.push_str(&format!(" ({short}:{line})"));
    }
    s
}

/// An LCD pixel with its place in display RAM and whether it is lit: what
/// a pixel's chain starts at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelPlace {
    /// Picture coordinates.
    pub x: u8,
    /// Picture coordinates.
    pub y: u8,
    /// Display RAM page.
    pub page: usize,
    /// Display RAM column.
    pub column: usize,
    /// Bit in the display RAM byte.
    pub bit: u8,
    /// Lit now.
    pub on: bool,
}

/// A link of a recorded chain in `lang`; `pixel` is where a pixel's chain
/// starts (for the `display` link). `None`: the library's sentence.
pub fn link_words(lang: Lang, l: &LinkReport, pixel: Option<PixelPlace>) -> Option<String> {
    if lang == Lang::En {
        return None;
    }
    let v = format!("{:02X}", l.value);
    let data = l.data_label.clone().unwrap_or_default();
    Some(match l.kind.as_str() {
        "store" => trf(
            lang,
            "${} stored to {} by {}",
            &[&v, &data, &place(lang, l)],
        ),
        "push" => trf(
            lang,
            "${} pushed to the stack at {} by {}",
            &[&v, &data, &place(lang, l)],
        ),
        "load" => trf(
            lang,
            "${} loaded from {} by {}",
            &[&v, &data, &place(lang, l)],
        ),
        "device" => trf(
            lang,
            "${} read from device register {} by {}",
            &[&v, &data, &place(lang, l)],
        ),
        "immediate" => trf(lang, "${} is a constant of {}", &[&v, &place(lang, l)]),
        "computed" => {
            // What it was computed with is only in the library's sentence:
            // its tail after the place, worded again.
            let with = l
                .text
                .split_once(" with ")
                .map(|(_, w)| with_words(lang, w))
                .unwrap_or_default();
            trf(lang, "${} computed by {}", &[&v, &place(lang, l)]) + &with
        }
        "unknown" if l.text.starts_with("a register value") => tr(
            lang,
            "a register value from before tracking started (or from reset)",
        )
        .into(),
        "unknown" => tr(
            lang,
            "no data byte reached this display RAM byte since tracking began",
        )
        .into(),
        "trimmed" => tr(lang, "older history was dropped to bound memory").into(),
        "initial" => {
            // The source place (file:line: text) as the library appends it.
            let tail = l.text.find(" (").map(|i| &l.text[i..]).unwrap_or("");
            let sentence = if l.text.contains("part of the program image") {
                "${} at {} is part of the program image, unchanged since loading"
            } else {
                "${} at {} was not written since tracking began"
            };
            trf(lang, sentence, &[&v, &data]) + tail
        }
        "display" => {
            let p = pixel?;
            let state = if p.on {
                tr(lang, "on")
            } else {
                tr(lang, "off")
            };
            trf(
                lang,
                "pixel ({},{}) is bit {} of display RAM page {}, column {}: ${} (pixel {})",
                &[&p.x, &p.y, &p.bit, &p.page, &p.column, &v, &state],
            )
        }
        _ => return None,
    })
}

/// `the constant $81`, `$05 from board+3`, `$05 computed at $C123` (the
/// tail of a `computed` link) in `lang`, with its leading space.
fn with_words(lang: Lang, tail: &str) -> String {
    if let Some(c) = tail.strip_prefix("the constant ") {
        return trf(lang, " with the constant {}", &[&c]);
    }
    if let Some((v, from)) = tail.split_once(" from ") {
        return trf(lang, " with {} from {}", &[&v, &from]);
    }
    if let Some((v, at)) = tail.split_once(" computed at ") {
        return trf(lang, " with {} computed at {}", &[&v, &at]);
    }
    format!(" ({tail})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop(reason: Reason) -> Stop {
        Stop {
            reason,
            message: String::new(),
            pc: 0xC010,
            cycles: 0,
            index: 0,
            exit: None,
        }
    }

    /// The rare stops are worded in German too, and English stays the
    /// library's sentence.
    #[test]
    fn rare_stops_in_german() {
        let cases = [
            (
                Reason::IllegalOpcode {
                    addr: 0xC010,
                    bytes: vec![0x41],
                },
                "ungültiger Opcode $41",
            ),
            (
                Reason::BadWrite {
                    area: "rom".into(),
                    addr: 0xC100,
                    value: 7,
                    pc: 0xC010,
                },
                "den Programmspeicher $C100",
            ),
            (
                Reason::Halted {
                    halt: "wai".into(),
                    why: "halted: WAI".into(),
                },
                "angehalten: WAI",
            ),
            (
                Reason::Settled {
                    waiting_on: "keys (PIO_B)".into(),
                },
                "die Tasten (PIO_B)",
            ),
            (
                Reason::Returned {
                    from: 0xC000,
                    to: 0xC010,
                    expected: 0xC010,
                    by_return: false,
                },
                "verlassen",
            ),
        ];
        for (reason, want) in cases {
            let s = stop(reason);
            let de = stop_words(Lang::De, &s, None, Played::Keys).expect("German words");
            assert!(de.contains(want), "{de}");
            assert_eq!(stop_words(Lang::En, &s, None, Played::Keys), None);
        }
        // The step that left the program, in German too.
        let mut s = stop(Reason::IllegalOpcode {
            addr: 0x12C0,
            bytes: vec![0x00],
        });
        s.exit = Some("`rts` at $C00B in sub+3 (a.asm:9) returned there: it took $12C0 from the stack at $00FD, which is no return address a `jsr` left (a push without its pull, or a pull too many, before the `rts`?)".into());
        let de = stop_words(Lang::De, &s, None, Played::Keys).expect("German words");
        assert!(
            de.contains("Dorthin ist `rts` bei $C00B in sub+3 (a.asm:9) zurückgekehrt"),
            "{de}"
        );
        assert!(!de.contains("returned there"), "{de}");
    }

    /// A settled stop names what ended: the key script, a script of serial
    /// input and waits only, or nothing at all.
    #[test]
    fn a_settled_stop_names_what_the_script_did() {
        let s = stop(Reason::Settled {
            waiting_on: "serial input (SCSR.RDRF)".into(),
        });
        for (played, want) in [
            (Played::Keys, "Tastenskript fertig"),
            (Played::NoKeys, "Skript fertig (ohne Tasten)"),
            (Played::Nothing, "Das Programm ist zur Ruhe gekommen"),
        ] {
            let de = stop_words(Lang::De, &s, None, played).expect("German words");
            assert!(de.starts_with(want), "{de}");
            assert!(de.contains("serielle"), "{de}");
        }
    }
}
