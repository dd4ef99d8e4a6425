//! ASM11's macro language beyond `~1~`..`~9~`, as public ASM11 sources use
//! it (docs/dialects.md, section asm11): the call's label `~label~`, the
//! macro's name `~0~`, all of the call's operands `~@~`, a part of a
//! parameter `~N.from.length~`, the length of a parameter `:N`, a value
//! computed while expanding `{expr}`, and the body directives `mreq`,
//! `mstr`, `mdef`, `mset`, `mexit` and `merror` that check and change the
//! parameters as the expansion goes.

/// One use of a macro, as its body lines see it.
pub(super) struct Call {
    /// The macro's name as the definition wrote it (`~0~`).
    pub name: String,
    /// The label of the line that used the macro (`~label~`).
    pub label: String,
    /// The use's operand field as written (`~@~`).
    pub operands: String,
    /// The parameters, 1 to 9; `mstr`, `mdef` and `mset` change them.
    pub args: Vec<String>,
}

impl Call {
    fn arg(&self, n: usize) -> &str {
        n.checked_sub(1)
            .and_then(|i| self.args.get(i))
            .map_or("", String::as_str)
    }

    fn set_arg(&mut self, n: usize, value: String) {
        if n == 0 {
            return;
        }
        if self.args.len() < n {
            self.args.resize(n, String::new());
        }
        self.args[n - 1] = value;
    }
}

/// What a body line asks of the expansion instead of being assembled.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Control {
    /// `mreq N[,N]:text`: the parameters must be given; the text says what
    /// they are.
    Require(Vec<usize>, String),
    /// `mstr N[,N]`: each parameter becomes a quoted string.
    Quote(Vec<usize>),
    /// `mdef N,text`: the parameter, if not given, becomes the text.
    Default(usize, String),
    /// `mset N[,text]`: the parameter becomes the text (empty without).
    Set(usize, String),
    /// `mexit`: the expansion ends here.
    Exit,
    /// `merror text`: an error with the text.
    Error(String),
}

/// The body directive on `line` (after substitution), if it is one.
pub(super) fn control(line: &str) -> Option<Control> {
    // A label in column 1 would make the first word no directive.
    if !line.starts_with([' ', '\t']) {
        return None;
    }
    let code = line.split(';').next().unwrap_or("");
    let mut words = code.trim_start().splitn(2, [' ', '\t']);
    let word = words.next()?.to_ascii_lowercase();
    let rest = words.next().unwrap_or("").trim();
    let numbers = |text: &str| -> Vec<usize> {
        text.split(',')
            .filter_map(|n| n.trim().parse::<usize>().ok())
            .filter(|n| (1..=9).contains(n))
            .collect()
    };
    match word.as_str() {
        "mreq" => {
            let (ns, what) = rest.split_once(':').unwrap_or((rest, ""));
            Some(Control::Require(numbers(ns), what.trim().to_string()))
        }
        "mstr" => Some(Control::Quote(numbers(rest))),
        "mdef" | "mset" => {
            let (n, text) = rest.split_once(',').unwrap_or((rest, ""));
            let n = n
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=9).contains(n))?;
            // `\@` stands for a quote the operand field would otherwise end at.
            let text = text.replace("\\@", "'");
            Some(if word == "mdef" {
                Control::Default(n, text)
            } else {
                Control::Set(n, text)
            })
        }
        "mexit" => Some(Control::Exit),
        "merror" => Some(Control::Error(rest.to_string())),
        _ => None,
    }
}

/// Applies `control` to `call`; an error message if a required parameter
/// is missing or the body says `merror`.
pub(super) fn apply(control: Control, call: &mut Call) -> Result<(), String> {
    match control {
        Control::Require(ns, what) => {
            for n in ns {
                if call.arg(n).is_empty() {
                    let name = &call.name;
                    return Err(if what.is_empty() {
                        format!("macro `{name}` needs its parameter {n}")
                    } else {
                        format!("macro `{name}` needs its parameter {n} ({what})")
                    });
                }
            }
        }
        Control::Quote(ns) => {
            for n in ns {
                let a = call.arg(n).to_string();
                let quoted = a.len() >= 2
                    && ((a.starts_with('\'') && a.ends_with('\''))
                        || (a.starts_with('"') && a.ends_with('"')));
                if !quoted && !a.is_empty() {
                    call.set_arg(n, format!("'{a}'"));
                }
            }
        }
        Control::Default(n, text) => {
            if call.arg(n).is_empty() {
                call.set_arg(n, text);
            }
        }
        Control::Set(n, text) => call.set_arg(n, text),
        Control::Exit => {}
        Control::Error(text) => return Err(text),
    }
    Ok(())
}

/// A body line with the parameters put in: first `:N` (the length of
/// parameter N), then each `{expr}` (its value, computed by `eval`, in
/// decimal), then the `~...~` forms. What is not one of these stays as
/// written (`~` is also the complement operator). `\N` is parameter N
/// too, unless more digits follow: `~1~\1000` is a remainder. `Err` names
/// an `{expr}` that has no value here.
pub(super) fn substitute(
    line: &str,
    call: &Call,
    eval: &mut dyn FnMut(&str) -> Option<i64>,
) -> Result<String, String> {
    let lengths = put_lengths(line, call);
    let computed = put_computed(&lengths, call, eval)?;
    Ok(put_parameters(&computed, call))
}

