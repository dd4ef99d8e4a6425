//! The lab bench around the chip: what the outside world does to its pins.
//! One [`BenchAction`] is a voltage on an analog input (`analog:AN0=1.2`),
//! a signal generator on a timer input (`signal:PA2=square:1000`,
//! `signal:PA2=off`), a static level on an input pin (`pin:PA1=0`) or the
//! IRQ/XIRQ pins (`irq:low`, `xirq:high`). `run --analog/--signal/--pin`
//! and the key-script actions of the same names share this parser, so
//! grading scenarios say exactly what the command line says.

use super::E_CLOCK_HZ;
use std::fmt;

/// Highest voltage an input takes, millivolts (VDD of the trainer11).
pub const MAX_MILLIVOLTS: u32 = 5000;

/// A square wave on an input pin, exact in E-cycles: it rises at `start`
/// and then every 1/f; it is high for `duty_percent` of each period. Edge
/// times are rounded up to whole E-cycles without accumulating error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Square {
    /// Frequency in millihertz.
    pub millihertz: u64,
    /// Percent of each period the wave is high (1..=99).
    pub duty_percent: u32,
    /// The cycle of the first rising edge.
    pub start: u64,
}

impl Square {
    /// E-cycles x 100 per period, times millihertz: the common denominator.
    fn cycle_len() -> u128 {
        E_CLOCK_HZ as u128 * 1000 * 100
    }

    /// The level at cycle `t` (low before `start`).
    pub fn level(&self, t: u64) -> bool {
        if t < self.start {
            return false;
        }
        let x = (t - self.start) as u128 * self.millihertz as u128 * 100;
        x % Self::cycle_len() < self.duty_percent as u128 * E_CLOCK_HZ as u128 * 1000
    }

    /// The first cycle after `t` at which the level changes.
    pub fn next_edge(&self, t: u64) -> u64 {
        if t < self.start {
            return self.start;
        }
        let denom = self.millihertz as u128 * 100;
        let x = (t - self.start) as u128 * denom;
        let n = x / Self::cycle_len();
        let target = if self.level(t) {
            n * Self::cycle_len() + self.duty_percent as u128 * E_CLOCK_HZ as u128 * 1000
        } else {
            (n + 1) * Self::cycle_len()
        };
        let dt = target.div_ceil(denom);
        u64::try_from(dt)
            .ok()
            .and_then(|d| self.start.checked_add(d))
            .unwrap_or(u64::MAX)
    }
}

/// What drives an input pin from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Drive {
    /// Nothing: the pin floats and reads 1 (the board's pull-up assumption).
    #[default]
    Open,
    /// A fixed level.
    Level(bool),
    /// A signal generator.
    Square(Square),
}

impl Drive {
    /// The level at cycle `t`.
    pub fn level(&self, t: u64) -> bool {
        match self {
            Drive::Open => true,
            Drive::Level(l) => *l,
            Drive::Square(s) => s.level(t),
        }
    }

    /// The first cycle after `t` at which the level changes (`u64::MAX`: never).
    pub fn next_edge(&self, t: u64) -> u64 {
        match self {
            Drive::Square(s) => s.next_edge(t),
            _ => u64::MAX,
        }
    }
}

/// A port A input pin the bench can drive: PA0-PA2 (IC3-IC1) and PA7 (PAI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputPin(pub u8);

impl InputPin {
    /// Index into the timer's input table: PA0, PA1, PA2, PA7 -> 0..=3.
    pub fn index(self) -> usize {
        match self.0 {
            7 => 3,
            n => n as usize,
        }
    }
}

/// A signal generator setting as written (`square:1000`, `square:1000:25`, `off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalSpec {
    /// Square wave: millihertz and duty percent; it starts when applied.
    Square {
        /// Frequency in millihertz.
        millihertz: u64,
        /// Percent high.
        duty_percent: u32,
    },
    /// The generator disconnected: the pin floats (reads 1).
    Off,
}

