//! Helpers for the image tests: scratch folders and the GNU 68HC11 binutils
//! (`m68hc11-as`, `-ld`, `-objcopy`, `-objdump`, `-nm`), the oracle the
//! loaders are checked against.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// `tests/data/gnu`: the GNU-syntax sources, linker scripts and prebuilt ELFs.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gnu")
}

/// A fresh, empty folder for one test. Tests run in parallel, so a name
/// used twice in one test binary is a bug and fails at once.
pub fn scratch(name: &str) -> PathBuf {
    static USED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let fresh = USED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name.to_string());
    assert!(fresh, "scratch folder {name:?} used by two tests");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("image-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch folder");
    dir
}

/// Runs a GNU tool in `cwd` and returns its stdout. A missing tool fails the
/// test with the install command: these tests must not pass by skipping.
pub fn tool(cmd: &str, args: &[&str], cwd: &Path) -> String {
    let out = match Command::new(cmd).args(args).current_dir(cwd).output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "{cmd} is not installed. The image tests check the loaders against the GNU 68HC11 \
             binutils: install them with `apt-get install binutils-m68hc1x` (CI's .ci/run does)"
        ),
        Err(e) => panic!("cannot run {cmd}: {e}"),
    };
    assert!(
        out.status.success(),
        "{cmd} {} failed in {}:\n{}",
        args.join(" "),
        cwd.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Copies `files` from tests/data/gnu into `dir`.
pub fn copy_in(dir: &Path, files: &[&str]) {
    for f in files {
        std::fs::copy(data_dir().join(f), dir.join(f)).expect("copy test source");
    }
}

/// Assembles `sources` (already in `dir`) with `as_args` and links them with
/// the linker script `script` from tests/data/gnu into `dir/out.elf`.
/// This is the command line the report documents:
/// `m68hc11-as -g -o x.o x.s` then `m68hc11-ld -T trainer11.ld -o out.elf x.o`.
pub fn assemble_and_link(dir: &Path, sources: &[&str], as_args: &[&str], script: &str) -> PathBuf {
    let mut objects = Vec::new();
    for src in sources {
        let obj = format!("{}.o", src.trim_end_matches(".s"));
        let mut args: Vec<&str> = as_args.to_vec();
        args.extend(["-o", &obj, src]);
        tool("m68hc11-as", &args, dir);
        objects.push(obj);
    }
    let script = data_dir().join(script);
    let script = script.to_str().expect("utf-8 path");
    let mut args = vec!["-T", script, "-o", "out.elf"];
    args.extend(objects.iter().map(String::as_str));
    tool("m68hc11-ld", &args, dir);
    dir.join("out.elf")
}

/// `m68hc11-nm` output: name -> (address, type letter), without gas's
/// internal `L0\x01` labels.
pub fn nm(elf: &Path) -> BTreeMap<String, (u16, char)> {
    let out = tool(
        "m68hc11-nm",
        &[elf.to_str().expect("utf-8 path")],
        Path::new("."),
    );
    let mut map = BTreeMap::new();
    for line in out.lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        if let [addr, kind, name] = parts[..] {
            if name.chars().any(char::is_control) {
                continue;
            }
            let addr = u32::from_str_radix(addr, 16).expect("nm address");
            map.insert(
                name.to_string(),
                (addr as u16, kind.chars().next().unwrap_or('?')),
            );
        }
    }
    map
}

/// `m68hc11-objdump -d -l`: instruction address -> (source path, line).
pub fn objdump_lines(elf: &Path) -> BTreeMap<u16, (String, u32)> {
    let out = tool(
        "m68hc11-objdump",
        &["-d", "-l", elf.to_str().expect("utf-8 path")],
        Path::new("."),
    );
    let mut map = BTreeMap::new();
    let mut current: Option<(String, u32)> = None;
    for line in out.lines() {
        if let Some((path, num)) = line.rsplit_once(':') {
            if !line.starts_with(' ') {
                if let Ok(n) = num.trim().parse::<u32>() {
                    current = Some((path.to_string(), n));
                    continue;
                }
            }
        }
        let t = line.trim_start();
        if line.starts_with(' ') {
            if let Some((addr, _)) = t.split_once(':') {
                if let (Ok(a), Some(cur)) = (u16::from_str_radix(addr, 16), &current) {
                    map.insert(a, cur.clone());
                }
            }
        }
    }
    map
}

/// `m68hc11-objcopy -O srec` of `elf`, as text.
pub fn objcopy_srec(elf: &Path, extra: &[&str]) -> String {
    // Written beside the ELF only if that is a scratch folder, never into tests/data.
    let dir = match elf.parent() {
        Some(d) if d.starts_with(env!("CARGO_TARGET_TMPDIR")) => d.to_path_buf(),
        _ => scratch(&format!(
            "objcopy-{}",
            elf.file_stem().and_then(|s| s.to_str()).unwrap_or("elf")
        )),
    };
    let dir = dir.as_path();
    let out = dir.join("objcopy.s19");
    let mut args = extra.to_vec();
    args.extend([
        "-O",
        "srec",
        elf.to_str().expect("utf-8 path"),
        out.to_str().expect("utf-8 path"),
    ]);
    tool("m68hc11-objcopy", &args, dir);
    std::fs::read_to_string(out).expect("objcopy output")
}
