//! A small DAP client for the tests: it starts `hc11lab dap`, frames
//! requests, reads responses and events, and checks every message the
//! server sends against the protocol's schema (`schema.rs`), that every
//! request gets exactly one response, and that the server numbers its
//! messages 1, 2, 3, ...

use super::schema::check_message;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// How long any one answer may take (a debug build runs the game slowly).
const WAIT: Duration = Duration::from_secs(120);

/// Reads framed messages from a stream, as the protocol's base protocol says.
pub fn read_frames(stream: impl Read + Send + 'static) -> Receiver<Value> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stream);
        loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                match r.read_line(&mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("Content-Length: ") {
                    length = v.parse::<usize>().ok();
                }
            }
            let Some(n) = length else {
                let _ = tx.send(json!({"framing error": "no Content-Length"}));
                return;
            };
            let mut body = vec![0; n];
            if r.read_exact(&mut body).is_err() {
                return;
            }
            let v = serde_json::from_slice(&body)
                .unwrap_or_else(|e| json!({"framing error": e.to_string()}));
            if tx.send(v).is_err() {
                return;
            }
        }
    });
    rx
}

/// A client talking to one server.
pub struct Client {
    child: Option<Child>,
    input: Box<dyn Write>,
    rx: Receiver<Value>,
    seq: i64,
    server_seq: i64,
    /// Messages received but not yet asked for.
    queue: VecDeque<Value>,
    /// Requests sent and not yet answered.
    open: Vec<(i64, String)>,
    /// Every event so far, in order.
    pub events: Vec<Value>,
}

