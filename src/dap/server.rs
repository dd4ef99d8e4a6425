//! The server's loop: a reader thread turns the input into messages, the
//! loop answers them and, while the program runs, runs it in slices and
//! looks for new messages between slices, so `pause`, the LCD and every
//! other request are answered while the program runs.

use super::protocol::Request;
use super::session::Session;
use super::transport::{write_message, FrameReader, Incoming};
use serde_json::{json, Value};
use std::io::{self, Read, Write};
use std::sync::mpsc::{self, RecvTimeoutError};

/// Where the server's messages go, numbered.
pub struct Out<'a> {
    w: &'a mut dyn Write,
    seq: i64,
}

impl<'a> Out<'a> {
    /// Messages to `w`, numbered from 1.
    pub fn new(w: &'a mut dyn Write) -> Self {
        Out { w, seq: 0 }
    }

    fn send(&mut self, mut v: Value) -> io::Result<()> {
        self.seq += 1;
        v["seq"] = json!(self.seq);
        write_message(self.w, &v)
    }

    /// A successful response; `body` is left out when `null`.
    pub fn respond(&mut self, req: &Request, body: Value) -> io::Result<()> {
        let mut v = json!({
            "type": "response",
            "request_seq": req.seq,
            "success": true,
            "command": req.command,
        });
        if !body.is_null() {
            v["body"] = body;
        }
        self.send(v)
    }

    /// An error response: `short` is the raw reason for the client
    /// (`notStopped`, `cancelled` or a few words), `text` the sentence
    /// for the user.
    pub fn fail(&mut self, seq: i64, command: &str, short: &str, text: &str) -> io::Result<()> {
        self.send(json!({
            "type": "response",
            "request_seq": seq,
            "success": false,
            "command": command,
            "message": short,
            "body": { "error": { "id": 1, "format": text, "showUser": true } },
        }))
    }

    /// An event; `body` is left out when `null`.
    pub fn event(&mut self, name: &str, body: Value) -> io::Result<()> {
        let mut v = json!({ "type": "event", "event": name });
        if !body.is_null() {
            v["body"] = body;
        }
        self.send(v)
    }

    /// Text for the Debug Console.
    pub fn output(&mut self, category: &str, text: &str) -> io::Result<()> {
        self.event("output", json!({ "category": category, "output": text }))
    }
}

/// What the input said, as the loop handles it.
enum Input {
    Request(Request),
    /// A message that is no request, or a problem: said on the console.
    Problem(String),
    /// A request that names itself but is malformed: answered with an error.
    BadRequest(i64, String, String),
}

fn classify(incoming: Incoming) -> Input {
    let v = match incoming {
        Incoming::Problem(p) => return Input::Problem(p),
        Incoming::Message(v) => v,
    };
    let seq = v.get("seq").and_then(Value::as_i64);
    let command = v.get("command").and_then(Value::as_str).map(str::to_string);
    match (v.get("type").and_then(Value::as_str), seq, command) {
        (Some("request"), Some(seq), Some(command)) => Input::Request(Request {
            seq,
            command,
            arguments: v.get("arguments").cloned().unwrap_or(Value::Null),
        }),
        (Some("request"), Some(seq), None) => {
            Input::BadRequest(seq, String::new(), "a request without `command`".into())
        }
        (Some("request"), None, _) => {
            Input::Problem("a request without a numeric `seq`: not answered".into())
        }
        (Some("response"), _, _) => {
            Input::Problem("a response to a request this server never sent: ignored".into())
        }
        (Some(other), Some(seq), command) => Input::BadRequest(
            seq,
            command.unwrap_or_default(),
            format!("a message of type `{other}`: a debug adapter takes requests only"),
        ),
        _ => Input::Problem(format!(
            "a message that is no request (`{}`): ignored",
            shorten(&v.to_string())
        )),
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 80 {
        format!("{}...", s.chars().take(80).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Serves one client on `input` and `output` until it disconnects or the
/// input ends.
pub fn serve(input: impl Read + Send + 'static, output: &mut dyn Write) -> io::Result<()> {
    let (tx, rx) = mpsc::channel::<Incoming>();
    crate::platform::spawn("dap-reader", move || {
        let mut reader = FrameReader::new(input);
        while let Some(m) = reader.next_incoming() {
            if tx.send(m).is_err() {
                return;
            }
        }
    });
    let mut out = Out::new(output);
    let mut session = Session::new();
    loop {
        let next = match session.wait() {
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => rx.recv_timeout(d),
        };
        let mut batch = Vec::new();
        match next {
            Ok(m) => batch.push(m),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
        batch.extend(rx.try_iter());
        for m in batch {
            match classify(m) {
                Input::Request(req) => session.handle(&req, &mut out)?,
                Input::Problem(p) => out.output("stderr", &format!("hc11lab dap: {p}\n"))?,
                Input::BadRequest(seq, command, why) => {
                    out.fail(seq, &command, "bad request", &why)?
                }
            }
            if session.finished() {
                return Ok(());
            }
        }
        session.advance(&mut out)?;
        if session.finished() {
            return Ok(());
        }
    }
}

/// Serves on standard input and output (how editors start adapters).
pub fn serve_stdio() -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    serve(io::stdin(), &mut stdout)
}

/// Listens on 127.0.0.1:`port` (0: a free port) and serves one client
/// after the other; the bound port is said on standard error first.
pub fn serve_tcp(port: u16) -> io::Result<()> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
    let bound = listener.local_addr()?;
    crate::stdio::err(&format!("hc11lab dap: listening on {bound}\n"));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                crate::stdio::err(&format!("hc11lab dap: a connection failed: {e}\n"));
                continue;
            }
        };
        let reader = stream.try_clone()?;
        let mut writer = stream;
        if let Err(e) = serve(reader, &mut writer) {
            crate::stdio::err(&format!("hc11lab dap: the client went away: {e}\n"));
        }
        let _ = writer.shutdown(std::net::Shutdown::Both);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_sorted_into_requests_and_problems() {
        let c = |v: Value| classify(Incoming::Message(v));
        assert!(matches!(
            c(json!({"type": "request", "seq": 1, "command": "threads"})),
            Input::Request(r) if r.command == "threads" && r.arguments.is_null()
        ));
        assert!(matches!(
            c(json!({"type": "request", "seq": 2})),
            Input::BadRequest(2, _, _)
        ));
        assert!(matches!(c(json!({"type": "request"})), Input::Problem(_)));
        assert!(matches!(c(json!([1, 2])), Input::Problem(_)));
        assert!(matches!(
            c(json!({"type": "event", "seq": 3, "event": "x"})),
            Input::BadRequest(3, _, _)
        ));
    }
}
