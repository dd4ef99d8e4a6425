//! The `hc11lab` command line: argument handling only; all logic lives in the library.
//! Built for the browser (`wasm32`) the same binary is the web page instead
//! (`hc11lab::ui::web`, docs/web.md), and the command line goes unused.
#![cfg_attr(
    target_arch = "wasm32",
    allow(dead_code, unused_imports, unused_macros)
)]

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use hc11lab::board::bench;
use hc11lab::debug::cli::RunRequest;
use hc11lab::image::s19;
use hc11lab::machine::Machine;
use hc11lab::script::Script;
use hc11lab::{asm, board, grade, open, run};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

// Output goes through `hc11lab::stdio`: a closed pipe must not panic.
macro_rules! out {
    ($($t:tt)*) => { hc11lab::stdio::out(&format!($($t)*)) };
}
macro_rules! outln {
    () => { hc11lab::stdio::out("\n") };
    ($($t:tt)*) => { hc11lab::stdio::out(&format!("{}\n", format_args!($($t)*))) };
}
macro_rules! err {
    ($($t:tt)*) => { hc11lab::stdio::err(&format!($($t)*)) };
}
macro_rules! errln {
    () => { hc11lab::stdio::err("\n") };
    ($($t:tt)*) => { hc11lab::stdio::err(&format!("{}\n", format_args!($($t)*))) };
}

/// A debugger and course companion for Motorola 68HC11 assembly.
///
/// Without a command, opens the GUI on the bundled Viergewinnt.
#[path = "main/run_cmd.rs"]
mod run_cmd;
use run_cmd::cmd_run;

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
        /// Source dialect: course (default), as11 or asm11 (docs/dialects.md).
        #[arg(long, value_name = "DIALECT", default_value = "course")]
        dialect: asm::Dialect,
        /// The board: trainer11 (default), evb, or a board file (docs/boards.md).
        #[arg(
            long,
            value_name = "trainer11|evb|evbu|FILE.toml",
            default_value = "trainer11"
        )]
        board: String,
        /// A ROM image (.s19 or ELF) loaded into the board's ROM under the
        /// program, e.g. your own monitor on evb ($E000-$FFFF). Without a
        /// program, the ROM image itself is opened (its listing, its serial line).
        #[arg(long, value_name = "FILE.s19")]
        rom: Option<PathBuf>,
    },
    /// Assemble a source file; print diagnostics; optionally write S19, listing and symbols.
    Asm(AsmArgs),
    /// Disassemble an .s19 or ELF file (with labels and, where known, source lines).
    Disasm {
        /// The .s19 or ELF file.
        file: PathBuf,
    },
    /// Run a program headless on a board (trainer11 unless --board) and report what it did.
    Run(Box<RunArgs>),
    /// Guided lessons and exercises: list them, show one, check a submission.
    #[command(subcommand)]
    Lesson(LessonCommand),
    /// Grade student submissions (folders or .zip files) against an assignment.
    Grade(GradeArgs),
    /// Serve the Debug Adapter Protocol on standard input and output (or TCP
    /// with --port), for VS Code and other editors (docs/editors.md).
    Dap {
        /// Listen on 127.0.0.1:PORT instead (0: any free port, said on stderr)
        /// and serve one client after another.
        #[arg(long, value_name = "PORT")]
        port: Option<u16>,
    },
}

/// `--lang de|en` (also `de_DE.UTF-8` and the like); anything else is bad
/// usage (exit status 2).
fn parse_lang(text: &str) -> Result<hc11lab::lesson::Lang, String> {
    hc11lab::lesson::Lang::parse(text)
        .ok_or_else(|| format!("unknown language `{text}`: use `de` or `en`"))
}

