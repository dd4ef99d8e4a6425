//! The Debug Adapter Protocol's message shapes, written down from its
//! specification (the JSON schema that defines the protocol): for every
//! response and event hc11lab's server sends, which fields exist, which
//! are required, their types and the values an enumeration allows. The
//! checker is stricter than the protocol in two ways, to catch a
//! misspelt field: an object field the schema does not list is an error,
//! and open enumerations (`_enum` in the specification: suggested values)
//! are checked against the suggestions. Integers must fit 32 bits signed,
//! as the specification says clients may assume.

use serde_json::Value;

/// A JSON type.
#[derive(Clone, Copy)]
pub enum T {
    Str,
    Int,
    Bool,
    Any,
    /// One of these strings.
    Enum(&'static [&'static str]),
    Obj(&'static [F]),
    Arr(&'static T),
    /// A string or null (`dataId`).
    StrOrNull,
}

/// A field: name, type, required.
#[derive(Clone, Copy)]
pub struct F(pub &'static str, pub T, pub bool);

const fn req(name: &'static str, t: T) -> F {
    F(name, t, true)
}

const fn opt(name: &'static str, t: T) -> F {
    F(name, t, false)
}

pub const SOURCE: T = T::Obj(&[
    opt("name", T::Str),
    opt("path", T::Str),
    opt("sourceReference", T::Int),
    opt(
        "presentationHint",
        T::Enum(&["normal", "emphasize", "deemphasize"]),
    ),
    opt("origin", T::Str),
    opt("sources", T::Arr(&T::Any)),
    opt("adapterData", T::Any),
    opt("checksums", T::Arr(&T::Any)),
]);

pub const BREAKPOINT: T = T::Obj(&[
    opt("id", T::Int),
    req("verified", T::Bool),
    opt("message", T::Str),
    opt("source", SOURCE),
    opt("line", T::Int),
    opt("column", T::Int),
    opt("endLine", T::Int),
    opt("endColumn", T::Int),
    opt("instructionReference", T::Str),
    opt("offset", T::Int),
    opt("reason", T::Enum(&["pending", "failed"])),
]);

const FILTER: T = T::Obj(&[
    req("filter", T::Str),
    req("label", T::Str),
    opt("description", T::Str),
    opt("default", T::Bool),
    opt("supportsCondition", T::Bool),
    opt("conditionDescription", T::Str),
]);

pub const CAPABILITIES: T = T::Obj(&[
    opt("supportsConfigurationDoneRequest", T::Bool),
    opt("supportsFunctionBreakpoints", T::Bool),
    opt("supportsConditionalBreakpoints", T::Bool),
    opt("supportsHitConditionalBreakpoints", T::Bool),
    opt("supportsEvaluateForHovers", T::Bool),
    opt("exceptionBreakpointFilters", T::Arr(&FILTER)),
    opt("supportsStepBack", T::Bool),
    opt("supportsSetVariable", T::Bool),
    opt("supportsRestartFrame", T::Bool),
    opt("supportsGotoTargetsRequest", T::Bool),
    opt("supportsStepInTargetsRequest", T::Bool),
    opt("supportsCompletionsRequest", T::Bool),
    opt("completionTriggerCharacters", T::Arr(&T::Str)),
    opt("supportsModulesRequest", T::Bool),
    opt("additionalModuleColumns", T::Arr(&T::Any)),
    opt(
        "supportedChecksumAlgorithms",
        T::Arr(&T::Enum(&["MD5", "SHA1", "SHA256", "timestamp"])),
    ),
    opt("supportsRestartRequest", T::Bool),
    opt("supportsExceptionOptions", T::Bool),
    opt("supportsValueFormattingOptions", T::Bool),
    opt("supportsExceptionInfoRequest", T::Bool),
    opt("supportTerminateDebuggee", T::Bool),
    opt("supportSuspendDebuggee", T::Bool),
    opt("supportsDelayedStackTraceLoading", T::Bool),
    opt("supportsLoadedSourcesRequest", T::Bool),
    opt("supportsLogPoints", T::Bool),
    opt("supportsTerminateThreadsRequest", T::Bool),
    opt("supportsSetExpression", T::Bool),
    opt("supportsTerminateRequest", T::Bool),
    opt("supportsDataBreakpoints", T::Bool),
    opt("supportsReadMemoryRequest", T::Bool),
    opt("supportsWriteMemoryRequest", T::Bool),
    opt("supportsDisassembleRequest", T::Bool),
    opt("supportsCancelRequest", T::Bool),
    opt("supportsBreakpointLocationsRequest", T::Bool),
    opt("supportsClipboardContext", T::Bool),
    opt("supportsSteppingGranularity", T::Bool),
    opt("supportsInstructionBreakpoints", T::Bool),
    opt("supportsExceptionFilterOptions", T::Bool),
    opt("supportsSingleThreadExecutionRequests", T::Bool),
    opt("supportsDataBreakpointBytes", T::Bool),
    opt("breakpointModes", T::Arr(&T::Any)),
    opt("supportsANSIStyling", T::Bool),
]);

const THREAD: T = T::Obj(&[req("id", T::Int), req("name", T::Str)]);

const STACK_FRAME: T = T::Obj(&[
    req("id", T::Int),
    req("name", T::Str),
    opt("source", SOURCE),
    req("line", T::Int),
    req("column", T::Int),
    opt("endLine", T::Int),
    opt("endColumn", T::Int),
    opt("canRestart", T::Bool),
    opt("instructionPointerReference", T::Str),
    opt("moduleId", T::Any),
    opt("presentationHint", T::Enum(&["normal", "label", "subtle"])),
]);

const SCOPE: T = T::Obj(&[
    req("name", T::Str),
    opt(
        "presentationHint",
        T::Enum(&["arguments", "locals", "registers", "returnValue"]),
    ),
    req("variablesReference", T::Int),
    opt("namedVariables", T::Int),
    opt("indexedVariables", T::Int),
    req("expensive", T::Bool),
    opt("source", SOURCE),
    opt("line", T::Int),
    opt("column", T::Int),
    opt("endLine", T::Int),
    opt("endColumn", T::Int),
]);

const PRESENTATION_HINT: T = T::Obj(&[
    opt("kind", T::Str),
    opt("attributes", T::Arr(&T::Str)),
    opt("visibility", T::Str),
    opt("lazy", T::Bool),
]);

const VARIABLE: T = T::Obj(&[
    req("name", T::Str),
    req("value", T::Str),
    opt("type", T::Str),
    opt("presentationHint", PRESENTATION_HINT),
    opt("evaluateName", T::Str),
    req("variablesReference", T::Int),
    opt("namedVariables", T::Int),
    opt("indexedVariables", T::Int),
    opt("memoryReference", T::Str),
    opt("declarationLocationReference", T::Int),
    opt("valueLocationReference", T::Int),
]);

const INSTRUCTION: T = T::Obj(&[
    req("address", T::Str),
    opt("instructionBytes", T::Str),
    req("instruction", T::Str),
    opt("symbol", T::Str),
    opt("location", SOURCE),
    opt("line", T::Int),
    opt("column", T::Int),
    opt("endLine", T::Int),
    opt("endColumn", T::Int),
    opt("presentationHint", T::Enum(&["normal", "invalid"])),
]);

const MESSAGE: T = T::Obj(&[
    req("id", T::Int),
    req("format", T::Str),
    opt("variables", T::Any),
    opt("sendTelemetry", T::Bool),
    opt("showUser", T::Bool),
    opt("url", T::Str),
    opt("urlLabel", T::Str),
]);

const ACCESS_TYPE: T = T::Enum(&["read", "write", "readWrite"]);

/// The body of a successful response to each command that has one.
const RESPONSES: &[(&str, T, bool)] = &[
    ("initialize", CAPABILITIES, false),
    ("setBreakpoints", BREAKPOINTS, true),
    ("setFunctionBreakpoints", BREAKPOINTS, true),
    ("setInstructionBreakpoints", BREAKPOINTS, true),
    ("setDataBreakpoints", BREAKPOINTS, true),
    (
        "setExceptionBreakpoints",
        T::Obj(&[opt("breakpoints", T::Arr(&BREAKPOINT))]),
        false,
    ),
    (
        "dataBreakpointInfo",
        T::Obj(&[
            req("dataId", T::StrOrNull),
            req("description", T::Str),
            opt("accessTypes", T::Arr(&ACCESS_TYPE)),
            opt("canPersist", T::Bool),
        ]),
        true,
    ),
    ("threads", T::Obj(&[req("threads", T::Arr(&THREAD))]), true),
    (
        "stackTrace",
        T::Obj(&[
            req("stackFrames", T::Arr(&STACK_FRAME)),
            opt("totalFrames", T::Int),
        ]),
        true,
    ),
    ("scopes", T::Obj(&[req("scopes", T::Arr(&SCOPE))]), true),
    (
        "variables",
        T::Obj(&[req("variables", T::Arr(&VARIABLE))]),
        true,
    ),
    (
        "setVariable",
        T::Obj(&[
            req("value", T::Str),
            opt("type", T::Str),
            opt("variablesReference", T::Int),
            opt("namedVariables", T::Int),
            opt("indexedVariables", T::Int),
            opt("memoryReference", T::Str),
            opt("valueLocationReference", T::Int),
        ]),
        true,
    ),
    (
        "evaluate",
        T::Obj(&[
            req("result", T::Str),
            opt("type", T::Str),
            opt("presentationHint", PRESENTATION_HINT),
            req("variablesReference", T::Int),
            opt("namedVariables", T::Int),
            opt("indexedVariables", T::Int),
            opt("memoryReference", T::Str),
            opt("valueLocationReference", T::Int),
        ]),
        true,
    ),
    (
        "readMemory",
        T::Obj(&[
            req("address", T::Str),
            opt("unreadableBytes", T::Int),
            opt("data", T::Str),
        ]),
        false,
    ),
    (
        "writeMemory",
        T::Obj(&[opt("offset", T::Int), opt("bytesWritten", T::Int)]),
        false,
    ),
    (
        "disassemble",
        T::Obj(&[req("instructions", T::Arr(&INSTRUCTION))]),
        false,
    ),
    (
        "continue",
        T::Obj(&[opt("allThreadsContinued", T::Bool)]),
        true,
    ),
    (
        "source",
        T::Obj(&[req("content", T::Str), opt("mimeType", T::Str)]),
        true,
    ),
    // Not the protocol's: hc11lab's own request, checked against what
    // docs/editors.md promises.
    (
        "hc11lab/lcd",
        T::Obj(&[
            req("hasLcd", T::Bool),
            req("hasKeys", T::Bool),
            req("width", T::Int),
            req("height", T::Int),
            req("pixels", T::Str),
            req("visible", T::Bool),
            req("backlight", T::Bool),
            req("keys", T::Int),
            req("cycles", T::Any),
            req("running", T::Bool),
        ]),
        true,
    ),
];

const BREAKPOINTS: T = T::Obj(&[req("breakpoints", T::Arr(&BREAKPOINT))]);

/// The body of a successful response to `command` and whether it must be
/// there; `None` for responses the protocol gives no body.
pub fn response_body(command: &str) -> Option<(T, bool)> {
    RESPONSES
        .iter()
        .find(|(c, _, _)| *c == command)
        .map(|(_, t, required)| (*t, *required))
}

/// The body of each event that has one.
const EVENTS: &[(&str, T, bool)] = &[
    (
        "stopped",
        T::Obj(&[
            req(
                "reason",
                T::Enum(&[
                    "step",
                    "breakpoint",
                    "exception",
                    "pause",
                    "entry",
                    "goto",
                    "function breakpoint",
                    "data breakpoint",
                    "instruction breakpoint",
                ]),
            ),
            opt("description", T::Str),
            opt("threadId", T::Int),
            opt("preserveFocusHint", T::Bool),
            opt("text", T::Str),
            opt("allThreadsStopped", T::Bool),
            opt("hitBreakpointIds", T::Arr(&T::Int)),
        ]),
        true,
    ),
    (
        "output",
        T::Obj(&[
            opt(
                "category",
                T::Enum(&["console", "important", "stdout", "stderr", "telemetry"]),
            ),
            req("output", T::Str),
            opt("group", T::Enum(&["start", "startCollapsed", "end"])),
            opt("variablesReference", T::Int),
            opt("source", SOURCE),
            opt("line", T::Int),
            opt("column", T::Int),
            opt("data", T::Any),
            opt("locationReference", T::Int),
        ]),
        true,
    ),
    (
        "memory",
        T::Obj(&[
            req("memoryReference", T::Str),
            req("offset", T::Int),
            req("count", T::Int),
        ]),
        true,
    ),
    ("terminated", T::Obj(&[opt("restart", T::Any)]), false),
    ("exited", T::Obj(&[req("exitCode", T::Int)]), true),
    (
        "breakpoint",
        T::Obj(&[
            req("reason", T::Enum(&["changed", "new", "removed"])),
            req("breakpoint", BREAKPOINT),
        ]),
        true,
    ),
    (
        "invalidated",
        T::Obj(&[
            opt(
                "areas",
                T::Arr(&T::Enum(&["all", "stacks", "threads", "variables"])),
            ),
            opt("threadId", T::Int),
            opt("stackFrameId", T::Int),
        ]),
        true,
    ),
];

/// The body of an event and whether it must be there, `None` for events
/// with none (`initialized`).
pub fn event_body(event: &str) -> Result<Option<(T, bool)>, String> {
    if event == "initialized" {
        return Ok(None);
    }
    EVENTS
        .iter()
        .find(|(e, _, _)| *e == event)
        .map(|(_, t, required)| Some((*t, *required)))
        .ok_or_else(|| format!("an event the protocol does not define: `{event}`"))
}

/// Checks `v` against `t`, appending what is wrong to `errors`.
pub fn check(v: &Value, t: &T, path: &str, errors: &mut Vec<String>) {
    let mut bad = |what: &str| errors.push(format!("{path}: expected {what}, got {v}"));
    match t {
        T::Any => {}
        T::Str => {
            if !v.is_string() {
                bad("a string")
            }
        }
        T::StrOrNull => {
            if !(v.is_string() || v.is_null()) {
                bad("a string or null")
            }
        }
        T::Bool => {
            if !v.is_boolean() {
                bad("a boolean")
            }
        }
        T::Int => match v.as_i64() {
            Some(n) if i32::try_from(n).is_ok() => {}
            _ => bad("an integer that fits 32 bits"),
        },
        T::Enum(allowed) => match v.as_str() {
            Some(s) if allowed.contains(&s) => {}
            _ => bad(&format!("one of {allowed:?}")),
        },
        T::Arr(item) => match v.as_array() {
            Some(items) => {
                for (i, x) in items.iter().enumerate() {
                    check(x, item, &format!("{path}[{i}]"), errors);
                }
            }
            None => bad("an array"),
        },
        T::Obj(fields) => {
            let Some(obj) = v.as_object() else {
                bad("an object");
                return;
            };
            for F(name, ty, required) in fields.iter() {
                match obj.get(*name) {
                    Some(x) => check(x, ty, &format!("{path}.{name}"), errors),
                    None if *required => errors.push(format!("{path}: `{name}` is required")),
                    None => {}
                }
            }
            for key in obj.keys() {
                if !fields.iter().any(|F(n, _, _)| n == key) {
                    errors.push(format!("{path}: `{key}` is no field of this type"));
                }
            }
        }
    }
}

/// Everything wrong with one message the server sent.
pub fn check_message(m: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let base: &[F] = &[
        req("seq", T::Int),
        req("type", T::Enum(&["response", "event"])),
    ];
    for F(name, ty, _) in base {
        match m.get(*name) {
            Some(x) => check(x, ty, name, &mut errors),
            None => errors.push(format!("`{name}` is required")),
        }
    }
    match m.get("type").and_then(Value::as_str) {
        Some("response") => {
            const RESPONSE: T = T::Obj(&[
                req("seq", T::Int),
                req("type", T::Enum(&["response"])),
                req("request_seq", T::Int),
                req("success", T::Bool),
                req("command", T::Str),
                opt("message", T::Str),
                opt("body", T::Any),
            ]);
            check(m, &RESPONSE, "response", &mut errors);
            let command = m.get("command").and_then(Value::as_str).unwrap_or("");
            let body = m.get("body");
            if m.get("success") == Some(&Value::Bool(false)) {
                const ERROR: T = T::Obj(&[opt("error", MESSAGE)]);
                match body {
                    Some(b) => check(b, &ERROR, "body", &mut errors),
                    None => errors.push("an error response needs a body".into()),
                }
            } else if let Some((t, required)) = response_body(command) {
                match body {
                    Some(b) => check(b, &t, &format!("{command}.body"), &mut errors),
                    None if required => {
                        errors.push(format!("{command}: the response needs a body"))
                    }
                    None => {}
                }
            }
        }
        Some("event") => {
            const EVENT: T = T::Obj(&[
                req("seq", T::Int),
                req("type", T::Enum(&["event"])),
                req("event", T::Str),
                opt("body", T::Any),
            ]);
            check(m, &EVENT, "event", &mut errors);
            let name = m.get("event").and_then(Value::as_str).unwrap_or("");
            match event_body(name) {
                Ok(Some((t, required))) => match m.get("body") {
                    Some(b) => check(b, &t, &format!("{name}.body"), &mut errors),
                    None if required => errors.push(format!("{name}: the event needs a body")),
                    None => {}
                },
                Ok(None) => {}
                Err(e) => errors.push(e),
            }
        }
        _ => {}
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_checker_finds_what_is_wrong() {
        let good = json!({"seq": 1, "type": "event", "event": "exited", "body": {"exitCode": 0}});
        assert!(check_message(&good).is_empty());
        let missing = json!({"seq": 1, "type": "event", "event": "exited", "body": {}});
        assert!(!check_message(&missing).is_empty());
        let typo = json!({"seq": 1, "type": "event", "event": "stopped",
            "body": {"reason": "step", "threadID": 1}});
        assert!(!check_message(&typo).is_empty());
        let bad_enum =
            json!({"seq": 1, "type": "event", "event": "stopped", "body": {"reason": "halt"}});
        assert!(!check_message(&bad_enum).is_empty());
        let big = json!({"seq": 1, "type": "response", "request_seq": 1, "success": true,
            "command": "threads", "body": {"threads": [{"id": 5_000_000_000i64, "name": "x"}]}});
        assert!(!check_message(&big).is_empty());
        let no_body = json!({"seq": 2, "type": "response", "request_seq": 1, "success": true,
            "command": "stackTrace"});
        assert!(!check_message(&no_body).is_empty());
    }
}
