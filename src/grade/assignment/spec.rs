//! Where assertions look: memory specs (`board+136:8`) and CPU registers.

use super::*;

/// Where a memory assertion looks: a symbol or an address, an offset and a length.
///
/// Written like `run --dump`: `player`, `board:336`, `board+136:8`, `$0190:2`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct MemSpec {
    /// A symbol name, or `None` for a plain address.
    pub symbol: Option<String>,
    /// The address (for a symbol: the offset added to its value).
    pub offset: u16,
    /// Number of bytes (at least 1).
    pub len: u16,
}

impl MemSpec {
    /// Parses `NAME[+OFF][:LEN]` or `ADDR[:LEN]` (ADDR as `$hex`, `0xhex` or decimal).
    pub fn parse(spec: &str) -> Result<MemSpec, String> {
        let spec = spec.trim();
        let (head, len) = match spec.split_once(':') {
            Some((h, l)) => (h.trim(), parse_number(l.trim())?),
            None => (spec, 1),
        };
        if len == 0 || len > 0x1_0000 {
            return Err(format!("`{spec}`: the length must be 1..65536"));
        }
        let len = u16::try_from(len).unwrap_or(u16::MAX);
        let starts_like_number = head
            .chars()
            .next()
            .is_some_and(|c| c == '$' || c == '%' || c.is_ascii_digit());
        if starts_like_number {
            let addr = parse_number(head)?;
            let addr = u16::try_from(addr).map_err(|_| format!("`{spec}`: address above $FFFF"))?;
            return Ok(MemSpec {
                symbol: None,
                offset: addr,
                len,
            });
        }
        let (name, offset) = match head.split_once('+') {
            Some((n, o)) => (n.trim(), parse_number(o.trim())?),
            None => (head, 0),
        };
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        if !valid_name {
            return Err(format!(
                "`{spec}` is neither a symbol name nor an address like $0190"
            ));
        }
        let offset = u16::try_from(offset).map_err(|_| format!("`{spec}`: offset too large"))?;
        Ok(MemSpec {
            symbol: Some(name.to_string()),
            offset,
            len,
        })
    }
}

impl fmt::Display for MemSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.symbol {
            Some(name) if self.offset == 0 => write!(f, "{name}")?,
            Some(name) => write!(f, "{name}+{}", self.offset)?,
            None => write!(f, "${:04X}", self.offset)?,
        }
        if self.len != 1 {
            write!(f, ":{}", self.len)?;
        }
        Ok(())
    }
}

impl TryFrom<String> for MemSpec {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        MemSpec::parse(&s)
    }
}

impl From<MemSpec> for String {
    fn from(m: MemSpec) -> String {
        m.to_string()
    }
}

/// Parses `$hex`, `0xhex`, `%binary` or decimal.
pub(super) fn parse_number(s: &str) -> Result<u32, String> {
    let (digits, radix) = if let Some(h) = s.strip_prefix('$') {
        (h, 16)
    } else if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = s.strip_prefix('%') {
        (b, 2)
    } else {
        (s, 10)
    };
    u32::from_str_radix(&digits.replace('_', ""), radix)
        .map_err(|_| format!("`{s}` is not a number"))
}

/// A CPU register an assertion can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reg {
    /// Accumulator A.
    A,
    /// Accumulator B.
    B,
    /// D = A:B.
    D,
    /// Index register X.
    X,
    /// Index register Y.
    Y,
    /// Stack pointer.
    Sp,
    /// Program counter.
    Pc,
    /// Condition code register.
    Ccr,
}

impl Reg {
    pub(super) fn parse(s: &str) -> Option<Reg> {
        Some(match s.to_ascii_lowercase().as_str() {
            "a" => Reg::A,
            "b" => Reg::B,
            "d" => Reg::D,
            "x" => Reg::X,
            "y" => Reg::Y,
            "sp" | "s" => Reg::Sp,
            "pc" => Reg::Pc,
            "ccr" | "cc" => Reg::Ccr,
            _ => return None,
        })
    }

    /// The register's value in `r` (8-bit registers widened).
    pub fn read(self, r: &Registers) -> u16 {
        match self {
            Reg::A => u16::from(r.a),
            Reg::B => u16::from(r.b),
            Reg::D => r.d(),
            Reg::X => r.x,
            Reg::Y => r.y,
            Reg::Sp => r.sp,
            Reg::Pc => r.pc,
            Reg::Ccr => u16::from(r.ccr),
        }
    }

    /// Sets the register in `r` (8-bit registers take the low byte).
    pub fn write(self, r: &mut Registers, v: u16) {
        let [hi, lo] = v.to_be_bytes();
        match self {
            Reg::A => r.a = lo,
            Reg::B => r.b = lo,
            Reg::D => (r.a, r.b) = (hi, lo),
            Reg::X => r.x = v,
            Reg::Y => r.y = v,
            Reg::Sp => r.sp = v,
            Reg::Pc => r.pc = v,
            Reg::Ccr => r.ccr = lo,
        }
    }

    /// The register's name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Reg::A => "a",
            Reg::B => "b",
            Reg::D => "d",
            Reg::X => "x",
            Reg::Y => "y",
            Reg::Sp => "sp",
            Reg::Pc => "pc",
            Reg::Ccr => "ccr",
        }
    }
}