/// The IRQ or XIRQ pin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrqLine {
    /// IRQ (I-maskable, vector $FFF2).
    Irq,
    /// XIRQ (X-maskable, vector $FFF4).
    Xirq,
}

impl IrqLine {
    /// The pin's word in scripts (`irq`, `xirq`).
    pub fn word(self) -> &'static str {
        match self {
            IrqLine::Irq => "irq",
            IrqLine::Xirq => "xirq",
        }
    }
}

/// A pin level as scripts write it: `low` (asserted) or `high`.
fn level(low: bool) -> &'static str {
    if low {
        "low"
    } else {
        "high"
    }
}

/// One thing the bench does to the chip's pins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchAction {
    /// Analog input ANn (= PEn) at this many millivolts.
    Analog {
        /// Channel 0..=7.
        channel: u8,
        /// Millivolts, 0..=5000.
        millivolts: u32,
    },
    /// A signal generator on an input pin.
    Signal {
        /// The pin.
        pin: InputPin,
        /// What it sends.
        spec: SignalSpec,
    },
    /// A fixed level on an input pin.
    Pin {
        /// The pin.
        pin: InputPin,
        /// The level.
        high: bool,
    },
    /// The IRQ or XIRQ pin: `low` asserts it (both are active low).
    Irq {
        /// Which pin.
        line: IrqLine,
        /// True to pull it low (asserted).
        low: bool,
    },
    /// The IRQ or XIRQ pin driven from E-cycle `at` (since reset) on
    /// (`irq:low@N`): a board event, seen at the first instruction boundary
    /// at or after it.
    IrqAt {
        /// Which pin.
        line: IrqLine,
        /// True to pull it low (asserted).
        low: bool,
        /// The cycle.
        at: u64,
    },
}

impl fmt::Display for BenchAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchAction::Analog {
                channel,
                millivolts,
            } => write!(
                f,
                "analog:AN{channel}={}.{:03}",
                millivolts / 1000,
                millivolts % 1000
            ),
            BenchAction::Signal { pin, spec } => match spec {
                SignalSpec::Off => write!(f, "signal:PA{}=off", pin.0),
                SignalSpec::Square {
                    millihertz,
                    duty_percent,
                } => {
                    write!(f, "signal:PA{}=square:{}", pin.0, millihertz / 1000)?;
                    if millihertz % 1000 != 0 {
                        write!(f, ".{:03}", millihertz % 1000)?;
                    }
                    if *duty_percent != 50 {
                        write!(f, ":{duty_percent}")?;
                    }
                    Ok(())
                }
            },
            BenchAction::Pin { pin, high } => write!(f, "pin:PA{}={}", pin.0, *high as u8),
            BenchAction::Irq { line, low } => write!(f, "{}:{}", line.word(), level(*low)),
            BenchAction::IrqAt { line, low, at } => {
                write!(f, "{}:{}@{at}", line.word(), level(*low))
            }
        }
    }
}

/// Parses a decimal number with up to `scale_digits` fraction digits into an
/// integer scaled by 10^scale_digits (`1.25`, 3 -> 1250), without floats.
fn parse_fixed(text: &str, scale_digits: u32) -> Option<u64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if frac.len() > scale_digits as usize
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let i: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut f: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    f *= 10u64.pow(scale_digits - frac.len() as u32);
    i.checked_mul(10u64.pow(scale_digits))?.checked_add(f)
}

fn input_pin(name: &str) -> Result<InputPin, String> {
    match name.to_ascii_uppercase().as_str() {
        "PA0" | "IC3" => Ok(InputPin(0)),
        "PA1" | "IC2" => Ok(InputPin(1)),
        "PA2" | "IC1" => Ok(InputPin(2)),
        "PA7" | "PAI" => Ok(InputPin(7)),
        _ => Err(format!(
            "`{name}` is not an input pin the bench can drive; use PA0, PA1, PA2 (input captures) or PA7 (pulse accumulator)"
        )),
    }
}

