//! Expressions as the editor's Watch view, hovers, log points and data
//! breakpoints use them. The language is the `--break` condition language
//! (`[coordy] == 5`, `A + 1`, `board+136`), with one addition for people
//! looking at data: a bare name of a variable (a label with a declared
//! size, `coordy`) stands for its value, as in the Variables view, not for
//! its address (`@coordy` or `coordy+0` is the address).

use super::protocol::{memory_reference, Variable};
use super::variables::{
    cell_addr, cell_base, globals, number_text, symbol_variable, Container, MachineView, Style,
    CELL_BYTES, CELL_COLUMNS,
};
use crate::debug::condition::{BoundExpr, Expr};
use crate::image::{Program, Symbol, SymbolKind};
use crate::machine::Machine;

/// The variable a bare name stands for, with its index among the symbols.
fn variable_named<'p>(program: &'p Program, text: &str) -> Option<(usize, &'p Symbol)> {
    let name = text.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        return None;
    }
    // Register and flag names win, as in conditions.
    if is_register_or_flag(name) {
        return None;
    }
    globals(program)
        .into_iter()
        .find(|(_, s)| s.name.eq_ignore_ascii_case(name))
}

fn is_register_or_flag(name: &str) -> bool {
    const NAMES: [&str; 16] = [
        "A", "B", "D", "X", "Y", "SP", "PC", "CCR", "CYCLES", "C", "Z", "N", "V", "H", "I", "S",
    ];
    NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// A parsed and bound expression, or a bare variable.
#[derive(Clone, Debug)]
pub enum Value {
    /// A variable's bytes (address, size).
    Var(u16, usize),
    /// Anything else, evaluated with the condition language.
    Expr(BoundExpr),
}

impl Value {
    /// Parses `text` against `program`; the error names the column.
    pub fn parse(text: &str, program: &Program) -> Result<Value, String> {
        if let Some((_, s)) = variable_named(program, text) {
            return Ok(Value::Var(s.value, s.size.unwrap_or(1) as usize));
        }
        let expr = Expr::parse(text.trim()).map_err(|e| e.render(text.trim()))?;
        expr.bind(program)
            .map(Value::Expr)
            .map_err(|e| e.render(text.trim()))
    }

    /// The number it stands for now (a variable: its byte or big-endian
    /// word; a longer one: its first byte), or why an expression has none
    /// (a division by zero, an address outside memory).
    pub fn number(&self, m: &Machine) -> Result<i64, String> {
        match self {
            Value::Var(addr, 2) => Ok(i64::from(m.peek_word(*addr))),
            Value::Var(addr, _) => Ok(i64::from(m.peek(*addr))),
            Value::Expr(e) => e.value(&MachineView(m)).map_err(|f| f.to_string()),
        }
    }
}

/// What `evaluate` answers.
pub fn evaluate(m: &Machine, text: &str, style: Style) -> Result<Variable, String> {
    let program = m.program();
    if let Some((i, s)) = variable_named(program, text) {
        return Ok(symbol_variable(m, i, s, style));
    }
    let value = Value::parse(text, program)?;
    let v = value.number(m)?;
    // A label names an address: offer it to the memory and disassembly views.
    let label = program
        .symbol(text.trim())
        .filter(|s| s.kind == SymbolKind::Label && !is_register_or_flag(text.trim()));
    Ok(Variable {
        name: text.trim().to_string(),
        value: number_text(v),
        memory_reference: label.map(|s| memory_reference(s.value)),
        ..Variable::default()
    })
}

/// How a log point prints a value: `{expr}` decimal, `{expr:x}` hex,
/// `{expr:b}` binary, `{expr:c}` a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Decimal,
    Hex,
    Binary,
    Char,
}

#[derive(Clone, Debug)]
enum Part {
    Text(String),
    Value(Value, Format),
}

/// A log point's message with its `{expression}` parts parsed and bound.
#[derive(Clone, Debug)]
pub struct LogTemplate {
    parts: Vec<Part>,
}

