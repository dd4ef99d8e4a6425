//! What the Variables view shows and edits: the CPU registers (CCR with
//! its flags as children), the program's variables by label with their
//! declared size, and the cell buffer as 7 x 6 cells of 8 bytes (rows,
//! then cells, then bytes). References are fixed numbers per container, so
//! they stay valid across stops (the protocol lets them change; keeping
//! them is simpler for clients too).

use super::protocol::{memory_reference, Scope, Variable};
use crate::cpu::{flags, Registers};
use crate::debug::condition::{EvalContext, Expr, Reg};
use crate::image::{Program, Symbol, SymbolKind};
use crate::machine::Machine;

/// The CCR flags, most significant bit first, with their masks.
pub const FLAGS: [(&str, u8); 8] = [
    ("S", flags::S),
    ("X", flags::X),
    ("H", flags::H),
    ("I", flags::I),
    ("N", flags::N),
    ("Z", flags::Z),
    ("V", flags::V),
    ("C", flags::C),
];

/// Columns and rows of the game's cell buffer, bytes per cell.
pub const CELL_COLUMNS: u8 = 7;
/// Rows of cells.
pub const CELL_ROWS: u8 = 6;
/// One byte per LCD column of the 8 x 8 cell.
pub const CELL_BYTES: u16 = 8;

const REGISTERS: i64 = 1;
const CCR: i64 = 2;
const GLOBALS: i64 = 3;
const CELLS: i64 = 4;
const ROW_BASE: i64 = 10;
const CELL_BASE: i64 = 20;
const VAR_BASE: i64 = 1000;

/// Something the Variables view can open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// A, B, D, X, Y, SP, PC, CCR.
    Registers,
    /// The eight CCR bits.
    Ccr,
    /// The program's variables.
    Globals,
    /// The cell buffer's six rows.
    Cells,
    /// One row of seven cells.
    Row(u8),
    /// One cell's eight bytes (column, row).
    Cell(u8, u8),
    /// The bytes of a variable longer than a word (index into the symbols).
    Var(usize),
}

impl Container {
    /// The container a reference names, if any.
    pub fn from_reference(r: i64) -> Option<Container> {
        let rows = i64::from(CELL_ROWS);
        let cells = rows * i64::from(CELL_COLUMNS);
        Some(match r {
            REGISTERS => Container::Registers,
            CCR => Container::Ccr,
            GLOBALS => Container::Globals,
            CELLS => Container::Cells,
            r if (ROW_BASE..ROW_BASE + rows).contains(&r) => Container::Row((r - ROW_BASE) as u8),
            r if (CELL_BASE..CELL_BASE + cells).contains(&r) => {
                let i = (r - CELL_BASE) as u8;
                Container::Cell(i % CELL_COLUMNS, i / CELL_COLUMNS)
            }
            r if r >= VAR_BASE => Container::Var(usize::try_from(r - VAR_BASE).ok()?),
            _ => return None,
        })
    }

    /// Its reference.
    pub fn reference(self) -> i64 {
        match self {
            Container::Registers => REGISTERS,
            Container::Ccr => CCR,
            Container::Globals => GLOBALS,
            Container::Cells => CELLS,
            Container::Row(r) => ROW_BASE + i64::from(r),
            Container::Cell(c, r) => {
                CELL_BASE + i64::from(r) * i64::from(CELL_COLUMNS) + i64::from(c)
            }
            Container::Var(i) => VAR_BASE + i as i64,
        }
    }
}

/// Reads registers and memory for expressions, without side effects.
pub struct MachineView<'a>(pub &'a Machine);

impl EvalContext for MachineView<'_> {
    fn reg(&self, reg: Reg) -> u64 {
        let r = self.0.registers();
        match reg {
            Reg::A => r.a.into(),
            Reg::B => r.b.into(),
            Reg::D => r.d().into(),
            Reg::X => r.x.into(),
            Reg::Y => r.y.into(),
            Reg::Sp => r.sp.into(),
            Reg::Pc => r.pc.into(),
            Reg::Ccr => r.ccr.into(),
            Reg::Cycles => self.0.cycles(),
        }
    }

    fn peek(&self, addr: u16) -> u8 {
        self.0.peek(addr)
    }
}

/// `$05 (5)`.
pub fn byte_text(v: u8) -> String {
    format!("${v:02X} ({v})")
}

