//! Opening what a user names on the command line or in the GUI: the bundled
//! Viergewinnt, a course-dialect source file, a folder of sources, an S19 or
//! an ELF file. Images are recognised by content, or by a name such as
//! `.s19` or `.bin` (then a damaged one gets the loader's error); everything
//! else is assembled.

use crate::asm::{self, AsmOptions, Assembly};
use crate::firmware;
use crate::image::load::{self, LoadError};
use crate::image::Program;
use crate::platform::fs::{read_limited, ReadError};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Where an opened program came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The Viergewinnt bundled into the binary.
    Bundled,
    /// Assembled from this main source file.
    Source(PathBuf),
    /// Loaded from an S19 or ELF image.
    Image(PathBuf, load::Format),
}

/// A program ready to load into a machine.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The program.
    pub program: Program,
    /// Where it came from (for titles and reloading).
    pub origin: Origin,
    /// Problems that did not stop it (assembler warnings, rendered; loader warnings).
    pub warnings: Vec<String>,
    /// Why an assembled program starts where it does (`None` for images,
    /// whose start is their S9 record's or ELF header's).
    pub entry_from: Option<asm::EntryFrom>,
}

/// Why a program could not be opened.
#[derive(Debug, Error)]
pub enum OpenError {
    /// The source has assembly errors; `rendered` holds every diagnostic with file:line:column.
    #[error("{rendered}")]
    Assembly {
        /// All diagnostics, rendered.
        rendered: String,
        /// The full assembler result (for GUIs that show diagnostics in a panel).
        assembly: Box<Assembly>,
    },
    /// An S19 or ELF file is damaged, or the file is of no known kind.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A folder with no source to start from.
    #[error("{}: no Viergewinnt.asm in this folder{}; name the main .asm file instead", .dir.display(), describe(.candidates))]
    NoMainFile {
        /// The folder.
        dir: PathBuf,
        /// The .asm files that are there.
        candidates: Vec<String>,
    },
    /// The path cannot be read.
    #[error("cannot open {}: {source}", .path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is no regular file, or larger than a program may be.
    #[error("cannot open {}: {source}", .path.display())]
    Read {
        /// The path.
        path: PathBuf,
        /// Why it was not read.
        source: ReadError,
    },
}

fn describe(candidates: &[String]) -> String {
    if candidates.is_empty() {
        " and no other .asm file".to_string()
    } else {
        format!(" (found {})", candidates.join(", "))
    }
}

/// Opens `path`, or the bundled Viergewinnt when `None`.
pub fn open(path: Option<&Path>) -> Result<Opened, OpenError> {
    open_in(path, default_dialect())
}

