//! The `launch` request's arguments (what a launch.json configuration
//! says) and the machine they describe: the program opened and assembled
//! as `hc11lab run` opens it, on the board named, with the key script and
//! serial input to play.

use crate::asm::Dialect;
use crate::machine::Machine;
use crate::open;
use crate::script::{decode_serial_escapes, Action, Script};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// How fast a continued program runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// The board's own pace (2 MHz E clock); a key script plays at full speed.
    #[default]
    Realtime,
    /// As fast as the host can.
    Max,
}

/// What a typed Debug Console line ends with on the serial line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEnd {
    /// `\n`.
    #[default]
    Lf,
    /// `\r`.
    Cr,
    /// `\r\n`.
    Crlf,
    /// Nothing.
    None,
}

impl LineEnd {
    /// The bytes.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            LineEnd::Lf => b"\n",
            LineEnd::Cr => b"\r",
            LineEnd::Crlf => b"\r\n",
            LineEnd::None => b"",
        }
    }
}

/// The `launch` arguments (unknown fields, which clients add, are ignored).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LaunchArgs {
    /// A .asm file, a folder with the main source, an .s19 or an ELF; the
    /// bundled Viergewinnt when absent.
    #[serde(default)]
    pub program: Option<String>,
    /// `trainer11` (default), `evb` or a board file.
    #[serde(default)]
    pub board: Option<String>,
    /// Source dialect: course (default), as11, asm11.
    #[serde(default)]
    pub dialect: Option<Dialect>,
    /// A ROM image loaded under the program.
    #[serde(default)]
    pub rom: Option<String>,
    /// A key list as `run --keys` takes it.
    #[serde(default)]
    pub keys: Option<String>,
    /// A script file as `run --script` takes it.
    #[serde(default)]
    pub script: Option<String>,
    /// Text for the serial receiver (escapes as `--serial-in`).
    #[serde(default)]
    pub serial_in: Option<String>,
    /// Stop before the first instruction.
    #[serde(default)]
    pub stop_on_entry: bool,
    /// E-cycles the program may run in all; it then ends with exit status 1.
    #[serde(default)]
    pub max_cycles: Option<u64>,
    /// `realtime` (default) or `max`.
    #[serde(default)]
    pub speed: Speed,
    /// What ends a line typed into the Debug Console.
    #[serde(default)]
    pub serial_line_end: LineEnd,
    /// Folder relative paths are taken from (default: the server's).
    #[serde(default)]
    pub cwd: Option<String>,
    /// Run without stopping at breakpoints.
    #[serde(default)]
    pub no_debug: bool,
    /// E-cycles a run goes between two looks at the client's requests
    /// (default: slices of about 8 ms at full speed, at most 50,000 paced).
    #[serde(default)]
    pub slice_cycles: Option<u64>,
}

/// A machine ready to debug and what to tell the user about it.
pub struct Launched {
    /// The machine at reset.
    pub machine: Machine,
    /// The key script and serial input to play from the start.
    pub script: Option<Script>,
    /// Assembler, loader and placement warnings.
    pub warnings: Vec<String>,
}

impl LaunchArgs {
    /// Reads the arguments of a `launch` or `restart` request.
    pub fn from_json(v: &serde_json::Value) -> Result<LaunchArgs, String> {
        if v.is_null() {
            return Ok(LaunchArgs::default());
        }
        LaunchArgs::deserialize(v).map_err(|e| format!("launch arguments: {e}"))
    }

    fn base(&self) -> PathBuf {
        match &self.cwd {
            Some(c) => PathBuf::from(c),
            None => std::env::current_dir().unwrap_or_default(),
        }
    }

