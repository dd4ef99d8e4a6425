//! Whole debugging sessions against `hc11lab dap` on the Viergewinnt
//! sources, driven by a client written here (no editor): breakpoints of
//! every kind, the stack, variables, log points, data breakpoints,
//! stepping both ways, memory and disassembly. Every message the server
//! sends is checked against the protocol's schema by the client.

mod dap_support;

use base64::Engine as _;
use dap_support::client::Client;
use serde_json::{json, Value};
use std::path::PathBuf;

fn firmware() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("firmware")
}

fn file(name: &str) -> String {
    std::fs::canonicalize(firmware().join(name))
        .expect("firmware file")
        .to_string_lossy()
        .into_owned()
}

/// The 1-based number of the first line of `name` that contains `text`.
fn line_of(name: &str, text: &str) -> i64 {
    let src = std::fs::read_to_string(firmware().join(name)).expect("read");
    src.lines()
        .position(|l| l.contains(text))
        .map(|i| i as i64 + 1)
        .unwrap_or_else(|| panic!("`{text}` not in {name}"))
}

/// The 1-based number of the line of `name` that is `text` (a label alone).
fn line_equal(name: &str, text: &str) -> i64 {
    let src = std::fs::read_to_string(firmware().join(name)).expect("read");
    src.lines()
        .position(|l| l.trim_end() == text)
        .map(|i| i as i64 + 1)
        .unwrap_or_else(|| panic!("no line `{text}` in {name}"))
}

fn line_text(name: &str, line: i64) -> String {
    let src = std::fs::read_to_string(firmware().join(name)).expect("read");
    src.lines().nth(line as usize - 1).unwrap_or("").to_string()
}

/// A session on the firmware folder with `keys`, at full speed.
fn session(keys: &str) -> Client {
    session_with(json!({"keys": keys}))
}

/// A session on the firmware folder at full speed, with more launch arguments.
fn session_with(extra: Value) -> Client {
    let mut c = Client::start();
    let mut args = json!({
        "type": "hc11lab", "request": "launch", "name": "test",
        "program": firmware(), "speed": "max"
    });
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        args[k] = v;
    }
    let caps = c.init_launch(args);
    for cap in [
        "supportsConfigurationDoneRequest",
        "supportsFunctionBreakpoints",
        "supportsConditionalBreakpoints",
        "supportsHitConditionalBreakpoints",
        "supportsLogPoints",
        "supportsDataBreakpoints",
        "supportsInstructionBreakpoints",
        "supportsStepBack",
        "supportsSetVariable",
        "supportsReadMemoryRequest",
        "supportsWriteMemoryRequest",
        "supportsDisassembleRequest",
        "supportsRestartRequest",
        "supportsTerminateRequest",
        "supportsEvaluateForHovers",
    ] {
        assert_eq!(caps[cap], true, "{cap}");
    }
    c
}

fn var<'a>(vars: &'a [(String, Value)], name: &str) -> &'a Value {
    &vars
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no variable {name}"))
        .1
}

fn value(vars: &[(String, Value)], name: &str) -> String {
    var(vars, name)["value"].as_str().unwrap_or("").to_string()
}

fn eval(c: &mut Client, expr: &str) -> Value {
    c.call("evaluate", json!({"expression": expr, "context": "watch"}))
}

/// The number in an evaluate result (`$05 (5)` -> 5).
fn number(c: &mut Client, expr: &str) -> i64 {
    let r = eval(c, expr)["result"].as_str().unwrap_or("").to_string();
    let inner = r
        .rsplit_once('(')
        .and_then(|(_, n)| n.strip_suffix(')'))
        .unwrap_or(&r);
    inner
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {r}"))
}

fn lcd(c: &mut Client) -> Value {
    c.call("hc11lab/lcd", Value::Null)
}

fn all_memory(c: &mut Client) -> Vec<u8> {
    let r = c.call(
        "readMemory",
        json!({"memoryReference": "0x0000", "count": 65536}),
    );
    assert_eq!(r["address"], "0x0000");
    assert!(r.get("unreadableBytes").is_none());
    base64::engine::general_purpose::STANDARD
        .decode(r["data"].as_str().expect("data"))
        .expect("base64")
}