/// `$1234 (4660)`.
pub fn word_text(v: u16) -> String {
    format!("${v:04X} ({v})")
}

/// A number an expression gave: as a byte or word when it is one.
pub fn number_text(v: i64) -> String {
    match v {
        0..=0xFF => byte_text(v as u8),
        0x100..=0xFFFF => word_text(v as u16),
        _ => v.to_string(),
    }
}

/// Bytes as hex pairs, the first 16 and how many there are.
pub fn bytes_text(bytes: &[u8]) -> String {
    let shown: Vec<String> = bytes.iter().take(16).map(|b| format!("{b:02X}")).collect();
    if bytes.len() > 16 {
        format!("{} ... ({} bytes)", shown.join(" "), bytes.len())
    } else {
        shown.join(" ")
    }
}

/// `$D4 [SX-I-Z--]`: the CCR with its set flags by letter.
pub fn ccr_text(ccr: u8) -> String {
    let bits: String = FLAGS
        .iter()
        .map(|(n, m)| {
            if ccr & m != 0 {
                n.chars().next().unwrap_or('?')
            } else {
                '-'
            }
        })
        .collect();
    format!("${ccr:02X} [{bits}]")
}

/// The program's variables: labels with a declared size, by address.
pub fn globals(program: &Program) -> Vec<(usize, &Symbol)> {
    let mut v: Vec<(usize, &Symbol)> = program
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == SymbolKind::Label && s.size.is_some_and(|n| n > 0))
        .collect();
    v.sort_by_key(|(i, s)| (s.value, *i));
    v
}

/// The first byte of the cell buffer (`board`), if the program has one.
pub fn cell_base(program: &Program) -> Option<u16> {
    let board = program.symbol("board")?;
    let needed = u32::from(CELL_ROWS) * u32::from(CELL_COLUMNS) * u32::from(CELL_BYTES);
    (board.kind == SymbolKind::Label && board.size.is_none_or(|n| n >= needed))
        .then_some(board.value)
}

/// The address of byte `k` of cell (column, row).
pub fn cell_addr(base: u16, col: u8, row: u8, k: u16) -> u16 {
    let row_bytes = u16::from(CELL_COLUMNS) * CELL_BYTES;
    base.wrapping_add(u16::from(row) * row_bytes + u16::from(col) * CELL_BYTES + k)
}

/// The scopes of every frame (registers only for the innermost, whose
/// registers are the CPU's).
pub fn scopes(program: &Program, innermost: bool) -> Vec<Scope> {
    let mut out = Vec::new();
    if innermost {
        out.push(Scope {
            name: "Registers".into(),
            presentation_hint: Some("registers".into()),
            variables_reference: REGISTERS,
            named_variables: Some(8),
            indexed_variables: None,
            expensive: false,
        });
    }
    out.push(Scope {
        name: "Variables".into(),
        presentation_hint: Some("locals".into()),
        variables_reference: GLOBALS,
        named_variables: Some(globals(program).len() as i64),
        indexed_variables: None,
        expensive: false,
    });
    if cell_base(program).is_some() {
        out.push(Scope {
            name: "Cell buffer (7 x 6)".into(),
            presentation_hint: None,
            variables_reference: CELLS,
            named_variables: Some(i64::from(CELL_ROWS)),
            indexed_variables: None,
            expensive: false,
        });
    }
    out
}

/// Whether the client shows `type`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// The client asked for types.
    pub types: bool,
}

impl Style {
    fn ty(&self, t: &str) -> Option<String> {
        self.types.then(|| t.to_string())
    }
}

/// A variable of the program, as the Variables view and hovers show it.
pub fn symbol_variable(m: &Machine, index: usize, sym: &Symbol, style: Style) -> Variable {
    let size = sym.size.unwrap_or(1).min(0x10000) as usize;
    let bytes = m.peek_range(sym.value, size);
    let (value, ty, children) = match size {
        1 => (byte_text(bytes[0]), "byte".to_string(), 0),
        2 => (
            word_text(u16::from_be_bytes([bytes[0], bytes[1]])),
            "word".to_string(),
            0,
        ),
        n => (bytes_text(&bytes), format!("byte[{n}]"), n),
    };
    Variable {
        name: sym.name.clone(),
        value,
        type_: style.ty(&ty),
        evaluate_name: Some(sym.name.clone()),
        variables_reference: if children > 0 {
            Container::Var(index).reference()
        } else {
            0
        },
        indexed_variables: (children > 0).then_some(children as i64),
        memory_reference: Some(memory_reference(sym.value)),
        ..Variable::default()
    }
}