    fn path(&self, p: &str) -> PathBuf {
        let p = Path::new(p);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.base().join(p)
        }
    }

    /// Opens the program and builds the machine. The error is a message for
    /// the user (assembler diagnostics with file:line).
    pub fn launch(&self) -> Result<Launched, String> {
        let script = self.script_to_play()?;
        let board = self.board.as_deref().unwrap_or("trainer11").trim();
        let board_spec = match board {
            "trainer11" | "evb" => board.to_string(),
            file => self.path(file).to_string_lossy().into_owned(),
        };
        let rom = self.rom.as_deref().map(|r| self.path(r));
        let setup = open::board_setup(&board_spec, rom.as_deref())?;
        let dialect = self.dialect.unwrap_or_default();
        let opened = match (&self.program, &rom) {
            (None, Some(_)) => open::Opened {
                program: open::empty_program(),
                origin: open::Origin::Bundled,
                warnings: Vec::new(),
            },
            (program, _) => {
                let path = program.as_deref().map(|p| self.path(p));
                open::open_in(path.as_deref(), dialect).map_err(|e| match e {
                    open::OpenError::Assembly { rendered, .. } => rendered,
                    other => other.to_string(),
                })?
            }
        };
        let mut warnings = opened.warnings;
        let machine = Machine::with_board(opened.program, &setup).map_err(|e| e.to_string())?;
        warnings.extend(machine.placement_warnings().iter().map(|w| w.to_string()));
        Ok(Launched {
            machine,
            script,
            warnings,
        })
    }

    /// The serial input and the key script, serial first (as `run` plays them).
    fn script_to_play(&self) -> Result<Option<Script>, String> {
        let keys = match (&self.keys, &self.script) {
            (Some(_), Some(_)) => return Err("give either `keys` or `script`, not both".into()),
            (Some(k), None) => Some(Script::parse_keys(k).map_err(|e| format!("keys: {e}"))?),
            (None, Some(path)) => {
                let path = self.path(path);
                let text = crate::platform::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read script {}: {e}", path.display()))?;
                Some(Script::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?)
            }
            (None, None) => None,
        };
        let serial = match &self.serial_in {
            Some(text) => Some(decode_serial_escapes(text).map_err(|e| format!("serialIn: {e}"))?),
            None => None,
        };
        Ok(match serial {
            Some(bytes) => {
                let mut s = Script {
                    actions: vec![Action::Serial(bytes)],
                };
                s.actions
                    .extend(keys.map(|k| k.actions).unwrap_or_default());
                Some(s)
            }
            None => keys,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_documented_fields_and_ignores_others() {
        let a = LaunchArgs::from_json(&json!({
            "type": "hc11lab", "request": "launch", "name": "x",
            "program": "a.asm", "board": "evb", "dialect": "as11", "keys": "drop",
            "stopOnEntry": true, "maxCycles": 5, "speed": "max", "serialLineEnd": "crlf"
        }))
        .expect("args");
        assert_eq!(a.program.as_deref(), Some("a.asm"));
        assert_eq!(a.dialect, Some(Dialect::As11));
        assert!(a.stop_on_entry);
        assert_eq!(a.max_cycles, Some(5));
        assert_eq!(a.speed, Speed::Max);
        assert_eq!(a.serial_line_end.bytes(), b"\r\n");
    }

    #[test]
    fn bad_values_are_messages() {
        let e = LaunchArgs::from_json(&json!({"dialect": "gas"})).err();
        assert!(e.is_some_and(|e| e.contains("gas")));
        let a = LaunchArgs::from_json(&json!({"keys": "drop", "script": "x.txt"})).expect("args");
        assert!(a.launch().err().is_some_and(|e| e.contains("not both")));
        let a = LaunchArgs::from_json(&json!({"keys": "jump"})).expect("args");
        assert!(a.launch().err().is_some_and(|e| e.starts_with("keys:")));
    }

    /// The VS Code extension offers exactly the arguments the server reads
    /// (`noDebug` is the editor's own).
    #[test]
    fn the_extension_documents_every_argument() {
        let package: serde_json::Value =
            serde_json::from_str(include_str!("../../editors/vscode/package.json")).expect("json");
        let attrs = package["contributes"]["debuggers"][0]["configurationAttributes"]["launch"]
            ["properties"]
            .as_object()
            .expect("launch attributes")
            .clone();
        let plain = format!("{:?}", LaunchArgs::default());
        for (name, spec) in &attrs {
            let sample = match (spec["type"].as_str(), spec["enum"].as_array()) {
                (_, Some(values)) => values.last().cloned().unwrap_or_default(),
                (Some("boolean"), _) => json!(true),
                (Some("integer"), _) => json!(7),
                _ => json!("x"),
            };
            let a = LaunchArgs::from_json(&json!({ name.as_str(): sample })).expect(name);
            assert_ne!(
                format!("{a:?}"),
                plain,
                "`{name}` is not read by the server"
            );
        }
        let fields: Vec<String> = plain
            .split(['{', ',', '}'])
            .filter_map(|f| f.split(':').next())
            .map(|f| f.trim())
            .filter(|f| !f.is_empty() && *f != "LaunchArgs")
            .map(|f| {
                let mut out = String::new();
                let mut up = false;
                for c in f.chars() {
                    if c == '_' {
                        up = true;
                    } else if up {
                        out.push(c.to_ascii_uppercase());
                        up = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            })
            .collect();
        assert!(fields.len() >= 13, "{fields:?}");
        for f in fields.iter().filter(|f| *f != "noDebug") {
            assert!(
                attrs.contains_key(f),
                "`{f}` is missing from the extension's package.json"
            );
        }
    }

    #[test]
    fn the_bundled_game_launches_with_serial_first() {
        let a = LaunchArgs::from_json(&json!({"keys": "drop", "serialIn": "a\\n"})).expect("args");
        let l = a.launch().expect("launch");
        let s = l.script.expect("script");
        assert_eq!(s.actions[0], Action::Serial(b"a\n".to_vec()));
        assert_eq!(s.actions[1], Action::Tap(0));
        assert!(l.machine.program().symbol("drawCell").is_some());
    }
}