#[test]
fn breakpoints_in_read_input_and_on_draw_cell_are_verified_hit_and_show_the_stack() {
    let mut c = session("drop");
    let input = file("Input.inc");
    let ldaa = line_of("Input.inc", "ldaa    PIO_B");
    let comment = line_of("Input.inc", "; Liest das Datenbyte");
    let label = line_equal("Input.inc", "readInput");
    let bps = c.call(
        "setBreakpoints",
        json!({"source": {"path": input}, "breakpoints": [
            {"line": ldaa}, {"line": comment}, {"line": 100000}
        ]}),
    );
    let list = bps["breakpoints"].as_array().expect("list").clone();
    assert_eq!(list.len(), 3);
    assert_eq!(list[0]["verified"], true);
    assert_eq!(list[0]["line"], ldaa);
    assert_eq!(list[0]["source"]["path"], input.as_str());
    assert_eq!(list[1]["verified"], false);
    assert!(
        list[1]["message"]
            .as_str()
            .unwrap_or("")
            .contains("comment"),
        "{}",
        list[1]
    );
    assert_eq!(list[2]["verified"], false);
    let read_input_bp = list[0]["id"].as_i64().expect("id");
    // A label alone on its line stands for the instruction after it.
    let moved = c.call(
        "setBreakpoints",
        json!({"source": {"path": input}, "breakpoints": [{"line": ldaa}, {"line": label}]}),
    );
    assert_eq!(moved["breakpoints"][1]["verified"], true);
    assert_eq!(moved["breakpoints"][1]["line"], label + 1);
    assert_eq!(
        moved["breakpoints"][0]["id"], read_input_bp,
        "ids stay with their place"
    );
    c.call(
        "setBreakpoints",
        json!({"source": {"path": input}, "breakpoints": [{"line": ldaa}]}),
    );

    let f = c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "drawCell"}, {"name": "drawCel"}]}),
    );
    assert_eq!(f["breakpoints"][0]["verified"], true);
    assert_eq!(
        f["breakpoints"][0]["line"],
        line_equal("Board.inc", "drawCell") + 1
    );
    assert_eq!(f["breakpoints"][1]["verified"], false);
    assert!(f["breakpoints"][1]["message"]
        .as_str()
        .unwrap_or("")
        .contains("did you mean `drawCell`"));
    let draw_bp = f["breakpoints"][0]["id"].as_i64().expect("id");
    c.call("configurationDone", Value::Null);

    // The game draws its board first.
    let s = c.stopped();
    assert_eq!(s["reason"], "function breakpoint");
    assert_eq!(s["hitBreakpointIds"], json!([draw_bp]));
    assert_eq!(s["threadId"], 1);
    let threads = c.call("threads", Value::Null);
    assert_eq!(threads["threads"].as_array().map(Vec::len), Some(1));
    let st = c.call("stackTrace", json!({"threadId": 1}));
    let frames = st["stackFrames"].as_array().expect("frames").clone();
    assert_eq!(frames[0]["name"], "drawCell");
    assert_eq!(frames[0]["source"]["path"], file("Board.inc").as_str());
    assert_eq!(frames[1]["name"], "drawBoard", "the caller");
    let call_line = frames[1]["line"].as_i64().expect("line");
    let text = line_text("Board.inc", call_line);
    assert!(text.contains("jsr") && text.contains("drawCell"), "{text}");
    assert_eq!(st["totalFrames"].as_i64(), Some(frames.len() as i64));
    let paged = c.call(
        "stackTrace",
        json!({"threadId": 1, "startFrame": 1, "levels": 1}),
    );
    assert_eq!(paged["stackFrames"][0]["name"], "drawBoard");

    // Registers, with the flags, and a variable by name.
    let scopes = c.call("scopes", json!({"frameId": frames[0]["id"]}));
    let names: Vec<&str> = scopes["scopes"]
        .as_array()
        .expect("scopes")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(names, ["Registers", "Variables", "Cell buffer (7 x 6)"]);
    let regs = c.vars(
        scopes["scopes"][0]["variablesReference"]
            .as_i64()
            .expect("ref"),
    );
    let reg_names: Vec<&str> = regs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(reg_names, ["A", "B", "D", "X", "Y", "SP", "PC", "CCR"]);
    let pc = var(&regs, "PC")["memoryReference"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert_eq!(
        pc,
        frames[0]["instructionPointerReference"]
            .as_str()
            .unwrap_or("")
    );
    let flags = c.vars(
        var(&regs, "CCR")["variablesReference"]
            .as_i64()
            .expect("ccr"),
    );
    assert_eq!(flags.len(), 8);
    assert_eq!(flags[0].0, "S");
    let a = number(&mut c, "A");
    assert_eq!(value(&regs, "A"), format!("${a:02X} ({a})"));
    let globals = c.vars(
        scopes["scopes"][1]["variablesReference"]
            .as_i64()
            .expect("ref"),
    );
    let cell_address = var(&globals, "cellAddress");
    assert_eq!(cell_address["type"], "word");
    assert_eq!(
        cell_address["value"],
        eval(&mut c, "cellAddress")["result"],
        "the Variables view and the Watch view agree"
    );
    assert_eq!(var(&globals, "board")["type"], "byte[336]");

    // Without the function breakpoint the key's handling comes next.
    c.call("setFunctionBreakpoints", json!({"breakpoints": []}));
    c.call("continue", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "breakpoint");
    assert_eq!(s["hitBreakpointIds"], json!([read_input_bp]));
    let top = c.top();
    assert_eq!(top["name"], "readInput");
    assert_eq!(top["line"], ldaa);
    assert_eq!(top["source"]["path"], input.as_str());
    c.disconnect();
}