impl Client {
    /// Starts `hc11lab dap` on standard input and output.
    pub fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
            .arg("dap")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start hc11lab dap");
        let stdin: ChildStdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let rx = read_frames(stdout);
        Client::over(Box::new(stdin), rx, Some(child))
    }

    /// A client over any stream pair (TCP).
    pub fn over(input: Box<dyn Write>, rx: Receiver<Value>, child: Option<Child>) -> Client {
        Client {
            child,
            input,
            rx,
            seq: 0,
            server_seq: 0,
            queue: VecDeque::new(),
            open: Vec::new(),
            events: Vec::new(),
        }
    }

    /// Writes bytes as they are (for malformed frames).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.input.write_all(bytes).expect("write");
        self.input.flush().expect("flush");
    }

    /// Expects a response to a request sent with [`Client::send_raw`]
    /// (its command is not checked).
    pub fn expect(&mut self, seq: i64) {
        self.open.push((seq, String::new()));
    }

    /// Sends a request; returns its seq.
    pub fn request(&mut self, command: &str, arguments: Value) -> i64 {
        self.seq += 1;
        let mut m = json!({"seq": self.seq, "type": "request", "command": command});
        if !arguments.is_null() {
            m["arguments"] = arguments;
        }
        let body = serde_json::to_vec(&m).expect("json");
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend(body);
        self.send_raw(&frame);
        self.open.push((self.seq, command.to_string()));
        self.seq
    }

    /// The next message from the server, checked.
    fn next(&mut self) -> Value {
        let m = self
            .rx
            .recv_timeout(WAIT)
            .unwrap_or_else(|e| panic!("no message from the server within {WAIT:?}: {e}"));
        self.take(m)
    }

    /// Checks a message from the server and notes it.
    fn take(&mut self, m: Value) -> Value {
        assert!(m.get("framing error").is_none(), "bad framing: {m}");
        let errors = check_message(&m);
        assert!(
            errors.is_empty(),
            "not as the protocol says: {errors:#?}\n{m:#}"
        );
        let seq = m["seq"].as_i64().unwrap_or(0);
        assert_eq!(
            seq,
            self.server_seq + 1,
            "server seq numbers go 1, 2, 3: {m}"
        );
        self.server_seq = seq;
        if m["type"] == "response" {
            let rs = m["request_seq"].as_i64().unwrap_or(-1);
            let i = self
                .open
                .iter()
                .position(|(s, _)| *s == rs)
                .unwrap_or_else(|| panic!("a response to no open request: {m}"));
            let (_, command) = self.open.remove(i);
            if !command.is_empty() {
                assert_eq!(
                    m["command"],
                    command.as_str(),
                    "the response names its command"
                );
            }
        } else {
            self.events.push(m.clone());
        }
        m
    }

    /// Waits for the response to `seq`, keeping events for later.
    pub fn response(&mut self, seq: i64) -> Value {
        if let Some(i) = self
            .queue
            .iter()
            .position(|m| m["type"] == "response" && m["request_seq"] == seq)
        {
            return self.queue.remove(i).unwrap_or_default();
        }
        loop {
            let m = self.next();
            if m["type"] == "response" && m["request_seq"] == seq {
                return m;
            }
            self.queue.push_back(m);
        }
    }

    /// A request that must succeed; its body.
    pub fn call(&mut self, command: &str, arguments: Value) -> Value {
        let seq = self.request(command, arguments);
        let r = self.response(seq);
        assert_eq!(r["success"], true, "{command} failed: {r:#}");
        r.get("body").cloned().unwrap_or(Value::Null)
    }

    /// A request that must fail; the error text.
    pub fn call_err(&mut self, command: &str, arguments: Value) -> String {
        let seq = self.request(command, arguments);
        let r = self.response(seq);
        assert_eq!(r["success"], false, "{command} should fail: {r:#}");
        r["body"]["error"]["format"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Waits for an event named `name`; its body. Events before it stay queued.
    pub fn event(&mut self, name: &str) -> Value {
        if let Some(i) = self
            .queue
            .iter()
            .position(|m| m["type"] == "event" && m["event"] == name)
        {
            let m = self.queue.remove(i).unwrap_or_default();
            return m.get("body").cloned().unwrap_or(Value::Null);
        }
        loop {
            let m = self.next();
            if m["type"] == "event" && m["event"] == name {
                return m.get("body").cloned().unwrap_or(Value::Null);
            }
            self.queue.push_back(m);
        }
    }

    /// Output events received so far with this category, joined.
    pub fn output(&mut self, category: &str) -> String {
        // Take in what has arrived already.
        while let Ok(m) = self.rx.try_recv() {
            let m = self.take(m);
            self.queue.push_back(m);
        }
        self.events
            .iter()
            .filter(|e| e["event"] == "output" && e["body"]["category"] == category)
            .filter_map(|e| e["body"]["output"].as_str())
            .collect()
    }

    /// `initialize` as VS Code sends it, then `launch` with `args`;
    /// waits for `initialized`. Returns the capabilities.
    pub fn init_launch(&mut self, args: Value) -> Value {
        let caps = self.call(
            "initialize",
            json!({
                "clientID": "hc11lab-tests", "adapterID": "hc11lab",
                "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path",
                "supportsVariableType": true, "supportsMemoryReferences": true,
                "supportsMemoryEvent": true, "supportsInvalidatedEvent": true
            }),
        );
        self.call("launch", args);
        self.event("initialized");
        caps
    }

    /// Waits for the next `stopped` event.
    pub fn stopped(&mut self) -> Value {
        self.event("stopped")
    }

    /// The top stack frame.
    pub fn top(&mut self) -> Value {
        let st = self.call("stackTrace", json!({"threadId": 1}));
        st["stackFrames"][0].clone()
    }

    /// The variables of a reference, by name.
    pub fn vars(&mut self, reference: i64) -> Vec<(String, Value)> {
        let v = self.call("variables", json!({"variablesReference": reference}));
        v["variables"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|x| (x["name"].as_str().unwrap_or("").to_string(), x))
            .collect()
    }

    /// Ends the session; the server must exit by itself.
    pub fn disconnect(mut self) {
        self.call("disconnect", json!({}));
        if let Some(mut c) = self.child.take() {
            // The server's input ends with the client's.
            self.input = Box::new(std::io::sink());
            for _ in 0..600 {
                if let Ok(Some(status)) = c.try_wait() {
                    assert!(status.success(), "hc11lab dap exited with {status}");
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = c.kill();
            panic!("hc11lab dap did not exit after disconnect");
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(c) = self.child.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
