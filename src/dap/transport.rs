//! The Debug Adapter Protocol's base protocol: every message is a header
//! part (`Content-Length: N`, other fields ignored, each line ending in
//! CR LF, an empty line after the last) and N bytes of UTF-8 JSON.
//!
//! Reading is forgiving, because a client that sends one bad frame should
//! not lose the session: a header without a usable length, bytes that are
//! no header, and a body that is no JSON are each reported as a
//! [`Incoming::Problem`] and skipped, and reading resynchronises at the
//! next `Content-Length` (also one swallowed by a length that was too
//! long).

use std::io::{self, Read, Write};

/// Longest header part accepted before the reader gives up looking for
/// its end and skips ahead.
const MAX_HEADER: usize = 16 * 1024;

/// Largest body accepted (a DAP message is a few KiB; a `writeMemory` of
/// all 64 KiB in base64 is under 100 KiB).
pub const MAX_BODY: usize = 8 * 1024 * 1024;

/// What the reader found next on the stream.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// A well-framed JSON value.
    Message(serde_json::Value),
    /// Something that was not a well-framed JSON value, skipped; the text
    /// says what and is meant for the user.
    Problem(String),
}

/// Reads framed messages from a byte stream.
pub struct FrameReader<R: Read> {
    inner: R,
    buf: Vec<u8>,
    eof: bool,
}

impl<R: Read> FrameReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> Self {
        FrameReader {
            inner,
            buf: Vec::new(),
            eof: false,
        }
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    fn fill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        let mut chunk = [0u8; 8192];
        loop {
            match self.inner.read(&mut chunk) {
                Ok(0) => {
                    self.eof = true;
                    return false;
                }
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    self.eof = true;
                    return false;
                }
            }
        }
    }

    /// The next message or problem; `None` once the stream has ended
    /// (a message cut off by the end is reported as a problem first).
    pub fn next_incoming(&mut self) -> Option<Incoming> {
        loop {
            // Whitespace between messages is harmless.
            let lead = self
                .buf
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            self.buf.drain(..lead);
            let Some(end) = header_end(&self.buf) else {
                if self.buf.len() > MAX_HEADER {
                    return Some(self.skip_garbage("no message header end (an empty line)"));
                }
                if !self.fill() {
                    return self.ended();
                }
                continue;
            };
            let (header_len, sep_len) = end;
            let header = String::from_utf8_lossy(&self.buf[..header_len]).into_owned();
            let length = match content_length(&header) {
                Ok(n) => n,
                Err(why) => {
                    self.buf.drain(..header_len + sep_len);
                    return Some(Incoming::Problem(why));
                }
            };
            self.buf.drain(..header_len + sep_len);
            while self.buf.len() < length {
                if !self.fill() {
                    let got = self.buf.len();
                    self.buf.clear();
                    return Some(Incoming::Problem(format!(
                        "the input ended inside a message: Content-Length said {length} bytes, {got} came"
                    )));
                }
            }
            let body: Vec<u8> = self.buf.drain(..length).collect();
            match serde_json::from_slice::<serde_json::Value>(&body) {
                Ok(v) => return Some(Incoming::Message(v)),
                Err(e) => {
                    // A length that was too long swallowed the next
                    // message's header: give those bytes back.
                    if let Some(at) = find_header_start(&body[1.min(body.len())..]) {
                        let at = at + 1;
                        let rest = body[at..].to_vec();
                        self.buf.splice(..0, rest);
                    }
                    return Some(Incoming::Problem(format!(
                        "a message that is not valid JSON ({e}); skipped"
                    )));
                }
            }
        }
    }

    /// Drops the buffer up to the last `Content-Length` in it (or all of it).
    fn skip_garbage(&mut self, what: &str) -> Incoming {
        let keep = find_last_header_start(&self.buf).filter(|&at| at > 0);
        let dropped = keep.unwrap_or(self.buf.len());
        self.buf.drain(..dropped);
        Incoming::Problem(format!("{what}: skipped {dropped} bytes"))
    }

    fn ended(&mut self) -> Option<Incoming> {
        let rest = std::mem::take(&mut self.buf);
        if rest.iter().all(|b| b.is_ascii_whitespace()) {
            None
        } else {
            Some(Incoming::Problem(format!(
                "the input ended inside a message header ({} bytes skipped)",
                rest.len()
            )))
        }
    }
}

/// Where the header part ends: (its length, the separator's length). The
/// protocol's separator is CR LF CR LF; a bare LF LF is taken too.
fn header_end(buf: &[u8]) -> Option<(usize, usize)> {
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n");
    let lf = buf.windows(2).position(|w| w == b"\n\n");
    match (crlf, lf) {
        (Some(a), Some(b)) if b < a => Some((b, 2)),
        (Some(a), _) => Some((a, 4)),
        (None, Some(b)) => Some((b, 2)),
        (None, None) => None,
    }
}

