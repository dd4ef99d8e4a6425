//! Parts outside the chip that a board file declares: LEDs on
//! port A's output pins, switches and push buttons on input pins,
//! potentiometers on the A/D inputs, signal generators on the timer's input
//! pins and the pins the logic analyser traces from power-on.
//!
//! A part is wiring, not behaviour: each one becomes a [`BenchAction`] at
//! power-on (its default), and the same actions as `run --pin/--analog/
//! --signal` or the GUI's bench change it later. LEDs only look at pins.
//!
//! Assumptions where the board file leaves a choice:
//! - An LED is lit when its pin is at its active level; it shows the pin
//!   whoever drives it (an output compare, a PORTA write, or the bench).
//! - A switch on PE0-PE7 puts 0 V or VRH (5 V) on the analog input, so
//!   PORTE reads the level and the converter reads $00 or $FF.
//! - A push button is released at power-on: its pin is at `default`;
//!   pressing it drives the other level.
//! - Port B (and C) are the address/data bus on every board hc11lab models
//!   (expanded mode, external memory), so they carry no parts.

use super::bench::{BenchAction, InputPin, SignalSpec, MAX_MILLIVOLTS};
use super::config::BoardFileError;
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

/// An LED on a port A output pin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Led {
    /// Its name (`red`, `alarm`).
    pub name: String,
    /// Port A bit, 3..=7.
    pub bit: u8,
    /// True if a high pin lights it (`active = "high"`, the default).
    pub active_high: bool,
}

impl Led {
    /// True if the LED is lit with port A's pins at `porta`.
    pub fn lit(&self, porta: u8) -> bool {
        (porta & (1 << self.bit) != 0) == self.active_high
    }
}

/// Where a switch sits: a port A input pin or a port E pin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchPin {
    /// PA0, PA1, PA2 or PA7.
    PortA(InputPin),
    /// PE0..PE7 (AN0..AN7), driven to 0 V or VRH.
    PortE(u8),
}

impl SwitchPin {
    /// The pin's name (`PA0`, `PE3`).
    pub fn name(self) -> String {
        match self {
            SwitchPin::PortA(p) => format!("PA{}", p.0),
            SwitchPin::PortE(n) => format!("PE{n}"),
        }
    }

    /// What puts the pin at `high`.
    pub fn action(self, high: bool) -> BenchAction {
        match self {
            SwitchPin::PortA(pin) => BenchAction::Pin { pin, high },
            SwitchPin::PortE(channel) => BenchAction::Analog {
                channel,
                millivolts: if high { MAX_MILLIVOLTS } else { 0 },
            },
        }
    }
}

/// A toggle switch or a push button on an input pin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Its name.
    pub name: String,
    /// The pin.
    pub pin: SwitchPin,
    /// The level at power-on (a button's level while released).
    pub default_high: bool,
    /// True for a push button (momentary), false for a toggle switch.
    pub button: bool,
}

/// A potentiometer on an analog input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pot {
    /// Its name.
    pub name: String,
    /// AN0..AN7.
    pub channel: u8,
    /// Millivolts at power-on.
    pub default_mv: u32,
    /// Lowest millivolts the wiper reaches.
    pub min_mv: u32,
    /// Highest millivolts the wiper reaches.
    pub max_mv: u32,
}

/// A square-wave generator on a timer input pin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    /// Its name.
    pub name: String,
    /// PA0-PA2 (input captures) or PA7 (pulse accumulator).
    pub pin: InputPin,
    /// Frequency in millihertz.
    pub millihertz: u64,
    /// Percent of each period the wave is high (1..=99).
    pub duty_percent: u32,
    /// True if it runs from power-on.
    pub on: bool,
}

impl Generator {
    /// What connects it (`on`) or disconnects it.
    pub fn action(&self, on: bool) -> BenchAction {
        BenchAction::Signal {
            pin: self.pin,
            spec: if on {
                SignalSpec::Square {
                    millihertz: self.millihertz,
                    duty_percent: self.duty_percent,
                }
            } else {
                SignalSpec::Off
            },
        }
    }
}

/// Everything a board wires to the chip's pins from outside.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// LEDs.
    pub leds: Vec<Led>,
    /// Switches and push buttons.
    pub switches: Vec<Switch>,
    /// Potentiometers.
    pub pots: Vec<Pot>,
    /// Signal generators.
    pub generators: Vec<Generator>,
    /// Port A bits the logic analyser traces from power-on (`trace`).
    pub trace_mask: u8,
}

