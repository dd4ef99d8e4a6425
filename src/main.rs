//! The `hc11lab` command line: argument handling only; all logic lives in the library.

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use hc11lab::image::s19;
use hc11lab::{asm, open};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A debugger and course companion for Motorola 68HC11 assembly.
///
/// Without a command, opens the GUI on the bundled Viergewinnt.
#[derive(Parser, Debug)]
#[command(name = "hc11lab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Open the GUI on a .asm file, a folder, an .s19 or an ELF (default: the bundled Viergewinnt).
    Gui {
        /// Program to open.
        path: Option<PathBuf>,
    },
    /// Assemble a source file; print diagnostics; optionally write S19, listing and symbols.
    Asm(AsmArgs),
    /// Disassemble an .s19 or ELF file (with labels and, where known, source lines).
    Disasm {
        /// The .s19 or ELF file.
        file: PathBuf,
    },
    /// Run a program headless on the trainer11 board and report what it did.
    Run(RunArgs),
    /// Guided lessons and exercises: list them, show one.
    #[command(subcommand)]
    Lesson(LessonCommand),
}

#[derive(Subcommand, Debug)]
enum LessonCommand {
    /// List the lessons and exercises.
    List {
        /// Print a JSON array of {"id", "kind", "title", "languages"}.
        #[arg(long)]
        json: bool,
        /// Language of the titles: de or en (default: from LANG / LC_ALL).
        #[arg(long)]
        lang: Option<String>,
    },
    /// Print a lesson's text with its steps, hints and checks.
    Show {
        /// The lesson's id (its folder name, e.g. 02-cell).
        id: String,
        /// Language: de or en (default: from LANG / LC_ALL).
        #[arg(long)]
        lang: Option<String>,
    },
}

#[derive(Args, Debug)]
struct AsmArgs {
    /// The main source file (includes are resolved relative to it).
    file: PathBuf,
    /// Write the program as Motorola S-records (S1 + S9).
    #[arg(short = 'o', long = "output", value_name = "OUT.s19")]
    output: Option<PathBuf>,
    /// Write a listing: per line file, line, address, bytes, source; then the symbol table.
    #[arg(long, value_name = "OUT.lst")]
    listing: Option<PathBuf>,
    /// Write a symbol file: one `NAME $VALUE` per line.
    #[arg(long, value_name = "OUT.sym")]
    symbols: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct RunArgs {
    /// .asm file, folder with Viergewinnt.asm, .s19 or ELF (default: the bundled Viergewinnt).
    path: Option<PathBuf>,
    /// Key actions run in order: 0..7 (tap), drop, left, right, reset, wait:N, wait:Nms.
    #[arg(long, value_name = "KEYS")]
    keys: Option<String>,
    /// A script file: one key action per line, `#` comments, also `press N` / `release N`.
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    /// Stop after this many E-cycles (2,000,000 = one second of the real board).
    #[arg(long, value_name = "N")]
    max_cycles: Option<u64>,
    /// Write the LCD as a PNG picture.
    #[arg(long, value_name = "OUT.png")]
    lcd_png: Option<PathBuf>,
    /// Print the LCD as 64 lines of 128 `#`/`.`.
    #[arg(long)]
    lcd_text: bool,
    /// Dump memory: symbols or addresses, with optional length (`player,board:336,$0190:2`).
    #[arg(long, value_name = "SYM,...")]
    dump: Option<String>,
    /// Print one JSON object with the stop reason, cycles, registers, serial, LCD, dumps.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Asm(args)) => cmd_asm(&args),
        Some(Command::Disasm { file }) => cmd_disasm(&file),
        Some(Command::Lesson(cmd)) => cmd_lesson(&cmd),
        None | Some(Command::Gui { .. }) | Some(Command::Run(_)) => {
            anyhow::bail!("not wired yet")
        }
    }
}

/// Writes `text` to `path`, naming the file in the error.
fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn cmd_asm(args: &AsmArgs) -> anyhow::Result<ExitCode> {
    let assembly = asm::assemble_file(&args.file, &asm::AsmOptions::default());
    if !assembly.diagnostics.is_empty() {
        eprint!("{}", assembly.render_diagnostics());
    }
    let Some(program) = assembly.program.as_ref().filter(|_| !assembly.has_errors()) else {
        return Ok(ExitCode::from(1));
    };
    if let Some(out) = &args.output {
        write_file(out, &s19::write_s19(program))?;
    }
    if let Some(out) = &args.listing {
        write_file(out, &asm::listing(&assembly))?;
    }
    if let Some(out) = &args.symbols {
        write_file(out, &asm::symbol_file(program))?;
    }
    let bytes: usize = program.segments.iter().map(|s| s.bytes.len()).sum();
    eprintln!(
        "{}: {} bytes in {} segment(s), entry {}",
        args.file.display(),
        bytes,
        program.segments.len(),
        program
            .entry
            .map_or_else(|| "none".to_string(), |e| format!("${e:04X}"))
    );
    Ok(ExitCode::SUCCESS)
}

fn cmd_disasm(file: &Path) -> anyhow::Result<ExitCode> {
    match open::open(Some(file)) {
        Ok(opened) => {
            for w in &opened.warnings {
                eprintln!("warning: {w}");
            }
            print!("{}", asm::disassemble(&opened.program));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

fn lesson_lang(lang: &Option<String>) -> anyhow::Result<hc11lab::lesson::Lang> {
    match lang {
        None => Ok(hc11lab::lesson::Lang::from_env()),
        Some(l) => hc11lab::lesson::Lang::parse(l)
            .ok_or_else(|| anyhow::anyhow!("unknown language `{l}`: use `de` or `en`")),
    }
}

fn cmd_lesson(cmd: &LessonCommand) -> anyhow::Result<ExitCode> {
    use hc11lab::lesson::{cli, Catalog};
    let cat = Catalog::load_default()?;
    match cmd {
        LessonCommand::List { json, lang } => {
            let lang = lesson_lang(lang)?;
            if *json {
                println!("{}", cli::list_json(&cat, lang));
            } else {
                print!("{}", cli::list_text(&cat, lang));
            }
        }
        LessonCommand::Show { id, lang } => {
            print!("{}", cli::show_text(&cat, id, lesson_lang(lang)?)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}