fn byte_variable(name: String, addr: u16, m: &Machine, style: Style) -> Variable {
    Variable {
        name,
        value: byte_text(m.peek(addr)),
        type_: style.ty("byte"),
        evaluate_name: Some(format!("[${addr:04X}]")),
        memory_reference: Some(memory_reference(addr)),
        ..Variable::default()
    }
}

fn register_variables(r: &Registers, style: Style) -> Vec<Variable> {
    let reg = |name: &str, value: String, ty: &str| Variable {
        name: name.into(),
        value,
        type_: style.ty(ty),
        evaluate_name: Some(name.into()),
        ..Variable::default()
    };
    let pointer = |name: &str, v: u16| Variable {
        memory_reference: Some(memory_reference(v)),
        ..reg(name, word_text(v), "word")
    };
    vec![
        reg("A", byte_text(r.a), "byte"),
        reg("B", byte_text(r.b), "byte"),
        reg("D", word_text(r.d()), "word"),
        pointer("X", r.x),
        pointer("Y", r.y),
        pointer("SP", r.sp),
        pointer("PC", r.pc),
        Variable {
            variables_reference: CCR,
            named_variables: Some(8),
            ..reg("CCR", ccr_text(r.ccr), "byte")
        },
    ]
}

/// The children of a container; `start` and `count` page indexed ones.
pub fn variables(
    m: &Machine,
    container: Container,
    start: usize,
    count: Option<usize>,
    style: Style,
) -> Result<Vec<Variable>, String> {
    let program = m.program();
    let all = match container {
        Container::Registers => register_variables(&m.registers(), style),
        Container::Ccr => {
            let ccr = m.registers().ccr;
            FLAGS
                .iter()
                .map(|(n, mask)| Variable {
                    name: (*n).into(),
                    value: u8::from(ccr & mask != 0).to_string(),
                    type_: style.ty("flag"),
                    evaluate_name: Some(format!("CCR.{n}")),
                    ..Variable::default()
                })
                .collect()
        }
        Container::Globals => globals(program)
            .into_iter()
            .map(|(i, s)| symbol_variable(m, i, s, style))
            .collect(),
        Container::Cells => {
            let base = cell_base(program).ok_or("the program has no cell buffer (`board`)")?;
            (0..CELL_ROWS)
                .map(|row| Variable {
                    name: format!("row {row}"),
                    value: format!("{CELL_COLUMNS} cells"),
                    variables_reference: Container::Row(row).reference(),
                    named_variables: Some(i64::from(CELL_COLUMNS)),
                    memory_reference: Some(memory_reference(cell_addr(base, 0, row, 0))),
                    ..Variable::default()
                })
                .collect()
        }
        Container::Row(row) => {
            let base = cell_base(program).ok_or("the program has no cell buffer (`board`)")?;
            (0..CELL_COLUMNS)
                .map(|col| {
                    let addr = cell_addr(base, col, row, 0);
                    let off = addr.wrapping_sub(base);
                    Variable {
                        name: format!("cell {col},{row}"),
                        value: bytes_text(&m.peek_range(addr, CELL_BYTES as usize)),
                        type_: style.ty("byte[8]"),
                        evaluate_name: Some(format!("board+{off}")),
                        variables_reference: Container::Cell(col, row).reference(),
                        indexed_variables: Some(i64::from(CELL_BYTES)),
                        memory_reference: Some(memory_reference(addr)),
                        ..Variable::default()
                    }
                })
                .collect()
        }
        Container::Cell(col, row) => {
            let base = cell_base(program).ok_or("the program has no cell buffer (`board`)")?;
            (0..CELL_BYTES)
                .map(|k| byte_variable(format!("[{k}]"), cell_addr(base, col, row, k), m, style))
                .collect()
        }
        Container::Var(i) => {
            let sym = program
                .symbols
                .get(i)
                .ok_or("no variables with this reference (the program was reloaded?)")?;
            let size = sym.size.unwrap_or(1) as usize;
            let end = count.map_or(size, |c| start.saturating_add(c).min(size));
            return Ok((start.min(end)..end)
                .map(|k| {
                    byte_variable(format!("[{k}]"), sym.value.wrapping_add(k as u16), m, style)
                })
                .collect());
        }
    };
    Ok(all)
}

