//! `hc11lab run`: loads the program, plays the key script (plain or under
//! the debugger) and prints the stop, the text report or the `--json`
//! object.

use super::*;

pub(super) fn cmd_run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let script = match (&args.script, &args.keys) {
        (Some(_), Some(_)) => {
            errln!("error: give either --keys or --script, not both");
            return Ok(ExitCode::from(USAGE));
        }
        (Some(path), None) => {
            let text = hc11lab::platform::fs::read_limited(path, MAX_SCRIPT_BYTES)
                .map_err(anyhow::Error::from)
                .and_then(|b| String::from_utf8(b).map_err(anyhow::Error::from))
                .with_context(|| format!("cannot read script {}", path.display()))?;
            match Script::parse_file(&text) {
                Ok(s) => Some(s),
                Err(e) => {
                    errln!("error: {}: {e}", path.display());
                    return Ok(ExitCode::from(USAGE));
                }
            }
        }
        (None, Some(keys)) => match Script::parse_keys(keys) {
            Ok(s) => Some(s),
            Err(e) => {
                errln!("error: --keys: {e}");
                return Ok(ExitCode::from(USAGE));
            }
        },
        (None, None) => None,
    };
    let stdin = |p: &Option<PathBuf>| p.as_deref().is_some_and(|p| p.as_os_str() == "-");
    if stdin(&args.serial_in_file) && stdin(&args.acia_in_file) {
        errln!("error: --serial-in-file - and --acia-in-file - both read standard input: give one of them a file");
        return Ok(ExitCode::from(USAGE));
    }
    let max_cycles = args.max_cycles.unwrap_or(run::DEFAULT_MAX_CYCLES);
    let serial = match serial_input(
        "--serial-in",
        args.serial_in.as_deref(),
        args.serial_in_file.as_deref(),
        max_cycles,
    ) {
        Ok(bytes) => bytes,
        Err(code) => return Ok(code),
    };
    let acia_input = match serial_input(
        "--acia-in",
        args.acia_in.as_deref(),
        args.acia_in_file.as_deref(),
        max_cycles,
    ) {
        Ok(bytes) => bytes,
        Err(code) => return Ok(code),
    };
    let script = match serial {
        Some(bytes) => {
            let mut s = Script {
                actions: vec![hc11lab::script::Action::Serial(bytes)],
            };
            s.actions
                .extend(script.map(|k| k.actions).unwrap_or_default());
            Some(s)
        }
        None => script,
    };
    let dumps = match args.dump.as_deref().map(run::parse_dumps).transpose() {
        Ok(d) => d.unwrap_or_default(),
        Err(e) => {
            errln!("error: {e}");
            return Ok(ExitCode::from(USAGE));
        }
    };
    let setup = match open::board_setup(&args.board, args.rom.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return Ok(ExitCode::from(USAGE));
        }
    };
    let opened = match (&args.path, &args.rom) {
        // With --rom and no program, the ROM alone runs.
        (None, Some(_)) => Ok(open::Opened {
            program: open::empty_program(),
            origin: open::Origin::Bundled,
            warnings: Vec::new(),
            entry_from: None,
        }),
        _ => open::open(args.path.as_deref()),
    };
    let opened = match opened {
        Ok(o) => o,
        // Assembler diagnostics come rendered, each with its own `error`.
        Err(e @ open::OpenError::Assembly { .. }) => {
            err!("{e}");
            if !e.to_string().ends_with('\n') {
                errln!();
            }
            json_error(args.json, "assembly_error", &e.to_string());
            return Ok(ExitCode::from(1));
        }
        Err(e) => {
            errln!("error: {e}");
            json_error(args.json, "load_error", &e.to_string());
            return Ok(ExitCode::from(1));
        }
    };
    if let Some(png) = &args.lcd_png {
        let mut inputs: Vec<(&str, &Path)> = Vec::new();
        match &opened.origin {
            open::Origin::Source(_) => inputs.extend(
                opened
                    .program
                    .files
                    .iter()
                    .map(|f| ("the source", f.path.as_path())),
            ),
            open::Origin::Image(p, _) => inputs.push(("the program", p)),
            open::Origin::Bundled => {}
        }
        let named = [
            ("--rom", args.rom.as_deref()),
            ("--script", args.script.as_deref()),
            ("--serial-in-file", args.serial_in_file.as_deref()),
            ("--acia-in-file", args.acia_in_file.as_deref()),
            (
                "--board",
                Some(Path::new(&args.board))
                    .filter(|_| !board::config::BoardConfig::BUILT_IN.contains(&args.board.trim())),
            ),
        ];
        inputs.extend(named.into_iter().filter_map(|(w, p)| Some((w, p?))));
        if let Err(e) = open::refuse_overwrites(&inputs, &[("--lcd-png", png)]) {
            errln!("error: {e}");
            return Ok(ExitCode::from(USAGE));
        }
    }
    for w in &opened.warnings {
        errln!("{}", warning_line(w));
    }
    if let Some(rom) = &args.rom {
        let over = open::rom_overlaps(&setup, &opened.program);
        if !over.is_empty() {
            let ranges: Vec<String> = over
                .iter()
                .map(|(a, b)| format!("${a:04X}-${b:04X}"))
                .collect();
            errln!(
                "warning: the program's bytes at {} lie over the --rom image {}: the program's bytes replace the ROM's there",
                ranges.join(", "),
                rom.display()
            );
        }
    }
    let mut opened = opened;
    let why = match run::start::choose_entry(
        &mut opened.program,
        opened.entry_from,
        args.entry.as_deref(),
    ) {
        Ok(w) => w,
        Err(e) => {
            errln!("error: --entry: {e}");
            return Ok(ExitCode::from(USAGE));
        }
    };
    let machine = match Machine::with_board(opened.program, &setup) {
        Ok(m) => m,
        Err(e) => {
            errln!("error: {e}");
            json_error(args.json, "load_error", &e.to_string());
            return Ok(ExitCode::from(1));
        }
    };
    for w in machine.placement_warnings() {
        errln!("{w}");
    }
    // A program run from the ROM-less monitor, or with no vector: say
    // where it starts and why, once (not for the bundled game).
    if args.path.is_some() {
        if let Some(note) = run::start::start_note(machine.program(), machine.board().setup(), &why)
        {
            errln!(
                "{}",
                note.strip_prefix("note: ")
                    .map_or(format!("note: {note}"), |n| format!("note: {n}"))
            );
        }
    }
    let mut machine = machine;
    machine.set_serial_pacing(match args.serial_timing {
        SerialTiming::Typed => board::sci::Pacing::Typed {
            gap: board::sci::TYPED_GAP,
        },
        SerialTiming::Wire => board::sci::Pacing::Wire,
    });
    if let Some(bytes) = &acia_input {
        if !machine.feed_acia(bytes) {
            errln!(
                "error: --acia-in: board `{}` has no ACIA (the `evb` board has one at $9800; a board file declares one with [acia], docs/boards.md)",
                machine.board().config().name
            );
            return Ok(ExitCode::from(USAGE));
        }
    }
    let mut bench = Vec::new();
    let parsed = args
        .analog
        .iter()
        .map(|a| ("--analog", bench::parse_analog(a)))
        .chain(
            args.signal
                .iter()
                .map(|a| ("--signal", bench::parse_signal(a))),
        )
        .chain(args.pin.iter().map(|a| ("--pin", bench::parse_pin(a))))
        .chain(
            args.irq
                .iter()
                .filter(|a| !a.contains('@'))
                .map(|a| ("--irq", bench::parse_irq(bench::IrqLine::Irq, a))),
        );
    let mut scheduled = Vec::new();
    for text in args.irq.iter().filter(|a| a.contains('@')) {
        match bench::parse_irq_at(text) {
            Ok(at) => scheduled.push(at),
            Err(e) => {
                errln!("error: --irq: {e}");
                return Ok(ExitCode::from(USAGE));
            }
        }
    }
    for (option, result) in parsed {
        match result {
            Ok(b) => bench.push(b),
            Err(e) => {
                errln!("error: {option}: {e}");
                return Ok(ExitCode::from(USAGE));
            }
        }
    }
    if let Some(text) = &args.config {
        let t = text.trim();
        let digits = t
            .strip_prefix('$')
            .or_else(|| t.strip_prefix("0x"))
            .unwrap_or(t);
        match u8::from_str_radix(digits, 16) {
            Ok(v) => {
                machine.set_config_cell(v);
                machine.reset_button();
            }
            Err(_) => {
                errln!("error: --config: `{t}` is not a byte in hex ($08 turns the COP on)");
                return Ok(ExitCode::from(USAGE));
            }
        }
    }
    let mut trace_mask = 0u8;
    for item in args.trace_pin.iter().flat_map(|t| t.split(',')) {
        match bench::parse_port_a_bit(item) {
            Ok(bit) => trace_mask |= 1 << bit,
            Err(e) => {
                errln!("error: --trace-pin: {e}");
                return Ok(ExitCode::from(USAGE));
            }
        }
    }
    if trace_mask != 0 {
        machine.trace_pins(trace_mask);
    }
    for b in &bench {
        machine.apply_bench(b);
    }
    for (at, low) in scheduled {
        machine.schedule_pin(at, bench::IrqLine::Irq, low);
    }
    let request = RunRequest {
        breaks: args.breaks.clone(),
        watches: args.watches.clone(),
        explain_pixels: args.explain_pixel.clone(),
        explain: args.explain.clone(),
        profile: args.profile,
        max_cycles: args.max_cycles.unwrap_or(run::DEFAULT_MAX_CYCLES),
        trap_illegal: args.trap_illegal,
    };
    let (machine, report) = match run::run(machine, script.as_ref(), &request, &dumps) {
        Ok(r) => r,
        Err(e) => {
            errln!("error: {e}");
            return Ok(ExitCode::from(USAGE));
        }
    };
    if (args.lcd_png.is_some() || args.lcd_text) && !machine.board().has_lcd() {
        errln!(
            "error: --lcd-png/--lcd-text: this board has no LCD (its output is the serial line: see `serial` in the report)"
        );
        return Ok(ExitCode::from(USAGE));
    }
    if let Some(path) = &args.lcd_png {
        let png = board::render::lcd_png(machine.lcd(), 4)
            .map_err(|e| anyhow::anyhow!("cannot render the LCD: {e}"))?;
        std::fs::write(path, png).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        if args.lcd_text {
            for row in &report.lcd {
                outln!("{row}");
            }
        }
        out!("{}", report.to_text());
    }
    Ok(if report.failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The bytes `--serial-in TEXT` or `--serial-in-file FILE` give (and the
/// same for `--acia-in`), named by `option`; `Err` is the exit status after
/// the error was printed.
fn serial_input(
    option: &str,
    text: Option<&str>,
    file: Option<&Path>,
    max_cycles: u64,
) -> Result<Option<Vec<u8>>, ExitCode> {
    match (text, file) {
        (Some(text), _) => match hc11lab::script::decode_serial_escapes(text) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) => {
                errln!("error: {option}: {e}");
                Err(ExitCode::from(USAGE))
            }
        },
        (None, Some(path)) => {
            // Only what the run can receive is read: standard input or a
            // file may be endless (`/dev/zero` is refused as a device).
            let deliverable = hc11lab::script::serial_bytes_deliverable(max_cycles);
            let limit = deliverable.min(MAX_SERIAL_BYTES);
            let read = if path.as_os_str() == "-" {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(
                    &mut std::io::Read::take(std::io::stdin(), limit.saturating_add(1)),
                    &mut bytes,
                )
                .map(|_| {
                    let more = bytes.len() as u64 > limit;
                    bytes.truncate(limit as usize);
                    (bytes, more)
                })
                .map_err(|e| format!("cannot read {option}-file from standard input: {e}"))
            } else {
                hc11lab::platform::fs::read_head(path, limit)
                    .map_err(|e| format!("cannot read {option}-file {}: {e}", path.display()))
            };
            let (bytes, more) = match read {
                Ok(r) => r,
                Err(e) => {
                    errln!("error: {e}");
                    return Err(ExitCode::from(1));
                }
            };
            if more && limit < deliverable {
                errln!(
                    "warning: {option}-file: only the first {limit} bytes are sent (the most read)"
                );
            } else if more {
                errln!(
                    "warning: {option}-file: only the first {limit} bytes are sent: no more can arrive in {max_cycles} E-cycles (--max-cycles), even at the SCI's fastest rate ({} E-cycles a byte)",
                    hc11lab::script::MIN_SERIAL_FRAME_CYCLES
                );
            }
            Ok(Some(bytes))
        }
        (None, None) => Ok(None),
    }
}