/// [`open`] with sources read in `dialect` (the GUI's File > Source dialect);
/// the bundled Viergewinnt is always the course dialect.
pub fn open_in(path: Option<&Path>, dialect: asm::Dialect) -> Result<Opened, OpenError> {
    let Some(path) = path else {
        return from_assembly(firmware::assemble(), Origin::Bundled);
    };
    let meta = crate::platform::fs::metadata(path).map_err(|source| OpenError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if meta.is_dir() {
        let main = main_file_in(path)?;
        return assemble_path(&main, dialect);
    }
    let limit = load::MAX_IMAGE_BYTES.max(AsmOptions::default().max_file_size);
    let bytes = match read_limited(path, limit) {
        Ok(b) => b,
        // A source says so in the assembler's words (E0014), which reads
        // no more of it than this did.
        Err(ReadError::TooLarge { .. }) if !load::is_image_path(path) => {
            return assemble_path(path, dialect)
        }
        Err(source) => {
            return Err(OpenError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    // An image by content, or by name (then a damaged one gets the
    // loader's error, not assembler errors about its bytes).
    if load::detect(&bytes).is_none() && !load::is_image_path(path) {
        return assemble_path(path, dialect);
    }
    let loaded = load::load_bytes(&bytes, path)?;
    Ok(Opened {
        program: loaded.program,
        origin: Origin::Image(path.to_path_buf(), loaded.format),
        entry_from: None,
        // A loader's warning names its line; the file is said here.
        warnings: loaded
            .warnings
            .iter()
            .map(|w| format!("{}: {w}", path.display()))
            .collect(),
    })
}

/// The main source of a folder: `Viergewinnt.asm` in any letter case, else
/// the only `.asm` file there.
pub fn main_file_in(dir: &Path) -> Result<PathBuf, OpenError> {
    let entries = crate::platform::fs::read_dir(dir).map_err(|source| OpenError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut asm_files: Vec<String> = entries
        .filter(|e| crate::platform::fs::is_file(&e.path))
        .map(|e| e.name)
        .filter(|n| {
            Path::new(n)
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("asm"))
        })
        .collect();
    asm_files.sort();
    if let Some(name) = asm_files
        .iter()
        .find(|n| n.eq_ignore_ascii_case(firmware::MAIN_FILE))
    {
        return Ok(dir.join(name));
    }
    match asm_files.as_slice() {
        [only] => Ok(dir.join(only)),
        _ => Err(OpenError::NoMainFile {
            dir: dir.to_path_buf(),
            candidates: asm_files,
        }),
    }
}

/// The dialect `open` assembles sources in, set once by the command line
/// (`--dialect` on `run` and `gui`) before anything is opened.
static DIALECT: std::sync::OnceLock<asm::Dialect> = std::sync::OnceLock::new();

/// Sets the dialect for every source this process opens; only the first
/// call counts (the command line makes it once, before the first open).
pub fn set_dialect(dialect: asm::Dialect) {
    let _ = DIALECT.set(dialect);
}

/// The dialect the command line chose (the course dialect if none).
pub fn default_dialect() -> asm::Dialect {
    DIALECT.get().copied().unwrap_or_default()
}

/// The board a command names (`--board trainer11|evb|evbu|FILE.toml`, a file
/// relative to the working folder) with the ROM image of `--rom FILE.s19`
/// (an S19 or ELF whose bytes must all lie in the board's ROM). An error
/// begins with the option it is about (`--board: `, `--rom`).
pub fn board_setup(
    spec: &str,
    rom: Option<&Path>,
) -> Result<crate::board::config::BoardSetup, String> {
    use crate::board::config::{BoardConfig, BoardSetup};
    let config =
        BoardConfig::from_spec(spec, Path::new("")).map_err(|e| format!("--board: {e}"))?;
    let setup = BoardSetup::new(config);
    let Some(path) = rom else {
        return Ok(setup);
    };
    let bytes = read_limited(path, load::MAX_IMAGE_BYTES)
        .map_err(|e| format!("cannot read --rom {}: {e}", path.display()))?;
    let loaded = load::load_bytes(&bytes, path).map_err(|e| format!("--rom: {e}"))?;
    let segments = loaded
        .program
        .segments
        .into_iter()
        .map(|s| (s.start, s.bytes))
        .collect();
    setup
        .with_rom(segments, &path.display().to_string())
        .map_err(|e| format!("--rom {e}"))
}

/// Checks a command's outputs against its inputs before anything is
/// written: an output that is one of the inputs (the source, an include,
/// `--rom`, a script) or another output would lose that file. Each entry is
/// (what it is, as the message names it; path). Paths are compared as the
/// system resolves them (links, `..`; an output not there yet by its
/// folder's real path and its name); an output that is a device or pipe
/// (`/dev/stdout`) loses nothing and is not compared. Err is the message.
pub fn refuse_overwrites(
    inputs: &[(&str, &Path)],
    outputs: &[(&str, &Path)],
) -> Result<(), String> {
    let outputs: Vec<(&str, &Path, PathBuf)> = outputs
        .iter()
        .filter(|(_, p)| crate::platform::fs::metadata(p).map_or(true, |m| m.is_file()))
        .map(|(what, p)| (*what, *p, real_path(p)))
        .collect();
    let inputs: Vec<(&str, &Path, PathBuf)> = inputs
        .iter()
        .filter(|(_, p)| p.exists())
        .map(|(what, p)| (*what, *p, real_path(p)))
        .collect();
    for (i, (what, path, real)) in outputs.iter().enumerate() {
        for (in_what, in_path, in_real) in &inputs {
            if real == in_real {
                return Err(format!(
                    "{what} {} is {in_what} {}: writing it would replace that file; write the output to another file",
                    path.display(),
                    in_path.display()
                ));
            }
        }
        if let Some((other, _, _)) = outputs[..i].iter().find(|(_, _, r)| r == real) {
            return Err(format!(
                "{other} and {what} both name {}: one would replace the other; give each output its own file",
                path.display()
            ));
        }
    }
    Ok(())
}

/// `path` as the system resolves it; a file not there yet by its folder's
/// resolved path and its name.
fn real_path(path: &Path) -> PathBuf {
    if let Ok(p) = crate::platform::fs::canonicalize(path) {
        return p;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (crate::platform::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => asm::source::normalize(
            &std::env::current_dir()
                .map(|d| d.join(path))
                .unwrap_or_else(|_| path.to_path_buf()),
        ),
    }
}

/// The address ranges (first, last) where `program` puts bytes over the
/// ROM image of `setup` (`--rom`), in order: loading the program replaces
/// the ROM's bytes there, which a user should hear about.
pub fn rom_overlaps(
    setup: &crate::board::config::BoardSetup,
    program: &Program,
) -> Vec<(u16, u16)> {
    let mut hits: Vec<(u32, u32)> = Vec::new();
    for (rom_start, rom_bytes) in setup.rom_image.iter() {
        let rom = (
            u32::from(*rom_start),
            u32::from(*rom_start) + rom_bytes.len() as u32,
        );
        for seg in &program.segments {
            let ours = (
                u32::from(seg.start),
                u32::from(seg.start) + seg.bytes.len() as u32,
            );
            let (from, to) = (rom.0.max(ours.0), rom.1.min(ours.1));
            if from < to {
                hits.push((from, to - 1));
            }
        }
    }
    hits.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::new();
    for (from, to) in hits {
        match merged.last_mut() {
            Some(last) if from <= last.1 + 1 => last.1 = last.1.max(to),
            _ => merged.push((from, to)),
        }
    }
    merged
        .into_iter()
        .map(|(a, b)| (a as u16, b as u16))
        .collect()
}

/// A program with nothing in it: what `run --rom` runs when it is given no
/// program (the ROM's reset vector starts the machine).
pub fn empty_program() -> Program {
    Program::default()
}

fn assemble_path(path: &Path, dialect: asm::Dialect) -> Result<Opened, OpenError> {
    let opts = AsmOptions {
        dialect,
        // As `asm`: an include not next to its file may be in the folder
        // hc11lab runs in.
        include_dirs: vec![std::path::PathBuf::from(".")],
        ..AsmOptions::default()
    };
    from_assembly(
        asm::assemble_file(path, &opts),
        Origin::Source(path.to_path_buf()),
    )
}

fn from_assembly(assembly: Assembly, origin: Origin) -> Result<Opened, OpenError> {
    match assembly.program.clone() {
        Some(program) if !assembly.has_errors() => Ok(Opened {
            program,
            origin,
            entry_from: assembly.entry_from,
            // As many as `asm` shows: a warning on every line of a long
            // file would flood the terminal.
            warnings: asm::triage::capped(&assembly.diagnostics, &assembly.files)
                .iter()
                .map(|d| asm::render(d, &assembly.files))
                .collect(),
        }),
        _ => Err(OpenError::Assembly {
            rendered: assembly.render_diagnostics(),
            assembly: Box::new(assembly),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_the_bundled_program() {
        let opened = open(None).expect("bundled firmware assembles");
        assert_eq!(opened.origin, Origin::Bundled);
        assert!(opened.program.symbol("mainLoop").is_some());
    }

    #[test]
    fn a_folder_without_a_main_file_says_what_it_found() {
        let dir = std::env::temp_dir().join(format!("hc11lab-open-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(dir.join("a.asm"), "\tnop\n");
        let _ = std::fs::write(dir.join("b.asm"), "\tnop\n");
        let err = open(Some(&dir)).unwrap_err().to_string();
        assert!(err.contains("no Viergewinnt.asm"), "{err}");
        assert!(err.contains("a.asm, b.asm"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