/// A value typed into the view: an expression of the condition language
/// (`$3C`, `%0101`, `'A'`, `[coordy]+1`), evaluated now.
pub fn parse_value(text: &str, m: &Machine) -> Result<i64, String> {
    let expr = Expr::parse(text.trim()).map_err(|e| format!("`{text}`: {e}"))?;
    let bound = expr
        .bind(m.program())
        .map_err(|e| format!("`{text}`: {e}"))?;
    bound
        .value(&MachineView(m))
        .map_err(|f| format!("`{text}`: {f}"))
}

fn fit_byte(v: i64, what: &str) -> Result<u8, String> {
    match v {
        0..=255 => Ok(v as u8),
        -128..=-1 => Ok(v as i8 as u8),
        _ => Err(format!(
            "{what}: {v} does not fit in a byte (0..255 or -128..-1)"
        )),
    }
}

fn fit_word(v: i64, what: &str) -> Result<u16, String> {
    match v {
        0..=0xFFFF => Ok(v as u16),
        -0x8000..=-1 => Ok(v as i16 as u16),
        _ => Err(format!(
            "{what}: {v} does not fit in a word (0..65535 or -32768..-1)"
        )),
    }
}

/// A change a `setVariable` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// New registers.
    Registers(Registers),
    /// Bytes stored at an address.
    Memory(u16, Vec<u8>),
}

/// What setting `name` in `container` to `value` changes.
pub fn plan_edit(
    m: &Machine,
    container: Container,
    name: &str,
    value: &str,
) -> Result<Edit, String> {
    let v = parse_value(value, m)?;
    let program = m.program();
    let mut r = m.registers();
    match container {
        Container::Registers => {
            match name {
                "A" => r.a = fit_byte(v, name)?,
                "B" => r.b = fit_byte(v, name)?,
                "D" => r.set_d(fit_word(v, name)?),
                "X" => r.x = fit_word(v, name)?,
                "Y" => r.y = fit_word(v, name)?,
                "SP" => r.sp = fit_word(v, name)?,
                "PC" => r.pc = fit_word(v, name)?,
                "CCR" => r.ccr = fit_byte(v, name)?,
                _ => return Err(format!("no register `{name}`")),
            }
            Ok(Edit::Registers(r))
        }
        Container::Ccr => {
            let (_, mask) = FLAGS
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or_else(|| format!("no flag `{name}`"))?;
            match v {
                0 => r.ccr &= !mask,
                1 => r.ccr |= mask,
                _ => return Err(format!("flag {name}: give 0 or 1, not {v}")),
            }
            Ok(Edit::Registers(r))
        }
        Container::Globals => {
            let sym = program
                .symbol(name)
                .filter(|s| s.size.is_some())
                .ok_or_else(|| format!("no variable `{name}`"))?;
            match sym.size {
                Some(1) => Ok(Edit::Memory(sym.value, vec![fit_byte(v, name)?])),
                Some(2) => Ok(Edit::Memory(
                    sym.value,
                    fit_word(v, name)?.to_be_bytes().to_vec(),
                )),
                _ => Err(format!(
                    "`{name}` has {} bytes: open it and set them one by one",
                    sym.size.unwrap_or(0)
                )),
            }
        }
        Container::Cell(col, row) => {
            let base = cell_base(program).ok_or("the program has no cell buffer (`board`)")?;
            let k = index_name(name, CELL_BYTES as usize)?;
            Ok(Edit::Memory(
                cell_addr(base, col, row, k as u16),
                vec![fit_byte(v, name)?],
            ))
        }
        Container::Var(i) => {
            let sym = program.symbols.get(i).ok_or("no such variable")?;
            let k = index_name(name, sym.size.unwrap_or(1) as usize)?;
            Ok(Edit::Memory(
                sym.value.wrapping_add(k as u16),
                vec![fit_byte(v, name)?],
            ))
        }
        Container::Cells | Container::Row(_) => {
            Err("open a cell and set its bytes one by one".into())
        }
    }
}

/// `[k]` with k below `len`.
fn index_name(name: &str, len: usize) -> Result<usize, String> {
    name.strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&k| k < len)
        .ok_or_else(|| format!("no byte `{name}` here"))
}