/// The body length a header part gives, or why it gives none. The field
/// is looked for anywhere in the header, so bytes before it (other header
/// fields, or the tail of a message whose length was too short) do not
/// lose the frame.
fn content_length(header: &str) -> Result<usize, String> {
    let Some(at) = find_last_header_start(header.as_bytes()) else {
        return Err(format!(
            "a message header without Content-Length (`{}`); skipped",
            shorten(header)
        ));
    };
    let rest = &header[at + "content-length:".len()..];
    let value = rest.lines().next().unwrap_or("").trim();
    match value.parse::<usize>() {
        Ok(n) if n <= MAX_BODY => Ok(n),
        Ok(n) => Err(format!(
            "a message of {n} bytes is larger than the {MAX_BODY} accepted; skipped its header"
        )),
        Err(_) => Err(format!(
            "`Content-Length: {}` is not a length in bytes; skipped that header",
            shorten(value)
        )),
    }
}

fn shorten(text: &str) -> String {
    let t: String = text.chars().take(60).collect();
    let t = t.replace(['\r', '\n'], " ");
    if text.chars().count() > 60 {
        format!("{t}...")
    } else {
        t
    }
}

fn find_header_start(bytes: &[u8]) -> Option<usize> {
    let needle = b"content-length:";
    bytes
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

fn find_last_header_start(bytes: &[u8]) -> Option<usize> {
    let needle = b"content-length:";
    bytes
        .windows(needle.len())
        .rposition(|w| w.eq_ignore_ascii_case(needle))
}

/// Writes one message with its header and flushes.
pub fn write_message(out: &mut dyn Write, value: &serde_json::Value) -> io::Result<()> {
    let body = serde_json::to_vec(value).map_err(io::Error::other)?;
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(&body);
    out.write_all(&frame)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    fn all(input: &str) -> Vec<Incoming> {
        let mut r = FrameReader::new(input.as_bytes());
        std::iter::from_fn(|| r.next_incoming()).collect()
    }

    #[test]
    fn reads_messages_back_to_back() {
        let input = frame(r#"{"a":1}"#) + &frame(r#"{"b":"é"}"#);
        assert_eq!(
            all(&input),
            vec![
                Incoming::Message(json!({"a": 1})),
                Incoming::Message(json!({"b": "é"}))
            ]
        );
    }

    #[test]
    fn other_header_fields_and_lf_only_separators_are_accepted() {
        let input = "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".to_string()
            + "content-length: 2\n\n[]";
        assert_eq!(
            all(&input),
            vec![Incoming::Message(json!({})), Incoming::Message(json!([]))]
        );
    }

    #[test]
    fn a_bad_length_is_reported_and_the_next_frame_read() {
        let input = "Content-Length: abc\r\n\r\n".to_string() + &frame("{}");
        let got = all(&input);
        assert!(matches!(&got[0], Incoming::Problem(p) if p.contains("abc")));
        assert_eq!(got[1], Incoming::Message(json!({})));
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn invalid_json_is_reported_and_reading_goes_on() {
        let input = frame("{not json") + &frame("1");
        let got = all(&input);
        assert!(matches!(&got[0], Incoming::Problem(p) if p.contains("not valid JSON")));
        assert_eq!(got[1], Incoming::Message(json!(1)));
    }

    #[test]
    fn a_length_too_long_gives_back_the_next_header() {
        let input = "Content-Length: 30\r\n\r\n{}".to_string() + &frame(r#"{"x":2}"#);
        let got = all(&input);
        assert!(matches!(&got[0], Incoming::Problem(_)), "{got:?}");
        assert_eq!(got[1], Incoming::Message(json!({"x": 2})));
    }

    #[test]
    fn a_length_too_short_resynchronises_at_the_next_header() {
        let input = "Content-Length: 3\r\n\r\n{\"x\":1}".to_string() + &frame("[1]");
        let got = all(&input);
        assert!(matches!(&got[0], Incoming::Problem(_)));
        // The tail `"x":1}` is no header; it is skipped with the next one.
        assert!(got.contains(&Incoming::Message(json!([1]))), "{got:?}");
    }

    #[test]
    fn a_header_without_length_and_a_cut_off_body_are_problems() {
        let got = all("Foo: bar\r\n\r\n");
        assert!(matches!(&got[0], Incoming::Problem(p) if p.contains("without Content-Length")));
        let got = all("Content-Length: 10\r\n\r\n{}");
        assert!(matches!(&got[0], Incoming::Problem(p) if p.contains("ended inside")));
        assert_eq!(got.len(), 1);
        let got = all(&"x".repeat(MAX_HEADER + 10));
        assert!(matches!(&got[0], Incoming::Problem(_)));
    }

    #[test]
    fn a_huge_length_is_refused_without_reading_it() {
        let input = format!("Content-Length: {}\r\n\r\n", MAX_BODY + 1) + &frame("2");
        let got = all(&input);
        assert!(matches!(&got[0], Incoming::Problem(p) if p.contains("larger")));
        assert_eq!(got[1], Incoming::Message(json!(2)));
    }

    #[test]
    fn writes_the_header_with_the_byte_length() {
        let mut out = Vec::new();
        write_message(&mut out, &json!({"s": "ü"})).expect("write");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(text, "Content-Length: 10\r\n\r\n{\"s\":\"ü\"}");
    }
}