#[test]
fn conditions_hit_counts_and_log_points() {
    let mut c = session("drop");
    let board = file("Board.inc");
    let first = line_equal("Board.inc", "drawCell") + 1;
    c.call(
        "setBreakpoints",
        json!({"source": {"path": board}, "breakpoints": [
            {"line": first, "logMessage": "cell {cellAddress} {[cellAddress].w:x}"}
        ]}),
    );
    // The condition language of --break: stop where cell 3,2 is drawn.
    let f = c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "drawCell", "condition": "[cellAddress].w == 136"}]}),
    );
    assert_eq!(f["breakpoints"][0]["verified"], true);
    c.call("configurationDone", Value::Null);
    let s = c.stopped();
    assert_eq!(s["reason"], "function breakpoint");
    assert_eq!(number(&mut c, "cellAddress"), 136);
    // One log line per cell drawn so far, this one included.
    let logs = c.output("console");
    let cells: Vec<&str> = logs.lines().filter(|l| l.starts_with("cell ")).collect();
    assert_eq!(cells.len(), 136 / 8 + 1, "{logs}");
    assert_eq!(cells[0], "cell 0 $00");
    assert_eq!(cells[17], "cell 136 $88");
    let log_event = c
        .events
        .iter()
        .find(|e| e["event"] == "output" && e["body"]["output"] == "cell 8 $08\n")
        .cloned()
        .expect("a log point's output");
    assert_eq!(log_event["body"]["line"], first);

    // A hit count: from the 5th hit on; then "== N" and "% N".
    c.call(
        "setBreakpoints",
        json!({"source": {"path": board}, "breakpoints": []}),
    );
    c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "drawCell", "hitCondition": "5"}]}),
    );
    c.call("continue", json!({"threadId": 1}));
    c.stopped();
    // Hits count from when the breakpoint was set: the 5th drawCell after 136.
    assert_eq!(number(&mut c, "cellAddress"), 136 + 5 * 8);
    c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "drawCell", "hitCondition": "% 3", "condition": "A == A"}]}),
    );
    c.call("continue", json!({"threadId": 1}));
    c.stopped();
    let at = number(&mut c, "cellAddress");
    c.call("continue", json!({"threadId": 1}));
    c.stopped();
    assert_eq!(number(&mut c, "cellAddress"), at + 3 * 8, "every third hit");
    let bad = c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [
            {"name": "drawCell", "hitCondition": "often"},
            {"name": "drawCell", "condition": "[coordy] =="}
        ]}),
    );
    assert_eq!(bad["breakpoints"][0]["verified"], false);
    assert!(bad["breakpoints"][0]["message"]
        .as_str()
        .unwrap_or("")
        .contains("hit condition"));
    assert_eq!(bad["breakpoints"][1]["verified"], false);
    assert!(bad["breakpoints"][1]["message"]
        .as_str()
        .unwrap_or("")
        .contains("condition"));
    c.disconnect();
}