#[derive(Subcommand, Debug)]
enum LessonCommand {
    /// List the lessons and exercises.
    List {
        /// Print a JSON array of {"id", "kind", "title", "languages"}.
        #[arg(long)]
        json: bool,
        /// Language of the titles: de or en (default: from LANG / LC_ALL).
        #[arg(long, value_parser = parse_lang)]
        lang: Option<hc11lab::lesson::Lang>,
    },
    /// Print a lesson's text with its steps, hints and checks.
    Show {
        /// The lesson's id (its folder name, e.g. 02-cell).
        id: String,
        /// Language: de or en (default: from LANG / LC_ALL).
        #[arg(long, value_parser = parse_lang)]
        lang: Option<hc11lab::lesson::Lang>,
    },
    /// Copy an exercise's starter code into a folder of yours (what the
    /// GUI's Start does): its starter/ files, or the bundled Viergewinnt
    /// for the exercises that change the game. Nothing is overwritten:
    /// exit status 1 if the folder holds a file of the starter already.
    Start {
        /// The exercise's id (its folder name, e.g. e1-draw).
        id: String,
        /// The folder to copy into (made if missing).
        dir: PathBuf,
        /// Language of the message: de or en (default: from LANG / LC_ALL).
        #[arg(long, value_parser = parse_lang)]
        lang: Option<hc11lab::lesson::Lang>,
    },
    /// Grade a submission (folder, .zip or one .asm file) against an exercise.
    ///
    /// Exit status: 0 when the score is full, 1 when it is not (or the
    /// submission or the course cannot be graded), 2 for bad usage.
    Check {
        /// The exercise's id (its folder name, e.g. viergewinnt).
        id: String,
        /// The submission: a folder, a .zip file, or one .asm file (checked as the
        /// exercise's main file, with the files its `include` lines name next to it).
        path: PathBuf,
        /// Print {"score", "max_score", "checks": [{"name", "score", "max_score", "feedback"}]}.
        #[arg(long)]
        json: bool,
        /// Language of the report: de or en (default: from LANG / LC_ALL).
        #[arg(long, value_parser = parse_lang)]
        lang: Option<hc11lab::lesson::Lang>,
    },
    /// Check a course folder before students get it: texts, names, model
    /// solutions, references and starters (exit 1 if anything is wrong).
    Validate {
        /// The course folder (default: the one `lesson list` uses).
        dir: Option<PathBuf>,
        /// Folder with one solution source folder per exercise
        /// (default: DIR/../tests/solutions, if it exists).
        #[arg(long, value_name = "DIR")]
        solutions: Option<PathBuf>,
    },
    /// Assemble an exercise's solution into the reference image that ships
    /// (EXERCISE/reference/reference.s19 + .sym + the provided files);
    /// refused (nothing written, exit 1) if the solution fails the checks.
    Reference {
        /// The exercise folder (with assignment.toml).
        exercise: PathBuf,
        /// The solution source folder (kept out of the course, e.g. tests/solutions/e1-draw).
        solution: PathBuf,
    },
}

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct GradeArgs {
    #[command(subcommand)]
    command: Option<GradeCommand>,
    /// The assignment folder (with assignment.toml), e.g. lessons/viergewinnt.
    #[arg(long, value_name = "DIR", required = true)]
    assignment: Option<PathBuf>,
    /// Submissions: folders or .zip files, or folders of those (a batch).
    /// With --gradescope: [SUBMISSION_DIR [RESULTS_JSON]].
    #[arg(value_name = "SUBMISSION")]
    submissions: Vec<PathBuf>,
    /// Where the reports go (grades.csv, report.json, report.html, junit.xml, similarity).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Submissions graded in parallel (default: all cores).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Grade one submission as Gradescope's autograder does
    /// (default /autograder/submission -> /autograder/results/results.json);
    /// the older spelling of --platform gradescope, which also takes the two paths.
    #[arg(long)]
    gradescope: bool,
    /// Grade identical programs again instead of reusing the first result.
    #[arg(long)]
    no_cache: bool,
    /// The board, overriding assignment.toml's `board`: trainer11, evb or a board file.
    #[arg(long, value_name = "trainer11|evb|evbu|FILE.toml")]
    board: Option<String>,
    /// Source dialect of the reference and the submissions: course, as11 or
    /// asm11 (default: the assignment's `dialect`, else course).
    #[arg(long, value_name = "DIALECT")]
    dialect: Option<asm::Dialect>,
    /// Grade only part K of N of the batch (split by submission name, the
    /// same on every machine) and write shard.json for `grade merge`;
    /// auto/N takes K from the job array (JOB_COMPLETION_INDEX,
    /// SLURM_ARRAY_TASK_ID) or --shard-index. `{shard}` in --out becomes K.
    #[arg(long, value_name = "K/N|auto/N")]
    shard: Option<grade::shard::ShardArg>,
    /// With --shard auto/N: this task's index, from 0 (GitHub Actions:
    /// ${{ strategy.job-index }}).
    #[arg(long, value_name = "I")]
    shard_index: Option<usize>,
    /// Grade the one submission a course platform put in place and write
    /// its results.json there: prairielearn (/grade/student ->
    /// /grade/results/results.json) or gradescope (/autograder/submission
    /// -> /autograder/results/results.json).
    #[arg(long, value_name = "prairielearn|gradescope")]
    platform: Option<grade::autograder::Platform>,
    /// Stands in for / in the --platform paths (to try a platform's layout
    /// in a folder).
    #[arg(long, value_name = "ROOT", requires = "platform")]
    platform_root: Option<PathBuf>,
    /// Run the reference through every check once and write the result
    /// beside assignment.toml (reference.prepared), so later gradings by
    /// this same hc11lab build skip it (a container image's set-up step).
    #[arg(long)]
    prepare: bool,
    /// Language of the feedback in the reports: de (the German names and
    /// advice of feedback.de.toml) or en (default: the assignment's `lang`,
    /// else en).
    #[arg(long, value_parser = parse_lang)]
    lang: Option<hc11lab::lesson::Lang>,
}