impl LogTemplate {
    /// Parses a message; `{{` and `}}` are literal braces.
    pub fn parse(text: &str, program: &Program) -> Result<LogTemplate, String> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '{' if chars.peek().map(|p| p.1) == Some('{') => {
                    chars.next();
                    lit.push('{');
                }
                '}' if chars.peek().map(|p| p.1) == Some('}') => {
                    chars.next();
                    lit.push('}');
                }
                '{' => {
                    let rest = &text[i + 1..];
                    let close = rest.find('}').ok_or_else(|| {
                        format!("log message: `{{` at column {} is never closed", i + 1)
                    })?;
                    let inner = &rest[..close];
                    let (expr, format) = match inner.rsplit_once(':') {
                        Some((e, "x")) => (e, Format::Hex),
                        Some((e, "b")) => (e, Format::Binary),
                        Some((e, "c")) => (e, Format::Char),
                        Some((e, "d")) => (e, Format::Decimal),
                        _ => (inner, Format::Decimal),
                    };
                    let value = Value::parse(expr, program)
                        .map_err(|e| format!("log message `{{{inner}}}`: {e}"))?;
                    if !lit.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut lit)));
                    }
                    parts.push(Part::Value(value, format));
                    for _ in 0..inner.chars().count() + 1 {
                        chars.next();
                    }
                }
                '}' => return Err(format!("log message: `}}` at column {} has no `{{`", i + 1)),
                c => lit.push(c),
            }
        }
        if !lit.is_empty() {
            parts.push(Part::Text(lit));
        }
        Ok(LogTemplate { parts })
    }

    /// The message with the values of now.
    pub fn render(&self, m: &Machine) -> String {
        let mut out = String::new();
        for p in &self.parts {
            match p {
                Part::Text(t) => out.push_str(t),
                Part::Value(v, f) => {
                    // A value without a number (1/0) says why in its place.
                    let n = match v.number(m) {
                        Ok(n) => n,
                        Err(why) => {
                            out.push_str(&format!("<{why}>"));
                            continue;
                        }
                    };
                    let text = match f {
                        Format::Decimal => n.to_string(),
                        Format::Hex if (0..=0xFF).contains(&n) => format!("${n:02X}"),
                        Format::Hex => format!("${n:04X}"),
                        Format::Binary if (0..=0xFF).contains(&n) => format!("%{n:08b}"),
                        Format::Binary => format!("%{n:b}"),
                        Format::Char => u8::try_from(n)
                            .ok()
                            .filter(|b| b.is_ascii_graphic() || *b == b' ')
                            .map_or_else(
                                || format!("\\x{:02X}", n as u8),
                                |b| (b as char).to_string(),
                            ),
                    };
                    out.push_str(&text);
                }
            }
        }
        out
    }
}

/// What a data breakpoint on `name` would watch: its data id (a watch
/// location, `coordy:1`, `$0040:336`) and a description; `None` with the
/// reason when it cannot be watched.
pub fn data_info(
    m: &Machine,
    container: Option<Container>,
    name: &str,
    bytes: Option<i64>,
    as_address: bool,
) -> Result<(String, String), String> {
    let program = m.program();
    let len = |default: usize| -> Result<u16, String> {
        let n = bytes.map_or(default as i64, |b| b);
        u16::try_from(n)
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("{n} bytes cannot be watched (1..65535)"))
    };
    let at = |addr: u16, n: u16, what: &str| {
        (
            format!("${addr:04X}:{n}"),
            format!(
                "{what} ({n} byte{} at ${addr:04X})",
                if n == 1 { "" } else { "s" }
            ),
        )
    };
    let base = || cell_base(program).ok_or_else(|| "the program has no cell buffer".to_string());
    match container {
        None if as_address => {
            let t = name.trim();
            let addr = match t.strip_prefix("0x").or_else(|| t.strip_prefix('$')) {
                Some(h) => i64::from_str_radix(h, 16).ok(),
                None => t.parse::<i64>().ok(),
            }
            .and_then(|a| u16::try_from(a).ok())
            .ok_or_else(|| format!("`{t}` is not an address $0000-$FFFF"))?;
            Ok(at(addr, len(1)?, &format!("${addr:04X}")))
        }
        None | Some(Container::Globals) => {
            if let Some(s) = program
                .symbol(name.trim())
                .filter(|s| s.kind == SymbolKind::Label)
            {
                let n = len(s.size.unwrap_or(1) as usize)?;
                return Ok((format!("{}:{n}", s.name), at(s.value, n, &s.name).1));
            }
            if container.is_some() {
                return Err(format!("no variable `{name}`"));
            }
            let value = Value::parse(name, program)?;
            let addr = match value {
                Value::Var(a, _) => i64::from(a),
                Value::Expr(e) => e
                    .value(&MachineView(m))
                    .map_err(|f| format!("`{name}`: {f}"))?,
            };
            let addr = u16::try_from(addr)
                .map_err(|_| format!("`{name}` is {addr}, not an address $0000-$FFFF"))?;
            Ok(at(addr, len(1)?, name.trim()))
        }
        Some(Container::Registers) | Some(Container::Ccr) => {
            Err("registers are not memory: watch a variable or an address instead".into())
        }
        Some(Container::Var(i)) => {
            let s = program.symbols.get(i).ok_or("no such variable")?;
            let k = byte_index(name, s.size.unwrap_or(1) as usize)?;
            let addr = s.value.wrapping_add(k as u16);
            Ok(at(addr, len(1)?, &format!("{}{name}", s.name)))
        }
        Some(Container::Cells) => {
            let row: u8 = name
                .strip_prefix("row ")
                .and_then(|r| r.parse().ok())
                .ok_or_else(|| format!("no row `{name}`"))?;
            let addr = cell_addr(base()?, 0, row, 0);
            Ok(at(
                addr,
                len(usize::from(CELL_COLUMNS) * CELL_BYTES as usize)?,
                name,
            ))
        }
        Some(Container::Row(row)) => {
            let col: u8 = name
                .strip_prefix("cell ")
                .and_then(|c| c.split(',').next())
                .and_then(|c| c.parse().ok())
                .ok_or_else(|| format!("no cell `{name}`"))?;
            let addr = cell_addr(base()?, col, row, 0);
            Ok(at(addr, len(CELL_BYTES as usize)?, name))
        }
        Some(Container::Cell(col, row)) => {
            let k = byte_index(name, CELL_BYTES as usize)?;
            let addr = cell_addr(base()?, col, row, k as u16);
            Ok(at(addr, len(1)?, &format!("cell {col},{row}{name}")))
        }
    }
}