#[test]
fn a_data_breakpoint_on_the_cell_buffer_stops_at_the_writing_instruction() {
    let mut c = session("drop");
    c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "setStone"}]}),
    );
    c.call("configurationDone", Value::Null);
    c.stopped();
    c.call("setFunctionBreakpoints", json!({"breakpoints": []}));
    // The cell buffer's scope offers its rows as data breakpoints.
    let scopes = c.call("scopes", json!({"frameId": 1}));
    let cells = scopes["scopes"][2]["variablesReference"]
        .as_i64()
        .expect("cells");
    let rows = c.vars(cells);
    assert_eq!(rows.len(), 6);
    let info = c.call(
        "dataBreakpointInfo",
        json!({"variablesReference": cells, "name": "row 5"}),
    );
    assert_eq!(info["dataId"], "$0158:56");
    let whole = c.call("dataBreakpointInfo", json!({"name": "board"}));
    assert_eq!(whole["dataId"], "board:336");
    assert_eq!(whole["accessTypes"], json!(["read", "write", "readWrite"]));
    let regs = c.call(
        "dataBreakpointInfo",
        json!({"variablesReference": 1, "name": "A"}),
    );
    assert_eq!(regs["dataId"], Value::Null);
    let set = c.call(
        "setDataBreakpoints",
        json!({"breakpoints": [{"dataId": "board:336", "accessType": "write"}]}),
    );
    assert_eq!(set["breakpoints"][0]["verified"], true);
    let id = set["breakpoints"][0]["id"].clone();
    // The stone goes into the buffer.
    c.call("continue", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "data breakpoint", "{s}");
    assert_eq!(s["hitBreakpointIds"], json!([id]));
    // "the instruction at setStone+12 ($C3A0) wrote $01 (was $00) to board+..."
    let d = s["description"].as_str().unwrap_or("").to_string();
    let writer = d
        .split("($")
        .nth(1)
        .and_then(|r| r.get(..4))
        .and_then(|h| u16::from_str_radix(h, 16).ok())
        .unwrap_or_else(|| panic!("no writer in {d}"));
    assert!(d.contains("wrote") && d.contains("board+"), "{d}");
    assert!(d.contains("ToBuffer"), "the stone's writer: {d}");
    let dis = c.call(
        "disassemble",
        json!({"memoryReference": format!("0x{writer:04X}"), "instructionCount": 2}),
    );
    let ins = dis["instructions"][0]["instruction"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        ["st", "clr", "bset", "bclr", "inc", "dec", "psh", "com", "neg", "as", "ls", "ro"]
            .iter()
            .any(|w| ins.starts_with(w)),
        "the stop names a writing instruction: {ins}"
    );
    // Stopped after it: the next instruction is the top frame's.
    assert_eq!(
        c.top()["instructionPointerReference"],
        dis["instructions"][1]["address"]
    );
    c.disconnect();
}

#[test]
fn next_then_step_back_restores_registers_memory_and_the_lcd_exactly() {
    let mut c = session("drop");
    let board = file("Board.inc");
    let call = line_of("Board.inc", "jsr     drawCell");
    c.call(
        "setBreakpoints",
        json!({"source": {"path": board}, "breakpoints": [{"line": call, "hitCondition": "20"}]}),
    );
    c.call("configurationDone", Value::Null);
    c.stopped();
    assert_eq!(c.top()["line"], call);
    let regs_before = c.vars(1);
    let memory_before = all_memory(&mut c);
    let lcd_before = lcd(&mut c);

    // Over the call: a cell is drawn.
    c.call("next", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "step", "{s}");
    assert_eq!(c.top()["line"], call + 1);
    let lcd_after = lcd(&mut c);
    assert_ne!(lcd_after["pixels"], lcd_before["pixels"], "drawCell drew");
    assert_ne!(lcd_after["cycles"], lcd_before["cycles"]);

    // Back over it as a whole.
    c.call("stepBack", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "step");
    assert_eq!(c.top()["line"], call);
    let regs_back = c.vars(1);
    for ((n, a), (_, b)) in regs_before.iter().zip(&regs_back) {
        assert_eq!(a["value"], b["value"], "register {n}");
    }
    assert!(all_memory(&mut c) == memory_before, "all 64 KiB as before");
    let lcd_back = lcd(&mut c);
    assert_eq!(lcd_back["pixels"], lcd_before["pixels"]);
    assert_eq!(lcd_back["cycles"], lcd_before["cycles"]);

    // By instruction, a step back goes one instruction.
    c.call("stepIn", json!({"threadId": 1}));
    c.stopped();
    assert_eq!(c.top()["name"], "drawCell", "step into the call");
    c.call("stepIn", json!({"threadId": 1}));
    c.stopped();
    c.call(
        "stepBack",
        json!({"threadId": 1, "granularity": "instruction"}),
    );
    c.stopped();
    assert_eq!(c.top()["name"], "drawCell");
    assert_eq!(c.top()["line"], line_equal("Board.inc", "drawCell") + 1);
    // Step out returns to the line after the call.
    c.call("stepOut", json!({"threadId": 1}));
    c.stopped();
    assert_eq!(c.top()["line"], call + 1);
    assert_eq!(c.top()["name"], "drawBoard");
    c.disconnect();
}