#[derive(Subcommand, Debug)]
enum GradeCommand {
    /// Merge the --out folders of `grade --shard K/N` runs into one report
    /// set (the same a single run writes, similarity across all shards).
    Merge {
        /// The output folders of the shards (each holds a shard.json), or a
        /// folder of them (the SHARDS of `--out SHARDS/{shard}`).
        #[arg(value_name = "SHARD_DIR", required = true)]
        dirs: Vec<PathBuf>,
        /// Where the merged reports go (default grade-report).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
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
    /// Source dialect: course (default), as11 or asm11 (docs/dialects.md).
    #[arg(long, value_name = "DIALECT", default_value = "course")]
    dialect: asm::Dialect,
    /// A folder to look in for include files that are not next to the file
    /// that includes them (repeatable; the current folder is looked in last).
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
}

/// `run --serial-timing`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum SerialTiming {
    /// As a person types.
    Typed,
    /// Back to back at the baud rate.
    Wire,
}

#[derive(Args, Debug)]
struct RunArgs {
    /// .asm file, folder with Viergewinnt.asm, .s19 or ELF (default: the bundled Viergewinnt).
    path: Option<PathBuf>,
    /// Key actions run in order: 0..7 (tap), drop, left, right, reset, wait:N, wait:Nms,
    /// serial:TEXT (send TEXT to the SCI receiver; `\x2C` for a comma).
    #[arg(long, value_name = "KEYS")]
    keys: Option<String>,
    /// A script file: one key action per line, `#` comments, also `press N` / `release N`.
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    /// Send TEXT to the program's serial receiver once it has started and settled
    /// (escapes \n \r \t \\ \xNN); before the --keys actions.
    #[arg(long, value_name = "TEXT")]
    serial_in: Option<String>,
    /// Like --serial-in, with the bytes of FILE (`-` = standard input), sent as they are.
    #[arg(long, value_name = "FILE", conflicts_with = "serial_in")]
    serial_in_file: Option<PathBuf>,
    /// Send TEXT to the board's ACIA (the EVB's host port at $9800) once the program has
    /// ended the ACIA's master reset (escapes as --serial-in); paced as --serial-timing says.
    #[arg(long, value_name = "TEXT")]
    acia_in: Option<String>,
    /// Like --acia-in, with the bytes of FILE (`-` = standard input), sent as they are.
    #[arg(long, value_name = "FILE", conflicts_with = "acia_in")]
    acia_in_file: Option<PathBuf>,
    /// How serial input is sent: typed (default: each byte once the program has read the
    /// one before, 10 ms later; after a line end, once its answer is out) or wire (back to
    /// back at the baud rate; bytes the program reads too late are lost, as on the chip).
    #[arg(long, value_name = "typed|wire", default_value = "typed")]
    serial_timing: SerialTiming,
    /// Put a voltage on an analog input from the start: ANn=VOLTS (AN0=2.5; VRH 5 V,
    /// VRL 0 V). Repeatable.
    #[arg(long, value_name = "ANn=V")]
    analog: Vec<String>,
    /// Connect a signal generator to an input pin: PIN=square:HZ[:DUTY] (PA2=square:1000;
    /// PA0-PA2 input captures, PA7 pulse accumulator). Repeatable.
    #[arg(long, value_name = "PIN=square:HZ")]
    signal: Vec<String>,
    /// Hold an input pin at a level: PA0..PA2, PA7 = 0|1, or PE0..PE7 (0 V / 5 V). Repeatable.
    #[arg(long, value_name = "PIN=0|1")]
    pin: Vec<String>,
    /// Program the CONFIG EEPROM cell before the run (takes effect at reset, as on the
    /// chip): $08 turns the COP watchdog on (NOCOP = 0). The board's default is $0C.
    #[arg(long, value_name = "$HEX")]
    config: Option<String>,
    /// Drive the IRQ pin: low (asserted) or high from the start, or from cycle N with
    /// low@N / high@N. Repeatable.
    #[arg(long, value_name = "low|high[@N]")]
    irq: Vec<String>,
    /// Log the edges (cycle, level) of port A pins into --json's `pin_trace`: PA0..PA7,
    /// comma list or repeated (replaces a board file's `trace`).
    #[arg(long, value_name = "PAn")]
    trace_pin: Vec<String>,
    /// Let an illegal opcode take the trap through $FFF8 as on the chip (for programs
    /// that install a handler) instead of stopping before it.
    #[arg(long)]
    trap_illegal: bool,
    /// Where a program without a reset vector or END operand starts: a label or an
    /// address (default: its first instruction outside the pseudo-vector slots $00C4-$00FF).
    #[arg(long, value_name = "ADDR|LABEL")]
    entry: Option<String>,
    /// Stop after this many E-cycles (default 200,000,000 = 100 s of the 2 MHz board).
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
    /// Stop at a breakpoint: LABEL, $ADDR, FILE:LINE, LABEL:N (the Nth hit), `... if COND`.
    #[arg(long = "break", value_name = "SPEC")]
    breaks: Vec<String>,
    /// Stop after an instruction that wrote or read a watched byte: `[KIND] LOCATION[:LEN]`,
    /// KIND write (default), change, read or access (`change board+136:8`, `read coordy`).
    #[arg(long = "watch", value_name = "SPEC")]
    watches: Vec<String>,
    /// Explain where the LCD pixel X,Y came from (instruction, buffer byte, its writer).
    #[arg(long, value_name = "X,Y")]
    explain_pixel: Vec<String>,
    /// Explain where the byte at ADDR came from (`board+136`, `$0190`).
    #[arg(long, value_name = "ADDR")]
    explain: Vec<String>,
    /// Print calls and inclusive/exclusive cycles per subroutine label.
    #[arg(long)]
    profile: bool,
    /// Source dialect of an .asm program: course (default), as11 or asm11.
    #[arg(long, value_name = "DIALECT", default_value = "course")]
    dialect: asm::Dialect,
    /// The board: trainer11 (default), evb, or a board file (docs/boards.md).
    #[arg(
        long,
        value_name = "trainer11|evb|evbu|FILE.toml",
        default_value = "trainer11"
    )]
    board: String,
    /// A ROM image (S19) loaded into the board's ROM range (a monitor such as your own
    /// BUFFALO on evb: $E000-$FFFF); the machine boots from its reset vector.
    /// Without a program, only the ROM runs.
    #[arg(long, value_name = "FILE.s19")]
    rom: Option<PathBuf>,
}