fn put_lengths(line: &str, call: &Call) -> String {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut copied = 0;
    for i in 0..b.len() {
        let is_len = b[i] == b':'
            && b.get(i + 1).is_some_and(|d| (b'1'..=b'9').contains(d))
            && !b
                .get(i + 2)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b':' || b[i - 1] == b'_'));
        if is_len && i >= copied {
            out.push_str(&line[copied..i]);
            let n = usize::from(b[i + 1] - b'0');
            out.push_str(&call.arg(n).chars().count().to_string());
            copied = i + 2;
        }
    }
    out.push_str(&line[copied..]);
    out
}

/// Each `{expr}` with its value; the parameters inside the braces are put
/// in first (`{~3~-~2~+1}`).
fn put_computed(
    line: &str,
    call: &Call,
    eval: &mut dyn FnMut(&str) -> Option<i64>,
) -> Result<String, String> {
    if !line.contains('{') {
        return Ok(line.to_string());
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open + 1..].find('}') else {
            break;
        };
        let expr = put_parameters(&rest[open + 1..open + 1 + len], call);
        out.push_str(&rest[..open]);
        match eval(&expr) {
            Some(v) => out.push_str(&v.to_string()),
            None => return Err(format!("`{expr}` in braces has no value here")),
        }
        rest = &rest[open + 1 + len + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn put_parameters(line: &str, call: &Call) -> String {
    if !line.contains('~') && !line.contains('\\') {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len() + 16);
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        if let Some(after) = rest.strip_prefix('~') {
            if let Some(end) = after.find('~') {
                if let Some(text) = parameter(&after[..end], call) {
                    out.push_str(&text);
                    i += end + 2;
                    continue;
                }
            }
        } else if let Some(d) = rest
            .strip_prefix('\\')
            .filter(|r| !r.as_bytes().get(1).is_some_and(u8::is_ascii_alphanumeric))
            .and_then(|r| r.bytes().next())
            .filter(|d| (b'1'..=b'9').contains(d))
        {
            out.push_str(call.arg(usize::from(d - b'0')));
            i += 2;
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// What `~inner~` stands for, if it is a form this module knows.
fn parameter(inner: &str, call: &Call) -> Option<String> {
    match inner.to_ascii_lowercase().as_str() {
        "label" => return Some(call.label.clone()),
        "0" => return Some(call.name.clone()),
        "@" => return Some(call.operands.clone()),
        _ => {}
    }
    let mut parts = inner.split('.');
    let n: usize = parts.next()?.parse().ok().filter(|n| (1..=9).contains(n))?;
    let text: Vec<char> = call.arg(n).chars().collect();
    let Some(from) = parts.next() else {
        return Some(call.arg(n).to_string());
    };
    // `~N.from.length~`: characters counted from 1; without a length, to
    // the end.
    let from: usize = from.parse().ok().filter(|&f| f >= 1)?;
    let length = match parts.next() {
        Some(l) => l.parse::<usize>().ok()?,
        None => text.len().saturating_sub(from - 1),
    };
    if parts.next().is_some() {
        return None;
    }
    Some(text.iter().skip(from - 1).take(length).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(args: &[&str]) -> Call {
        Call {
            name: "cmd".into(),
            label: "Here".into(),
            operands: args.join(","),
            args: args.iter().map(|a| a.to_string()).collect(),
        }
    }

    fn none(_: &str) -> Option<i64> {
        None
    }

    #[test]
    fn parameters_parts_and_lengths() {
        let c = call(&["'ASM'", "X"]);
        let mut eval = |e: &str| {
            e.split_once('-')
                .map(|(a, b)| a.parse::<i64>().unwrap_or(0) - b.parse::<i64>().unwrap_or(0))
        };
        assert_eq!(
            substitute(" fcb :1-2,~1.2.{:1-2}~,~2~,~0~,~label~,~@~", &c, &mut eval).as_deref(),
            Ok(" fcb 5-2,ASM,X,cmd,Here,'ASM',X")
        );
        assert_eq!(
            substitute(" lsra:4 ~3~ ~2~\\1000 \\2 #~$0F", &c, &mut none).as_deref(),
            Ok(" lsra:4  X\\1000 X #~$0F")
        );
        assert!(substitute(" fcb {x}", &c, &mut none).is_err());
    }

    #[test]
    fn body_directives_change_the_parameters() {
        let mut c = call(&["ASM"]);
        assert_eq!(
            control(" mreq 1:Name"),
            Some(Control::Require(vec![1], "Name".into()))
        );
        assert!(apply(Control::Require(vec![2], "Address".into()), &mut c).is_err());
        apply(control(" mstr 1").expect("mstr"), &mut c).expect("quotes");
        assert_eq!(c.args[0], "'ASM'");
        apply(control(" mdef 2,ASM").expect("mdef"), &mut c).expect("default");
        apply(control(" mdef 2,OTHER").expect("mdef"), &mut c).expect("kept");
        assert_eq!(c.args[1], "ASM");
        apply(control(" mset 3,\\@AS\\@,").expect("mset"), &mut c).expect("set");
        assert_eq!(c.args[2], "'AS',");
        assert_eq!(control("Label mexit"), None);
        assert_eq!(control(" mexit"), Some(Control::Exit));
    }
}