#[test]
fn reverse_continue_returns_to_the_previous_hit_of_a_breakpoint() {
    let mut c = session("drop");
    let f = c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "drawCell"}]}),
    );
    let id = f["breakpoints"][0]["id"].clone();
    c.call("configurationDone", Value::Null);
    c.stopped();
    c.call("continue", json!({"threadId": 1}));
    c.stopped();
    let first = (lcd(&mut c)["cycles"].clone(), number(&mut c, "cellAddress"));
    c.call("continue", json!({"threadId": 1}));
    c.stopped();
    assert_eq!(number(&mut c, "cellAddress"), first.1 + 8);
    c.call("reverseContinue", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "function breakpoint");
    assert_eq!(s["hitBreakpointIds"], json!([id]));
    assert_eq!(
        lcd(&mut c)["cycles"],
        first.0,
        "the same moment as the hit before"
    );
    assert_eq!(number(&mut c, "cellAddress"), first.1);
    c.disconnect();
}

#[test]
fn memory_reads_disassembly_and_edits() {
    let mut c = session("drop");
    c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "drawCell", "condition": "[cellAddress].w == 8"}]}),
    );
    c.call("configurationDone", Value::Null);
    c.stopped();
    // The cell buffer by its label's memory reference.
    let board = eval(&mut c, "board");
    let reference = board["memoryReference"].as_str().expect("ref").to_string();
    assert_eq!(reference, "0x0040");
    let r = c.call(
        "readMemory",
        json!({"memoryReference": reference, "count": 336}),
    );
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(r["data"].as_str().expect("data"))
        .expect("base64");
    assert_eq!(bytes.len(), 336);
    // The 7 x 6 view shows the same bytes: cell 3,2 is board+136.
    let cells = c.vars(4);
    let row2 = c.vars(
        var(&cells, "row 2")["variablesReference"]
            .as_i64()
            .expect("row"),
    );
    assert_eq!(row2.len(), 7);
    let cell = var(&row2, "cell 3,2");
    let shown: Vec<String> = bytes[136..144].iter().map(|b| format!("{b:02X}")).collect();
    assert_eq!(cell["value"], shown.join(" "));
    let tail = c.call(
        "readMemory",
        json!({"memoryReference": "0xFFF0", "offset": 8, "count": 16}),
    );
    assert_eq!(tail["address"], "0xFFF8");
    assert_eq!(tail["unreadableBytes"], 8);

    // Disassembly with labels, and back from a label.
    let draw = eval(&mut c, "drawCell")["memoryReference"]
        .as_str()
        .expect("ref")
        .to_string();
    let d = c.call(
        "disassemble",
        json!({"memoryReference": draw, "instructionOffset": -2, "instructionCount": 30, "resolveSymbols": true}),
    );
    let ins = d["instructions"].as_array().expect("list").clone();
    assert_eq!(ins.len(), 30);
    assert_eq!(ins[2]["address"], draw.as_str());
    assert_eq!(ins[2]["symbol"], "drawCell");
    assert_eq!(ins[2]["instruction"], "pshx");
    assert_eq!(ins[2]["line"], line_equal("Board.inc", "drawCell") + 1);
    assert!(ins
        .iter()
        .any(|i| i["instruction"] == "jsr LCDSetRow" || i["instruction"] == "jsr LCDSetCol"));

    // Edits: a register, a flag, a variable, memory.
    c.call(
        "setVariable",
        json!({"variablesReference": 1, "name": "A", "value": "$41"}),
    );
    assert_eq!(number(&mut c, "A"), 0x41);
    let regs = c.vars(1);
    let ccr = var(&regs, "CCR")["variablesReference"]
        .as_i64()
        .expect("ccr");
    let z = c.call(
        "setVariable",
        json!({"variablesReference": ccr, "name": "Z", "value": "1"}),
    );
    assert_eq!(z["value"], "1");
    assert_eq!(number(&mut c, "Z"), 1);
    let set = c.call(
        "setVariable",
        json!({"variablesReference": 3, "name": "coordy", "value": "[coordy] + 2"}),
    );
    assert!(set["value"].as_str().unwrap_or("").starts_with('$'));
    let mem = c.event("memory");
    assert_eq!(mem["count"], 1);
    let err = c.call_err(
        "setVariable",
        json!({"variablesReference": 1, "name": "A", "value": "300"}),
    );
    assert!(err.contains("does not fit"), "{err}");
    let w = c.call(
        "writeMemory",
        json!({"memoryReference": "0x0040", "data": base64::engine::general_purpose::STANDARD.encode([0xAA, 0x55])}),
    );
    assert_eq!(w["bytesWritten"], 2);
    let r = c.call(
        "readMemory",
        json!({"memoryReference": "0x0040", "count": 2}),
    );
    assert_eq!(
        r["data"],
        base64::engine::general_purpose::STANDARD.encode([0xAA, 0x55])
    );
    // The PIO is no memory: nothing written.
    let err = c.call_err(
        "writeMemory",
        json!({"memoryReference": "0x8000", "data": "AA=="}),
    );
    assert!(err.contains("$8000"), "{err}");
    c.disconnect();
}