/// In a browser: the window on the page's canvas.
#[cfg(target_arch = "wasm32")]
fn main() {
    hc11lab::ui::web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            // Help and version go to stdout, which may be a closed pipe.
            if let Err(err) = e.print() {
                if err.kind() != std::io::ErrorKind::BrokenPipe {
                    errln!("error: cannot write to standard output: {err}");
                    return ExitCode::from(1);
                }
            }
            return ExitCode::from(code);
        }
    };
    let code = match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e:#}");
            ExitCode::from(1)
        }
    };
    match hc11lab::stdio::finish() {
        Some(line) => {
            errln!("{line}");
            ExitCode::from(1)
        }
        None => code,
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Asm(args)) => cmd_asm(&args),
        Some(Command::Disasm { file }) => cmd_disasm(&file),
        Some(Command::Lesson(cmd)) => cmd_lesson(&cmd),
        Some(Command::Run(args)) => {
            open::set_dialect(args.dialect);
            cmd_run(&args)
        }
        Some(Command::Grade(args)) => {
            if let Some(spec) = &args.board {
                match open::board_setup(spec, None) {
                    Ok(setup) => board::config::set_default_setup(spec, setup),
                    Err(e) => {
                        errln!("error: {e}");
                        return Ok(ExitCode::from(USAGE));
                    }
                }
            }
            cmd_grade(args)
        }
        Some(Command::Dap { port }) => cmd_dap(port),
        None => cmd_gui(None),
        Some(Command::Gui {
            path,
            dialect,
            board: spec,
            rom,
        }) => {
            open::set_dialect(dialect);
            let path = path.or_else(|| rom.clone());
            match open::board_setup(&spec, rom.as_deref()) {
                Ok(setup) => board::config::set_default_setup(&spec, setup),
                Err(e) => {
                    errln!("error: {e}");
                    return Ok(ExitCode::from(USAGE));
                }
            }
            cmd_gui(path)
        }
    }
}