/// An LED's state at the end of a run (`run --json`'s `leds`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LedState {
    /// The LED's name.
    pub name: String,
    /// Its pin (`PA6`).
    pub pin: String,
    /// True if it is lit.
    pub lit: bool,
}

impl Parts {
    /// True if the board declares no parts.
    pub fn is_empty(&self) -> bool {
        self.leds.is_empty()
            && self.switches.is_empty()
            && self.pots.is_empty()
            && self.generators.is_empty()
            && self.trace_mask == 0
    }

    /// What the parts do to the pins at power-on, in declaration order
    /// (switches, pots, generators).
    pub fn default_actions(&self) -> Vec<BenchAction> {
        let mut v: Vec<BenchAction> = self
            .switches
            .iter()
            .map(|s| s.pin.action(s.default_high))
            .collect();
        v.extend(self.pots.iter().map(|p| BenchAction::Analog {
            channel: p.channel,
            millivolts: p.default_mv,
        }));
        v.extend(
            self.generators
                .iter()
                .filter(|g| g.on)
                .map(|g| g.action(true)),
        );
        v
    }

    /// The LEDs' states with port A's pins at `porta`.
    pub fn led_states(&self, porta: u8) -> Vec<LedState> {
        self.leds
            .iter()
            .map(|l| LedState {
                name: l.name.clone(),
                pin: format!("PA{}", l.bit),
                lit: l.lit(porta),
            })
            .collect()
    }
}