/// Parses a port A pin name for `--trace-pin` (`PA6`) into its bit.
pub fn parse_port_a_bit(name: &str) -> Result<u8, String> {
    let upper = name.trim().to_ascii_uppercase();
    upper
        .strip_prefix("PA")
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| *n < 8)
        .ok_or_else(|| format!("`{}` is not a port A pin; use PA0..PA7", name.trim()))
}

/// Parses the value of `--analog` (`AN0=2.5`, `PE3=1.25V`).
pub fn parse_analog(text: &str) -> Result<BenchAction, String> {
    let (name, volts) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: write ANn=VOLTS, e.g. AN0=2.5"))?;
    let name = name.trim().to_ascii_uppercase();
    let channel = name
        .strip_prefix("AN")
        .or_else(|| name.strip_prefix("PE"))
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| *n < 8)
        .ok_or_else(|| format!("`{name}` is no analog input; use AN0..AN7 (= PE0..PE7)"))?;
    let v = volts.trim();
    let v = v
        .strip_suffix('V')
        .or_else(|| v.strip_suffix('v'))
        .unwrap_or(v);
    let millivolts = parse_fixed(v.trim(), 3)
        .filter(|mv| *mv <= MAX_MILLIVOLTS as u64)
        .ok_or_else(|| {
            format!("`{volts}` is not a voltage from 0 to 5 (volts, at most three decimals)")
        })? as u32;
    Ok(BenchAction::Analog {
        channel,
        millivolts,
    })
}

/// Parses the value of `--signal` (`PA2=square:1000`, `PA2=square:50.5:25`, `PA0=off`).
pub fn parse_signal(text: &str) -> Result<BenchAction, String> {
    let (name, what) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: write PIN=square:HZ[:DUTY] or PIN=off"))?;
    let pin = input_pin(name.trim())?;
    let what = what.trim().to_ascii_lowercase();
    if what == "off" {
        return Ok(BenchAction::Signal {
            pin,
            spec: SignalSpec::Off,
        });
    }
    let mut parts = what.split(':');
    let kind = parts.next().unwrap_or("");
    let (Some(hz), duty, None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!(
            "`{what}`: write square:HZ or square:HZ:DUTY (percent), or off"
        ));
    };
    if kind != "square" {
        return Err(format!(
            "`{kind}`: the generator makes square waves; write square:HZ[:DUTY]"
        ));
    }
    let millihertz = parse_fixed(hz.trim(), 3)
        .filter(|m| (1..=(E_CLOCK_HZ / 4) * 1000).contains(m))
        .ok_or_else(|| {
            format!(
                "`{hz}` is not a frequency from 0.001 Hz to {} Hz (the pins are sampled with the E clock)",
                E_CLOCK_HZ / 4
            )
        })?;
    let duty_percent = match duty {
        None => 50,
        Some(d) => d
            .trim()
            .trim_end_matches('%')
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=99).contains(d))
            .ok_or_else(|| format!("duty `{d}` is not a percentage from 1 to 99"))?,
    };
    Ok(BenchAction::Signal {
        pin,
        spec: SignalSpec::Square {
            millihertz,
            duty_percent,
        },
    })
}

/// Parses the value of `--pin` (`PA1=0`, `PA7=1`, `PE3=1` = 5 V on AN3).
pub fn parse_pin(text: &str) -> Result<BenchAction, String> {
    let (name, level) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: write PIN=0 or PIN=1"))?;
    let high = match level.trim() {
        "0" => false,
        "1" => true,
        other => return Err(format!("`{other}`: a pin level is 0 or 1")),
    };
    let upper = name.trim().to_ascii_uppercase();
    if let Some(n) = upper
        .strip_prefix("PE")
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| *n < 8)
    {
        return Ok(BenchAction::Analog {
            channel: n,
            millivolts: if high { MAX_MILLIVOLTS } else { 0 },
        });
    }
    Ok(BenchAction::Pin {
        pin: input_pin(name.trim())?,
        high,
    })
}