/// Writes `text` to `path`, naming the file in the error. A reader that
/// went away (`--listing /dev/stdout | head`) is no error, as on standard
/// output.
fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    match std::fs::write(path, text) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.with_context(|| format!("cannot write {}", path.display())),
    }
}

fn cmd_asm(args: &AsmArgs) -> anyhow::Result<ExitCode> {
    let outputs: Vec<(&str, &Path)> = [
        ("-o", &args.output),
        ("--listing", &args.listing),
        ("--symbols", &args.symbols),
    ]
    .into_iter()
    .filter_map(|(what, p)| Some((what, p.as_deref()?)))
    .collect();
    // The main file and the outputs first, the includes once they are known.
    if let Err(e) = open::refuse_overwrites(&[("the source", &args.file)], &outputs) {
        errln!("error: {e}");
        return Ok(ExitCode::from(USAGE));
    }
    let mut include_dirs = args.include_dirs.clone();
    include_dirs.push(PathBuf::from("."));
    let opts = asm::AsmOptions {
        dialect: args.dialect,
        include_dirs,
        ..asm::AsmOptions::default()
    };
    let assembly = asm::assemble_file(&args.file, &opts);
    if !assembly.diagnostics.is_empty() {
        err!("{}", assembly.render_diagnostics());
    }
    let Some(program) = assembly.program.as_ref().filter(|_| !assembly.has_errors()) else {
        return Ok(ExitCode::from(1));
    };
    let includes: Vec<(&str, &Path)> = assembly
        .files
        .iter()
        .map(|f| ("the included file", f.path.as_path()))
        .collect();
    if let Err(e) = open::refuse_overwrites(&includes, &outputs) {
        errln!("error: {e}");
        return Ok(ExitCode::from(USAGE));
    }
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
    errln!(
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

/// With `run --json`, a program that could not be opened or loaded still
/// prints one JSON object (`stop_reason` `assembly_error` or `load_error`,
/// `failed`, `message`), so a script that parses stdout sees why; the
/// diagnostics are on stderr as without it.
fn json_error(json: bool, stop_reason: &str, message: &str) {
    if json {
        let v = serde_json::json!({
            "stop_reason": stop_reason,
            "failed": true,
            "message": message.trim_end(),
        });
        outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    }
}

/// A warning of [`open::Opened`] as one stderr line: the assembler's come
/// rendered with their own `warning[W...]`, a loader's with none.
fn warning_line(w: &str) -> String {
    if w.starts_with("warning") {
        w.trim_end().to_string()
    } else {
        format!("warning: {w}")
    }
}

fn cmd_disasm(file: &Path) -> anyhow::Result<ExitCode> {
    match open::open(Some(file)) {
        Ok(opened) => {
            for w in &opened.warnings {
                errln!("{}", warning_line(w));
            }
            out!("{}", asm::disassemble(&opened.program));
            Ok(ExitCode::SUCCESS)
        }
        // Assembler diagnostics come rendered, each with its own `error`.
        Err(e @ open::OpenError::Assembly { .. }) => {
            errln!("{}", e.to_string().trim_end());
            Ok(ExitCode::from(1))
        }
        Err(e) => {
            errln!("error: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// The language a lesson command was given, else the environment's.
fn lesson_lang(lang: &Option<hc11lab::lesson::Lang>) -> hc11lab::lesson::Lang {
    lang.unwrap_or_else(hc11lab::lesson::Lang::from_env)
}

fn cmd_lesson(cmd: &LessonCommand) -> anyhow::Result<ExitCode> {
    use hc11lab::lesson::{cli, validate, Catalog};
    match cmd {
        LessonCommand::Validate { dir, solutions } => {
            // Bold names in lesson texts are checked against the window's.
            #[cfg(feature = "gui")]
            hc11lab::lesson::ui_names::set_window_labels(hc11lab::ui::labels::window_labels);
            let Some(root) = dir.clone().or_else(hc11lab::lesson::find_root) else {
                eprintln!("error: no course folder: give one (`hc11lab lesson validate lessons`)");
                return Ok(ExitCode::from(USAGE));
            };
            let solutions = solutions
                .clone()
                .or_else(|| validate::default_solutions(&root));
            let reports = match validate::validate_course(&root, solutions.as_deref()) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Ok(ExitCode::from(1));
                }
            };
            print!("{}", validate::report_text(&reports));
            let ok = reports.iter().all(validate::FolderReport::ok);
            return Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            });
        }
        LessonCommand::Reference { exercise, solution } => {
            match validate::write_reference(exercise, solution) {
                Ok(p) => println!("wrote {}", p.display()),
                Err(e) => {
                    eprintln!("error: {e}");
                    return Ok(ExitCode::from(1));
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
        _ => {}
    }
    let cat = Catalog::load_default()?;
    // A broken folder is left out; the rest of the course still works.
    eprint!("{}", cat.broken_text());
    match cmd {
        LessonCommand::Validate { .. } | LessonCommand::Reference { .. } => {}
        LessonCommand::List { json, lang } => {
            let lang = lesson_lang(lang);
            if *json {
                outln!("{}", cli::list_json(&cat, lang));
            } else {
                out!("{}", cli::list_text(&cat, lang));
            }
        }
        LessonCommand::Show { id, lang } => {
            out!("{}", cli::show_text(&cat, id, lesson_lang(lang))?);
        }
        LessonCommand::Start { id, dir, lang } => {
            use hc11lab::lesson::start::{start, StartError};
            match start(&cat, id, dir, lesson_lang(lang)) {
                Ok(text) => out!("{text}"),
                Err(e @ StartError::NotAnExercise(_)) => {
                    errln!("error: {e}");
                    return Ok(ExitCode::from(USAGE));
                }
                Err(e) => {
                    errln!("error: {e}");
                    return Ok(ExitCode::from(1));
                }
            }
        }
        LessonCommand::Check {
            id,
            path,
            json,
            lang,
        } => {
            use hc11lab::lesson::check::{check_localized, report_text, CheckError};
            let lang = lesson_lang(lang);
            let report = match check_localized(&cat, id, path, lang) {
                Ok((_, r)) => r,
                Err(e @ CheckError::NotAnExercise(_)) => {
                    errln!("error: {e}");
                    return Ok(ExitCode::from(USAGE));
                }
                // The course's fault, not the submission's: no score.
                Err(e @ CheckError::Assignment(_)) => {
                    errln!("error: {e}");
                    return Ok(ExitCode::from(1));
                }
                Err(e) => return Err(e.into()),
            };
            if *json {
                outln!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                out!("{}", report_text(&report));
            }
            // Like `run`: 1 when the submission is not (fully) right.
            if report.score < report.max_score {
                return Ok(ExitCode::from(1));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Exit status for bad usage (a malformed option value).
const USAGE: u8 = 2;

/// Largest `--script` file read, in bytes.
const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// Most `--serial-in-file` bytes read, whatever `--max-cycles` allows.
const MAX_SERIAL_BYTES: u64 = 16 << 20;

fn cmd_dap(port: Option<u16>) -> anyhow::Result<ExitCode> {
    let served = match port {
        Some(p) => hc11lab::dap::serve_tcp(p).with_context(|| format!("hc11lab dap --port {p}")),
        None => hc11lab::dap::serve_stdio().context("hc11lab dap"),
    };
    served.map(|()| ExitCode::SUCCESS)
}

fn cmd_grade(args: GradeArgs) -> anyhow::Result<ExitCode> {
    let result = match args.command {
        Some(GradeCommand::Merge { dirs, out }) => grade::cli::run_merge(&dirs, out.as_deref()),
        None => grade::cli::run(&grade::cli::GradeRequest {
            assignment: args.assignment.unwrap_or_default(),
            paths: args.submissions,
            out: args.out,
            jobs: args.jobs,
            gradescope: args.gradescope,
            no_cache: args.no_cache,
            shard: match args.shard {
                Some(grade::shard::ShardArg::Fixed(spec)) => Some(spec),
                _ => None,
            },
            dialect: args.dialect,
            shard_auto: match args.shard {
                Some(grade::shard::ShardArg::Auto { count }) => Some(count),
                _ => None,
            },
            shard_index: args.shard_index,
            platform: args.platform,
            platform_root: args.platform_root,
            prepare: args.prepare,
            lang: args.lang,
        }),
    };
    match result {
        Ok(outcome) if outcome.exit_code == 2 => {
            eprint!("{}", outcome.text);
            Ok(ExitCode::from(2))
        }
        Ok(outcome) => {
            out!("{}", outcome.text);
            Ok(ExitCode::from(outcome.exit_code))
        }
        Err(e) => {
            errln!("error: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

#[cfg(all(feature = "gui", not(target_arch = "wasm32")))]
fn cmd_gui(path: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let input = path.map_or(hc11lab::ui::AppInput::Bundled, hc11lab::ui::AppInput::Path);
    hc11lab::ui::run_app(input).map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(any(not(feature = "gui"), target_arch = "wasm32"))]
fn cmd_gui(_path: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    errln!(
        "error: this hc11lab was built without the GUI (cargo feature `gui`); \
         rebuild with default features, or use `hc11lab run`"
    );
    Ok(ExitCode::from(USAGE))
}