#[test]
fn instruction_breakpoints_hover_and_the_lcd_request() {
    let mut c = session_with(json!({"keys": "right,drop", "stopOnEntry": true}));
    c.call("configurationDone", Value::Null);
    assert_eq!(c.stopped()["reason"], "entry");
    let draw = eval(&mut c, "drawCell+0")["result"]
        .as_str()
        .and_then(|r| r.get(1..5))
        .expect("address")
        .to_string();
    let ib = c.call(
        "setInstructionBreakpoints",
        json!({"breakpoints": [
            {"instructionReference": format!("0x{draw}")},
            {"instructionReference": format!("0x{draw}"), "offset": 2}
        ]}),
    );
    assert_eq!(ib["breakpoints"][0]["verified"], true);
    assert_eq!(
        ib["breakpoints"][0]["line"],
        line_equal("Board.inc", "drawCell") + 1
    );
    assert_eq!(
        ib["breakpoints"][1]["verified"], false,
        "inside an instruction"
    );
    c.call("continue", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "instruction breakpoint");
    let hover = c.call(
        "evaluate",
        json!({"expression": "coordy", "context": "hover"}),
    );
    assert!(hover["result"].as_str().unwrap_or("").starts_with('$'));
    let err = c.call_err(
        "evaluate",
        json!({"expression": "ldaa", "context": "hover"}),
    );
    assert!(err.contains("unknown symbol"), "{err}");
    let repl = c.call(
        "evaluate",
        json!({"expression": "? [coordy] + 1", "context": "repl"}),
    );
    assert!(repl["result"].as_str().unwrap_or("").starts_with('$'));
    // A key tap from the panel reaches the game.
    c.call("setInstructionBreakpoints", json!({"breakpoints": []}));
    let f = c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "moveCursorLeft"}]}),
    );
    assert_eq!(f["breakpoints"][0]["verified"], true);
    c.call("hc11lab/key", json!({"key": "left"}));
    let err = c.call_err("hc11lab/key", json!({"key": 9}));
    assert!(err.contains("0..7"), "{err}");
    c.call("continue", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "function breakpoint");
    assert_eq!(c.top()["name"], "moveCursorLeft");
    let screen = lcd(&mut c);
    assert_eq!(screen["width"], 128);
    assert_eq!(screen["height"], 64);
    assert_eq!(screen["hasKeys"], true);
    assert_eq!(screen["running"], false);
    let pixels = base64::engine::general_purpose::STANDARD
        .decode(screen["pixels"].as_str().expect("pixels"))
        .expect("base64");
    assert_eq!(pixels.len(), 1024);
    assert!(pixels.iter().any(|&b| b != 0), "the board is drawn");
    c.disconnect();
}