/// Parses `irq:low`, `xirq:high` (the part after the action word given as
/// `line`), and `irq:low@N` (from E-cycle N on).
pub fn parse_irq(line: IrqLine, level: &str) -> Result<BenchAction, String> {
    if level.contains('@') {
        let (at, low) = parse_level_at(level)?;
        return Ok(BenchAction::IrqAt { line, low, at });
    }
    let low = match level.trim().to_ascii_lowercase().as_str() {
        "low" | "0" => true,
        "high" | "1" => false,
        other => return Err(format!("`{other}`: the pin is low (asserted) or high")),
    };
    Ok(BenchAction::Irq { line, low })
}

/// Parses `low@N` / `high@N` (`run --irq`): the level (true = low,
/// asserted) and the cycle it is driven from.
pub fn parse_irq_at(text: &str) -> Result<(u64, bool), String> {
    parse_level_at(text)
}

/// `low@N` / `high@N`: the cycle and the level (true = low).
fn parse_level_at(text: &str) -> Result<(u64, bool), String> {
    let (level, at) = text
        .split_once('@')
        .ok_or_else(|| format!("`{text}`: write low@CYCLES or high@CYCLES"))?;
    let BenchAction::Irq { low, .. } = parse_irq(IrqLine::Irq, level)? else {
        return Err(format!("`{text}`: write low@CYCLES or high@CYCLES"));
    };
    let digits: String = at.trim().chars().filter(|c| *c != '_').collect();
    let cycle = digits.parse::<u64>().map_err(|_| {
        format!("`{at}` is not a cycle count: write low@1000 (E-cycles from reset)")
    })?;
    Ok((cycle, low))
}

/// Parses a script item that is a bench action (`analog:...`, `signal:...`,
/// `pin:...`, `irq:...`, `xirq:...`); `None` if the item is none of them.
pub fn parse_action(item: &str) -> Option<Result<BenchAction, String>> {
    let (word, rest) = item.split_once(':')?;
    Some(match word.trim().to_ascii_lowercase().as_str() {
        "analog" => parse_analog(rest),
        "signal" => parse_signal(rest),
        "pin" => parse_pin(rest),
        "irq" => parse_irq(IrqLine::Irq, rest),
        "xirq" => parse_irq(IrqLine::Xirq, rest),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_1khz_is_2000_cycles() {
        let s = Square {
            millihertz: 1_000_000,
            duty_percent: 50,
            start: 100,
        };
        assert!(!s.level(99));
        assert!(s.level(100));
        assert_eq!(s.next_edge(100), 1100);
        assert!(!s.level(1100));
        assert_eq!(s.next_edge(1100), 2100);
        assert_eq!(s.next_edge(2099), 2100);
    }

    #[test]
    fn odd_frequency_edges_do_not_drift() {
        let s = Square {
            millihertz: 3_000_000,
            duty_percent: 50,
            start: 0,
        };
        // 666.67 cycles per period: rises at 0, 667, 1334, 2000.
        let mut t = 0;
        let mut rises = vec![];
        while rises.len() < 4 {
            let e = s.next_edge(t);
            if s.level(e) {
                rises.push(e);
            }
            t = e;
        }
        assert_eq!(rises, vec![667, 1334, 2000, 2667]);
    }

    #[test]
    fn parses_and_prints_actions() {
        for text in [
            "analog:AN0=1.200",
            "signal:PA2=square:1000",
            "signal:PA0=off",
            "signal:PA7=square:50.500:25",
            "pin:PA1=0",
            "irq:low",
            "xirq:high",
        ] {
            let a = parse_action(text).expect("bench word").expect("valid");
            assert_eq!(a.to_string(), text);
        }
        assert!(parse_analog("AN8=1").is_err());
        assert!(parse_analog("AN0=5.1").is_err());
        assert!(parse_analog("AN0=-1").is_err());
        assert!(parse_signal("PA3=square:10").is_err());
        assert!(parse_signal("PA2=sine:10").is_err());
        assert!(parse_action("wait:10").is_none());
    }
}