/// The shown value of `name` in `container` now (after an edit).
pub fn value_of(m: &Machine, container: Container, name: &str) -> Option<String> {
    variables(m, container, 0, None, Style::default())
        .ok()?
        .into_iter()
        .find(|v| v.name == name)
        .map(|v| v.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine() -> Machine {
        let opened = crate::open::open(None).expect("bundled");
        Machine::new(opened.program).expect("machine")
    }

    #[test]
    fn references_round_trip() {
        let all = [
            Container::Registers,
            Container::Ccr,
            Container::Globals,
            Container::Cells,
            Container::Row(5),
            Container::Cell(6, 5),
            Container::Cell(0, 1),
            Container::Var(0),
            Container::Var(77),
        ];
        for c in all {
            assert_eq!(Container::from_reference(c.reference()), Some(c));
        }
        assert_eq!(Container::from_reference(0), None);
        assert_eq!(Container::from_reference(99), None);
    }

    #[test]
    fn the_cell_buffer_is_seven_by_six_cells_of_eight_bytes() {
        let m = machine();
        let base = cell_base(m.program()).expect("board");
        assert_eq!(cell_addr(base, 3, 2, 0) - base, 3 * 8 + 2 * 56);
        let rows = variables(&m, Container::Cells, 0, None, Style::default()).expect("rows");
        assert_eq!(rows.len(), 6);
        let cells = variables(&m, Container::Row(2), 0, None, Style::default()).expect("cells");
        assert_eq!(cells.len(), 7);
        assert_eq!(cells[3].evaluate_name.as_deref(), Some("board+136"));
        let bytes = variables(&m, Container::Cell(3, 2), 0, None, Style::default()).expect("bytes");
        assert_eq!(bytes.len(), 8);
        assert_eq!(
            bytes[0].memory_reference,
            Some(memory_reference(base + 136))
        );
    }

    #[test]
    fn variables_have_their_declared_size() {
        let m = machine();
        let vars = variables(&m, Container::Globals, 0, None, Style { types: true }).expect("vars");
        let board = vars.iter().find(|v| v.name == "board").expect("board");
        assert_eq!(board.type_.as_deref(), Some("byte[336]"));
        assert_eq!(board.indexed_variables, Some(336));
        let coordy = vars.iter().find(|v| v.name == "coordy").expect("coordy");
        assert_eq!(coordy.type_.as_deref(), Some("byte"));
        assert_eq!(coordy.variables_reference, 0);
        let Some(Container::Var(i)) = Container::from_reference(board.variables_reference) else {
            panic!("board opens");
        };
        let page = variables(&m, Container::Var(i), 330, Some(10), Style::default()).expect("page");
        assert_eq!(page.len(), 6);
        assert_eq!(page[0].name, "[330]");
    }

    #[test]
    fn edits_are_checked_and_planned() {
        let m = machine();
        let r = m.registers();
        let Ok(Edit::Registers(n)) = plan_edit(&m, Container::Registers, "A", "$41") else {
            panic!("A")
        };
        assert_eq!(n.a, 0x41);
        assert_eq!(n.b, r.b);
        assert!(plan_edit(&m, Container::Registers, "A", "300").is_err());
        let Ok(Edit::Registers(n)) = plan_edit(&m, Container::Ccr, "Z", "1") else {
            panic!("Z")
        };
        assert_eq!(n.ccr & flags::Z, flags::Z);
        assert!(plan_edit(&m, Container::Ccr, "Z", "2").is_err());
        let coordy = m.program().symbol("coordy").expect("coordy").value;
        assert_eq!(
            plan_edit(&m, Container::Globals, "coordy", "-1"),
            Ok(Edit::Memory(coordy, vec![0xFF]))
        );
        assert!(plan_edit(&m, Container::Globals, "board", "1").is_err());
        assert!(plan_edit(&m, Container::Cell(0, 0), "[8]", "1").is_err());
        assert!(plan_edit(&m, Container::Registers, "A", "nosuch").is_err());
    }

    #[test]
    fn texts() {
        assert_eq!(byte_text(5), "$05 (5)");
        assert_eq!(word_text(0x1234), "$1234 (4660)");
        assert_eq!(ccr_text(0xD4), "$D4 [SX-I-Z--]");
        assert_eq!(number_text(-3), "-3");
        assert_eq!(bytes_text(&[1, 2]), "01 02");
    }
}