#[test]
fn restart_places_the_breakpoints_again_and_stops_on_entry() {
    let mut c = Client::start();
    c.init_launch(json!({"program": firmware(), "stopOnEntry": true, "speed": "max"}));
    let f = c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "drawBoard"}]}),
    );
    let id = f["breakpoints"][0]["id"].clone();
    c.call("configurationDone", Value::Null);
    let s = c.stopped();
    assert_eq!(s["reason"], "entry");
    let name = c.top()["name"].as_str().unwrap_or("").to_ascii_lowercase();
    assert_eq!(name, "start");
    c.call("continue", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["hitBreakpointIds"], json!([id]));
    c.call(
        "restart",
        json!({"arguments": {"program": firmware(), "stopOnEntry": true, "speed": "max"}}),
    );
    let changed = c.event("breakpoint");
    assert_eq!(changed["reason"], "changed");
    assert_eq!(changed["breakpoint"]["id"], id);
    assert_eq!(changed["breakpoint"]["verified"], true);
    let s = c.stopped();
    assert_eq!(s["reason"], "entry");
    c.call("continue", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(
        s["hitBreakpointIds"],
        json!([id]),
        "hit again after the restart"
    );
    c.call("terminate", Value::Null);
    c.event("terminated");
    c.disconnect();
}

#[test]
fn the_bundled_program_is_served_by_source_reference() {
    let mut c = Client::start();
    c.init_launch(json!({"speed": "max"}));
    let bps = c.call(
        "setBreakpoints",
        json!({"source": {"name": "Board.inc", "path": "Board.inc"}, "breakpoints": [
            {"line": line_equal("Board.inc", "drawCell") + 1}
        ]}),
    );
    let bp = &bps["breakpoints"][0];
    assert_eq!(bp["verified"], true);
    let reference = bp["source"]["sourceReference"].as_i64().expect("reference");
    assert!(bp["source"].get("path").is_none());
    let text = c.call("source", json!({"sourceReference": reference}));
    let on_disk = std::fs::read_to_string(firmware().join("Board.inc")).expect("read");
    assert_eq!(text["content"].as_str(), Some(on_disk.as_str()));
    c.call("configurationDone", Value::Null);
    let s = c.stopped();
    assert_eq!(s["reason"], "breakpoint");
    assert_eq!(c.top()["source"]["sourceReference"], reference);
    c.disconnect();
}

#[test]
fn step_over_a_call_stops_at_a_breakpoint_inside_it() {
    let mut c = session("drop");
    let board = file("Board.inc");
    let call = line_of("Board.inc", "jsr     drawCell");
    c.call(
        "setBreakpoints",
        json!({"source": {"path": board}, "breakpoints": [{"line": call}]}),
    );
    c.call("configurationDone", Value::Null);
    c.stopped();
    let f = c.call(
        "setFunctionBreakpoints",
        json!({"breakpoints": [{"name": "LCDSetCol"}]}),
    );
    let id = f["breakpoints"][0]["id"].clone();
    c.call("next", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "function breakpoint");
    assert_eq!(s["hitBreakpointIds"], json!([id]));
    let st = c.call("stackTrace", json!({"threadId": 1}));
    let names: Vec<&str> = st["stackFrames"]
        .as_array()
        .expect("frames")
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(&names[..3], ["LCDSetCol", "drawCell", "drawBoard"]);
    // Going back from inside the call stops at the call, by the call stack.
    c.call("setFunctionBreakpoints", json!({"breakpoints": []}));
    c.call("stepOut", json!({"threadId": 1}));
    c.stopped();
    assert_eq!(c.top()["name"], "drawCell");
    c.call("stepBack", json!({"threadId": 1}));
    let s = c.stopped();
    assert_eq!(s["reason"], "step");
    assert_eq!(c.top()["name"], "drawCell");
    let text = line_text("Board.inc", c.top()["line"].as_i64().expect("line"));
    assert!(text.contains("jsr") && text.contains("LCDSetCol"), "{text}");
    c.disconnect();
}