/// The parts' tables as a board file writes them.
#[derive(Debug, Default)]
pub(super) struct RawParts {
    pub led: Vec<RawLed>,
    pub switch: Vec<RawSwitch>,
    pub pot: Vec<RawPot>,
    pub generator: Vec<RawGenerator>,
    pub trace: Option<Spanned<Vec<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLed {
    name: Option<String>,
    pin: Spanned<String>,
    active: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSwitch {
    name: Option<String>,
    pin: Spanned<String>,
    default: Option<Spanned<u8>>,
    kind: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPot {
    name: Option<String>,
    input: Spanned<String>,
    volts: Option<Spanned<Volts>>,
    min: Option<Spanned<Volts>>,
    max: Option<Spanned<Volts>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGenerator {
    name: Option<String>,
    pin: Spanned<String>,
    hz: Spanned<Volts>,
    duty: Option<Spanned<u32>>,
    on: Option<bool>,
}

/// A number written as a TOML integer or float (volts, hertz).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum Volts {
    Int(i64),
    Float(f64),
}

impl Volts {
    /// The value in thousandths, if it is not negative and has at most
    /// three decimals.
    fn milli(&self) -> Option<u64> {
        match *self {
            Volts::Int(v) => u64::try_from(v).ok()?.checked_mul(1000),
            Volts::Float(f) => {
                let m = (f * 1000.0).round();
                ((0.0..=1e15).contains(&m) && (f * 1000.0 - m).abs() < 1e-6).then_some(m as u64)
            }
        }
    }
}

/// Checks the parts of a board file; `err` makes an error at a span.
pub(super) fn check(
    raw: RawParts,
    err: &dyn Fn(Option<Range<usize>>, String) -> BoardFileError,
) -> Result<Parts, BoardFileError> {
    let mut parts = Parts::default();
    // Which part holds each port A bit and port E channel, to refuse two on one pin.
    let mut port_a: [Option<String>; 8] = Default::default();
    let mut port_e: [Option<String>; 8] = Default::default();
    let take = |slot: &mut Option<String>,
                who: String,
                pin: &str,
                span: Range<usize>|
     -> Result<(), BoardFileError> {
        if let Some(other) = slot {
            return Err(err(
                Some(span),
                format!("{pin} already has {other}: give each part its own pin"),
            ));
        }
        *slot = Some(who);
        Ok(())
    };
    for (i, l) in raw.led.iter().enumerate() {
        let name = l.name.clone().unwrap_or_else(|| format!("led{}", i + 1));
        let pin = l.pin.get_ref().trim().to_ascii_uppercase();
        let bit = super::bench::parse_port_a_bit(&pin)
            .ok()
            .filter(|b| *b >= 3)
            .ok_or_else(|| {
                err(
                    Some(l.pin.span()),
                    format!(
                        "an LED goes on an output pin: PA3..PA7, not `{pin}` (ports B and C are the address/data bus on these boards)"
                    ),
                )
            })?;
        let active_high = match &l.active {
            None => true,
            Some(a) => match a.get_ref().trim().to_ascii_lowercase().as_str() {
                "high" => true,
                "low" => false,
                other => {
                    return Err(err(
                        Some(a.span()),
                        format!(
                        "`active` is \"high\" (lit when the pin is 1) or \"low\", not `{other}`"
                    ),
                    ))
                }
            },
        };
        take(
            &mut port_a[bit as usize],
            format!("LED `{name}`"),
            &pin,
            l.pin.span(),
        )?;
        parts.leds.push(Led {
            name,
            bit,
            active_high,
        });
    }
    for (i, s) in raw.switch.iter().enumerate() {
        let name = s.name.clone().unwrap_or_else(|| format!("switch{}", i + 1));
        let text = s.pin.get_ref().trim().to_ascii_uppercase();
        let pin = if let Some(n) = text
            .strip_prefix("PE")
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| *n < 8)
        {
            take(
                &mut port_e[n as usize],
                format!("switch `{name}`"),
                &text,
                s.pin.span(),
            )?;
            SwitchPin::PortE(n)
        } else {
            let bit = super::bench::parse_port_a_bit(&text)
                .ok()
                .filter(|b| matches!(b, 0 | 1 | 2 | 7))
                .ok_or_else(|| {
                    err(
                        Some(s.pin.span()),
                        format!("a switch goes on an input pin: PA0, PA1, PA2, PA7 or PE0..PE7, not `{text}`"),
                    )
                })?;
            take(
                &mut port_a[bit as usize],
                format!("switch `{name}`"),
                &text,
                s.pin.span(),
            )?;
            SwitchPin::PortA(InputPin(bit))
        };
        let default_high = match &s.default {
            None => true,
            Some(d) if *d.get_ref() <= 1 => *d.get_ref() == 1,
            Some(d) => {
                return Err(err(
                    Some(d.span()),
                    format!("`default` is the pin's level, 0 or 1, not {}", d.get_ref()),
                ))
            }
        };
        let button = match &s.kind {
            None => false,
            Some(k) => match k.get_ref().trim().to_ascii_lowercase().as_str() {
                "toggle" => false,
                "button" => true,
                other => {
                    return Err(err(
                        Some(k.span()),
                        format!("`kind` is \"toggle\" (stays where it is put) or \"button\" (held while pressed), not `{other}`"),
                    ))
                }
            },
        };
        parts.switches.push(Switch {
            name,
            pin,
            default_high,
            button,
        });
    }
    for (i, p) in raw.pot.iter().enumerate() {
        let name = p.name.clone().unwrap_or_else(|| format!("pot{}", i + 1));
        let text = p.input.get_ref().trim().to_ascii_uppercase();
        let channel = text
            .strip_prefix("AN")
            .or_else(|| text.strip_prefix("PE"))
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| *n < 8)
            .ok_or_else(|| {
                err(
                    Some(p.input.span()),
                    format!("`{text}` is no analog input: give AN0..AN7 (= PE0..PE7)"),
                )
            })?;
        take(
            &mut port_e[channel as usize],
            format!("pot `{name}`"),
            &text,
            p.input.span(),
        )?;
        let volts = |v: &Option<Spanned<Volts>>, key: &str, default: u32| {
            match v {
            None => Ok(default),
            Some(v) => v
                .get_ref()
                .milli()
                .filter(|m| *m <= MAX_MILLIVOLTS as u64)
                .map(|m| m as u32)
                .ok_or_else(|| {
                    err(
                        Some(v.span()),
                        format!("`{key}` is a voltage from VRL 0 to VRH 5 (volts, at most three decimals)"),
                    )
                }),
        }
        };
        let min_mv = volts(&p.min, "min", 0)?;
        let max_mv = volts(&p.max, "max", MAX_MILLIVOLTS)?;
        if min_mv > max_mv {
            return Err(err(
                p.min.as_ref().map(|m| m.span()),
                "`min` is above `max`: give the lower end first".into(),
            ));
        }
        let default_mv = volts(&p.volts, "volts", (min_mv + max_mv) / 2)?;
        if !(min_mv..=max_mv).contains(&default_mv) {
            return Err(err(
                p.volts.as_ref().map(|v| v.span()),
                format!(
                    "`volts` must lie between `min` {}.{:03} and `max` {}.{:03}",
                    min_mv / 1000,
                    min_mv % 1000,
                    max_mv / 1000,
                    max_mv % 1000
                ),
            ));
        }
        parts.pots.push(Pot {
            name,
            channel,
            default_mv,
            min_mv,
            max_mv,
        });
    }
    for (i, g) in raw.generator.iter().enumerate() {
        let name = g
            .name
            .clone()
            .unwrap_or_else(|| format!("generator{}", i + 1));
        let text = g.pin.get_ref().trim().to_ascii_uppercase();
        let bit = super::bench::parse_port_a_bit(&text)
            .ok()
            .filter(|b| matches!(b, 0 | 1 | 2 | 7))
            .ok_or_else(|| {
                err(
                    Some(g.pin.span()),
                    format!("a generator goes on PA0, PA1, PA2 (input captures) or PA7 (pulse accumulator), not `{text}`"),
                )
            })?;
        take(
            &mut port_a[bit as usize],
            format!("generator `{name}`"),
            &text,
            g.pin.span(),
        )?;
        let max = super::E_CLOCK_HZ / 4 * 1000;
        let millihertz = g
            .hz
            .get_ref()
            .milli()
            .filter(|m| (1..=max).contains(m))
            .ok_or_else(|| {
                err(
                    Some(g.hz.span()),
                    format!(
                        "`hz` is a frequency from 0.001 to {} Hz (the pins are sampled with the E clock)",
                        super::E_CLOCK_HZ / 4
                    ),
                )
            })?;
        let duty_percent = match &g.duty {
            None => 50,
            Some(d) if (1..=99).contains(d.get_ref()) => *d.get_ref(),
            Some(d) => {
                return Err(err(
                    Some(d.span()),
                    format!(
                        "`duty` is the percent of each period the wave is high: 1 to 99, not {}",
                        d.get_ref()
                    ),
                ))
            }
        };
        parts.generators.push(Generator {
            name,
            pin: InputPin(bit),
            millihertz,
            duty_percent,
            on: g.on.unwrap_or(true),
        });
    }
    if let Some(t) = &raw.trace {
        for pin in t.get_ref() {
            let bit = super::bench::parse_port_a_bit(pin).map_err(|m| {
                err(
                    Some(t.span()),
                    format!("`trace`: {m} (the logic analyser sees port A)"),
                )
            })?;
            parts.trace_mask |= 1 << bit;
        }
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::config::BoardConfig;
    use std::path::Path;

    #[test]
    fn parts_take_the_documented_defaults() {
        let text = "[[led]]\npin = \"PA6\"\n[[switch]]\npin = \"PA0\"\n\
                    [[pot]]\ninput = \"AN2\"\nmin = 1\nmax = 2.5\n\
                    [[generator]]\npin = \"PA7\"\nhz = 0.5\n";
        let b = BoardConfig::parse(text, Path::new("p.toml")).expect("parses");
        let p = &b.parts;
        assert_eq!(
            p.leds,
            vec![Led {
                name: "led1".into(),
                bit: 6,
                active_high: true
            }]
        );
        assert_eq!(
            p.switches,
            vec![Switch {
                name: "switch1".into(),
                pin: SwitchPin::PortA(InputPin(0)),
                default_high: true,
                button: false
            }]
        );
        assert_eq!(
            (
                p.pots[0].channel,
                p.pots[0].default_mv,
                p.pots[0].min_mv,
                p.pots[0].max_mv
            ),
            (2, 1750, 1000, 2500)
        );
        let g = &p.generators[0];
        assert_eq!((g.millihertz, g.duty_percent, g.on), (500, 50, true));
        assert_eq!(p.trace_mask, 0);
        assert!(BoardConfig::trainer11().parts.is_empty());
        assert!(BoardConfig::evb().parts.is_empty());
    }

    #[test]
    fn an_active_low_led_is_lit_by_a_low_pin() {
        let l = Led {
            name: "r".into(),
            bit: 5,
            active_high: false,
        };
        assert!(l.lit(0xDF));
        assert!(!l.lit(0x20));
    }
}