fn byte_index(name: &str, len: usize) -> Result<usize, String> {
    name.strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&k| k < len)
        .ok_or_else(|| format!("no byte `{name}` here"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine() -> Machine {
        let opened = crate::open::open(None).expect("bundled");
        Machine::new(opened.program).expect("machine")
    }

    #[test]
    fn a_bare_variable_is_its_value_and_a_label_its_address() {
        let mut m = machine();
        let coordy = m.program().symbol("coordy").expect("coordy").value;
        m.poke(coordy, &[5]).expect("poke");
        let v = evaluate(&m, "coordy", Style::default()).expect("coordy");
        assert_eq!(v.value, "$05 (5)");
        assert_eq!(v.memory_reference, Some(memory_reference(coordy)));
        let v = evaluate(&m, "[coordy] + 1", Style::default()).expect("expr");
        assert_eq!(v.value, "$06 (6)");
        let draw = m.program().symbol("drawCell").expect("drawCell").value;
        let v = evaluate(&m, "drawCell", Style::default()).expect("label");
        assert_eq!(v.value, number_text(i64::from(draw)));
        assert_eq!(v.memory_reference, Some(memory_reference(draw)));
        let board = evaluate(&m, "board", Style::default()).expect("board");
        assert!(board.variables_reference > 0);
        assert!(evaluate(&m, "ldaa", Style::default()).is_err());
        assert!(evaluate(&m, "A", Style::default()).is_ok());
    }

    #[test]
    fn log_templates_interpolate_and_escape() {
        let mut m = machine();
        let coordy = m.program().symbol("coordy").expect("coordy").value;
        m.poke(coordy, &[0x2A]).expect("poke");
        let t = LogTemplate::parse(
            "y={coordy} hex={[coordy]:x} {{lit}} c={'A':c} b={3:b}",
            m.program(),
        )
        .expect("template");
        assert_eq!(t.render(&m), "y=42 hex=$2A {lit} c=A b=%00000011");
        let t =
            LogTemplate::parse("q={1/([coordy]-42)} y={coordy}", m.program()).expect("template");
        assert_eq!(t.render(&m), "q=<division by zero> y=42");
        let e = evaluate(&m, "1/([coordy]-42)", Style::default()).expect_err("no number");
        assert!(e.contains("division by zero"), "{e}");
        assert!(LogTemplate::parse("x={nosuch}", m.program()).is_err());
        assert!(LogTemplate::parse("x={A", m.program()).is_err());
        assert!(LogTemplate::parse("x=}", m.program()).is_err());
    }

    #[test]
    fn data_ids_are_watch_locations() {
        let m = machine();
        let (id, desc) = data_info(&m, None, "coordy", None, false).expect("coordy");
        assert_eq!(id, "coordy:1");
        assert!(desc.contains("1 byte at $"), "{desc}");
        let (id, _) = data_info(&m, Some(Container::Globals), "board", None, false).expect("board");
        assert_eq!(id, "board:336");
        let (id, _) = data_info(&m, None, "0x0040", Some(8), true).expect("address");
        assert_eq!(id, "$0040:8");
        let (id, _) =
            data_info(&m, Some(Container::Row(2)), "cell 3,2", None, false).expect("cell");
        assert_eq!(id, "$00C8:8");
        assert!(data_info(&m, Some(Container::Registers), "A", None, false).is_err());
    }
}
