//! Scripted start for CI screenshots and frame-time measurements: the
//! hidden environment variable `HC11LAB_AUTORUN` makes the real binary play
//! a key script when it starts, select something, report when it is done
//! and close itself.
//!
//! `HC11LAB_AUTORUN` is a `;`-separated list of `name=value` items, all
//! optional:
//! - `keys=LIST` — a key script in `run --keys` syntax (`drop,right,drop`,
//!   `wait:5ms`, ...), played at full speed from power-on (the script runner
//!   lets the program boot and settle first; an empty list only boots);
//! - `select=pixel:X,Y` or `select=byte:ADDR` (`$00C8`, `board+136`, a
//!   symbol) — what to select once the script is done, to show the links
//!   (the listing then shows the line that loaded it);
//! - `run=realtime|x10|max` — keep running at that speed after the script
//!   (for frame-time measurement while the emulator runs);
//! - `frames=N` — frames to draw after the script before `done` (default
//!   10); frame times are counted over these frames only;
//! - `idle_ms=N` — after those frames, stop asking for frames for N ms and
//!   count the frames drawn anyway (`idle_frames`): a paused app with no
//!   input should draw none;
//! - `done=PATH` — written once the script finished (or ran 20 s of wall
//!   time without finishing: `stop script_unfinished`) and those frames were
//!   drawn: stop reason, cycles, instructions and frame times (`key value`
//!   lines: `frame_ms_*` is the app's own time per frame, UI and emulation;
//!   `total_ms_*` is eframe's CPU time per frame (UI, tessellation, GL
//!   calls) without the buffer swap, where a software rasterizer does its
//!   work; `whole_ms_*` is the wall-clock time from one frame's start to the
//!   next while frames are drawn back to back: the real frame time);
//! - `quit_after_ms=N` — close the window N ms after `done`;
//! - `size=WxH` — open the window at W x H points (default 1280x800);
//! - `links=on|off` — record the data flow (Debug > Record data flow (links)), for
//!   speed measurements (default: as the settings have it, on);
//! - `data=PATH` — the data folder for lesson progress and exercise copies
//!   (default: none; `lesson`, `check` and `handin` need one for copies);
//! - `lesson=ID` — once the key script is done, open lesson ID in the
//!   course panel; each `answer=TEXT` (in order) is then given to its
//!   current step as if typed into the answer field (`lesson ID step K of
//!   N` in the report, K the step now current, 1-based);
//! - `check=ID` — then start exercise ID (copy its starter into the data
//!   folder, open it) and Check it as the button does; `done` waits for the
//!   result (`check ID score S of M ms T`, T the wall-clock milliseconds
//!   from the click to the result);
//! - `handin=ID` — then Hand in exercise ID (`handin PATH`).
//!
//! The report also gives where the LCD was drawn (`lcd_rect X Y W H` in
//! points, and `pixels_per_point`), for tests that read the screen.
//! - `edit=N` — once the script is done, the editor at the end of line N of
//!   the main file, with the keyboard (for keys sent from outside);
//! - `editor_report=PATH` — written whenever the editor's text, its
//!   assembly or the board keys change: `unsaved 0|1`, `board_keys MASK`
//!   (every board key seen down since the script ended), `problem ...` and
//!   one `line N: $ADDR BYTES` per line of the main file that assembled.
//!
//! Settings from earlier sessions are ignored and not saved in such a run.

use std::path::PathBuf;
use std::time::Duration;

use super::course::CoursePanel;
use super::exercises::CheckState;
use super::links::{LineRole, Selection};
use super::session::{Session, Speed};
use crate::platform::{note, Instant};
use crate::script::Script;

/// The parsed `HC11LAB_AUTORUN` value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Autorun {
    /// The key script (`run --keys` syntax).
    pub keys: String,
    /// What to select when done.
    pub select: Option<String>,
    /// Keep running at this speed after the script.
    pub run: Option<Speed>,
    /// File to write when done.
    pub done: Option<PathBuf>,
    /// Close this long after done.
    pub quit_after: Option<Duration>,
    /// Frames to draw after the script before done.
    pub frames: u32,
    /// The window's inner size in points (`size=1024x600`), for screenshots
    /// of smaller screens.
    pub size: Option<[f32; 2]>,
    /// Frame statistics taken before the idle wait.
    report: String,
    /// Idle time to watch after the measured frames.
    pub idle: Option<Duration>,
    /// Set when the frame statistics should start over (the script ended).
    pub reset_stats: bool,
    /// Record the data flow or not (`links=`).
    pub links: Option<bool>,
    /// The data folder for the course's progress and copies (`data=`).
    pub data: Option<PathBuf>,
    /// The lesson to open once the script is done (`lesson=`).
    pub lesson: Option<String>,
    /// Answers for its current step, in order (`answer=`).
    pub answers: Vec<String>,
    /// The exercise to start and Check (`check=`).
    pub check: Option<String>,
    /// The exercise to Hand in (`handin=`).
    pub hand_in: Option<String>,
    course: CourseState,
    /// Report lines of the course items made before the check's result.
    pending_lines: String,
    /// E-cycles and time when the script ended (the speed is measured
    /// from there to `done`).
    measured_from: Option<(u64, Instant)>,
    /// The editor at the end of this line of the main file once done.
    pub edit: Option<u32>,
    /// Where to write what the editor holds and assembled.
    pub editor_report: Option<PathBuf>,
    /// Board keys seen down since the script ended.
    keys_seen: u8,
    /// What the last editor report was made of (assembly, text, keys,
    /// unsaved).
    reported: Option<(u64, u64, u8, bool)>,
    /// The key script was still running at `play_limit`.
    unfinished: bool,
    /// How long the key script may run ([`PLAY_LIMIT`]).
    play_limit: Duration,
    state: State,
}

/// How far the course items (`lesson`, `check`, `handin`) are.
#[derive(Clone, Debug, Default, PartialEq)]
enum CourseState {
    /// Not started (the key script still runs).
    #[default]
    Waiting,
    /// The check asked for since then.
    Checking(Instant),
    /// Everything done; the report lines.
    Done(String),
}

#[derive(Clone, Debug, Default, PartialEq)]
enum State {
    #[default]
    Start,
    /// The key script runs, since then.
    Playing(Instant),
    Settling(u32),
    /// Not asking for frames since then; frames drawn meanwhile.
    Idle(Instant, u32),
    Done(Instant),
    Closed,
}

/// Frames drawn after the script before `done` is written (so the final
/// picture is on screen), unless `frames=` says otherwise.
const SETTLE_FRAMES: u32 = 10;

/// Longest wall-clock time the key script may take before the run reports
/// as it stands: a program that never waits for input never ends it, and
/// a CI job waiting for `done` would wait for nothing.
const PLAY_LIMIT: Duration = Duration::from_secs(20);

/// Why an `HC11LAB_AUTORUN` value is not understood.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AutorunError {
    /// An item without `=`.
    #[error("HC11LAB_AUTORUN: `{0}` is not name=value")]
    NotPair(String),
    /// A name this version does not know.
    #[error(
        "HC11LAB_AUTORUN: unknown item `{0}` (keys, select, run, frames, idle_ms, done, quit_after_ms, size, links, data, lesson, answer, check, handin, edit, editor_report)"
    )]
    Unknown(String),
    /// A value that does not parse.
    #[error("HC11LAB_AUTORUN: bad value for `{0}`: `{1}`")]
    BadValue(String, String),
}

impl Autorun {
    /// Reads `HC11LAB_AUTORUN` (in a page the address's `?autorun=`);
    /// `None` if unset. A bad value is reported on stderr (the browser's
    /// console) and ignored (the app starts normally).
    pub fn from_env() -> Option<Autorun> {
        let v = crate::platform::setting("HC11LAB_AUTORUN")?;
        match Self::parse(&v) {
            Ok(a) => Some(a),
            Err(e) => {
                note(&e.to_string());
                None
            }
        }
    }

    /// Parses the variable's value.
    pub fn parse(text: &str) -> Result<Autorun, AutorunError> {
        let mut a = Autorun {
            frames: SETTLE_FRAMES,
            play_limit: PLAY_LIMIT,
            ..Autorun::default()
        };
        for item in text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| AutorunError::NotPair(item.into()))?;
            let (k, v) = (k.trim(), v.trim());
            let bad = || AutorunError::BadValue(k.into(), v.into());
            match k {
                "keys" => {
                    Script::parse_keys(v).map_err(|_| bad())?;
                    a.keys = v.into();
                }
                "select" => a.select = Some(v.into()),
                "run" => {
                    a.run = Some(match v {
                        "realtime" => Speed::RealTime,
                        "x10" => Speed::Times10,
                        "max" => Speed::Max,
                        _ => return Err(bad()),
                    })
                }
                "done" => a.done = Some(PathBuf::from(v)),
                "size" => {
                    let (w, h) = v.split_once('x').ok_or_else(bad)?;
                    let (w, h): (f32, f32) = (
                        w.trim().parse().map_err(|_| bad())?,
                        h.trim().parse().map_err(|_| bad())?,
                    );
                    if !(100.0..=10000.0).contains(&w) || !(100.0..=10000.0).contains(&h) {
                        return Err(bad());
                    }
                    a.size = Some([w, h]);
                }
                "frames" => a.frames = v.parse().map_err(|_| bad())?,
                "data" => a.data = Some(PathBuf::from(v)),
                "links" => {
                    a.links = Some(match v {
                        "on" => true,
                        "off" => false,
                        _ => return Err(bad()),
                    })
                }
                "lesson" => a.lesson = Some(v.into()),
                "answer" => a.answers.push(v.into()),
                "check" => a.check = Some(v.into()),
                "handin" => a.hand_in = Some(v.into()),
                "edit" => a.edit = Some(v.parse().map_err(|_| bad())?),
                "editor_report" => a.editor_report = Some(PathBuf::from(v)),
                "idle_ms" => a.idle = Some(Duration::from_millis(v.parse().map_err(|_| bad())?)),
                "quit_after_ms" => {
                    a.quit_after = Some(Duration::from_millis(v.parse().map_err(|_| bad())?))
                }
                _ => return Err(AutorunError::Unknown(k.into())),
            }
        }
        Ok(a)
    }

    /// Parses a `select=` value against the session's program.
    pub fn selection(&self, session: &Session) -> Option<Selection> {
        let s = self.select.as_deref()?;
        if let Some(p) = s.strip_prefix("pixel:") {
            let (x, y) = p.split_once(',')?;
            return Some(Selection::Pixel {
                x: x.trim().parse().ok()?,
                y: y.trim().parse().ok()?,
            });
        }
        let b = s.strip_prefix("byte:")?;
        let (base, off) = match b.split_once('+') {
            Some((base, off)) => (base, off.trim().parse::<u16>().ok()?),
            None => (b, 0),
        };
        Some(Selection::BufferByte(
            session.resolve(base)?.wrapping_add(off),
        ))
    }

    /// True once the script is done (and the settle frames drawn).
    pub fn is_done(&self) -> bool {
        matches!(self.state, State::Done(_) | State::Closed)
    }

    /// Advances the script by one frame.
    pub fn drive(&mut self, session: &mut Session, ctx: &egui::Context, frames: &str) {
        if !matches!(self.state, State::Start | State::Playing(_)) {
            self.keys_seen |= session.keys_down();
            self.report_editor(session);
        }
        match self.state {
            State::Start => {
                if !session.has_machine() {
                    note("hc11lab autorun: nothing loaded, nothing to run");
                    self.finish(session, ctx, frames);
                    return;
                }
                if let Some(on) = self.links {
                    session.set_record_links(on);
                }
                match Script::parse_keys(&self.keys) {
                    Ok(script) => {
                        session.start_script(&script);
                        self.state = State::Playing(Instant::now());
                    }
                    Err(e) => {
                        note(&format!("hc11lab autorun: {e}"));
                        self.state = State::Closed;
                    }
                }
            }
            State::Playing(since) => {
                let unfinished = session.script_active() && since.elapsed() >= self.play_limit;
                if unfinished {
                    note(&format!(
                        "hc11lab autorun: the key script did not finish in {} s (the program never waited for input); reporting as it stands",
                        self.play_limit.as_secs()
                    ));
                    self.unfinished = true;
                }
                if !session.script_active() || unfinished {
                    if let Some(sel) = self.selection(session) {
                        session.select(sel);
                        // Show the line that loaded the selected thing (the
                        // heart of the picture), else any linked line.
                        let lines = session.links().lines.clone();
                        let line = lines
                            .iter()
                            .find(|(_, _, r)| *r == LineRole::Read)
                            .or_else(|| lines.iter().find(|(_, _, r)| *r != LineRole::Selected));
                        if let Some((f, l, _)) = line {
                            session.reveal_line(*f, *l);
                        }
                    }
                    if let Some(speed) = self.run {
                        session.settings.speed = speed;
                        session.run();
                    }
                    if let Some(line) = self.edit {
                        let end = session
                            .edits
                            .buffers
                            .first()
                            .map_or(0, |b| b.line(line).len());
                        session.edits.request.reveal = Some((0, line, end));
                        session.edits.request.editor = true;
                        session.edits.request.focus = true;
                    }
                    self.state = State::Settling(0);
                    self.reset_stats = true;
                    self.measured_from = Some((session.cycles(), Instant::now()));
                }
            }
            // The course items (a check takes seconds) finish first.
            State::Settling(n) if n >= self.frames && !self.course_done() => {}
            State::Settling(n) if n >= self.frames => match self.idle {
                // The frame statistics are taken now, before the idle wait.
                Some(_) => {
                    self.report = frames.to_string();
                    self.state = State::Idle(Instant::now(), 0);
                }
                None => self.finish(session, ctx, frames),
            },
            State::Settling(n) => self.state = State::Settling(n + 1),
            State::Idle(since, n) => {
                let wait = self.idle.unwrap_or_default();
                if since.elapsed() >= wait {
                    // This frame is the timed wake-up below, not an idle one.
                    let report = format!("{}\nidle_frames {n}", self.report);
                    self.finish(session, ctx, &report);
                } else {
                    self.state = State::Idle(since, n + 1);
                    ctx.request_repaint_after(wait.saturating_sub(since.elapsed()));
                    return;
                }
            }
            State::Done(at) => {
                if let Some(q) = self.quit_after {
                    if at.elapsed() >= q {
                        self.state = State::Closed;
                        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                }
            }
            State::Closed => {}
        }
        // Keep frames coming until done, so the script advances; once done,
        // only wake up to close the window.
        match self.state {
            State::Closed => {}
            State::Done(at) => {
                if let Some(q) = self.quit_after {
                    ctx.request_repaint_after(q.saturating_sub(at.elapsed()));
                }
            }
            _ => ctx.request_repaint(),
        }
    }

    /// True once the course items are done (or there are none).
    fn course_done(&self) -> bool {
        let none = self.lesson.is_none() && self.check.is_none() && self.hand_in.is_none();
        none || matches!(self.course, CourseState::Done(_))
    }

    /// Plays the course items once the key script is done: opens the
    /// lesson and answers, starts and checks the exercise, hands it in.
    pub fn drive_course(&mut self, course: &mut CoursePanel, session: &mut Session) {
        if self.course_done() || matches!(self.state, State::Start | State::Playing(_)) {
            return;
        }
        let mut lines = String::new();
        if self.course == CourseState::Waiting {
            if let Some(id) = self.lesson.clone() {
                course.lessons.open(&id);
                for a in &self.answers {
                    course.lessons.submit_answer(a, session);
                }
                lines += &match course.lessons.run() {
                    Some(run) if run.finished() => format!("lesson {id} finished\n"),
                    Some(run) => format!(
                        "lesson {id} step {} of {}\n",
                        run.current() + 1,
                        run.step_count()
                    ),
                    None => format!("lesson {id} not_found\n"),
                };
            }
            if let Some(id) = self.check.clone() {
                course.exercises.select(&id);
                match course.exercises.start(&id, session) {
                    Ok(_) => {
                        course.exercises.check(&id);
                        self.course = CourseState::Checking(Instant::now());
                        self.pending_lines = lines;
                        return;
                    }
                    Err(e) => lines += &format!("check {id} failed {e}\n"),
                }
            }
        }
        if let CourseState::Checking(since) = self.course {
            let id = self.check.clone().unwrap_or_default();
            course.exercises.poll();
            let line = match course.exercises.result(&id) {
                Some(CheckState::Running) | None => return,
                Some(CheckState::Done(r)) => format!(
                    "check {id} score {} of {} ms {}\n",
                    r.score,
                    r.max_score,
                    since.elapsed().as_millis()
                ),
                Some(CheckState::Failed(e)) => format!("check {id} failed {e}\n"),
            };
            lines = std::mem::take(&mut self.pending_lines) + &line;
        }
        if let Some(id) = self.hand_in.clone() {
            course.exercises.select(&id);
            lines += &match course.exercises.hand_in(&id) {
                Ok(p) => format!("handin {}\n", p.display()),
                Err(e) => format!("handin {id} failed {e}\n"),
            };
        }
        self.course = CourseState::Done(lines);
    }

    /// Writes the editor report when something in it changed.
    fn report_editor(&mut self, session: &Session) {
        let Some(path) = &self.editor_report else {
            return;
        };
        let live = session.edits.live();
        let key = (
            live.map_or(0, |l| l.id),
            session.edits.buffers.first().map_or(0, |b| b.generation),
            self.keys_seen,
            session.edits.has_unsaved(),
        );
        if self.reported == Some(key) || session.edits.assembling() {
            return;
        }
        self.reported = Some(key);
        let mut out = format!(
            "unsaved {}\nboard_keys {}\n",
            u8::from(session.edits.has_unsaved()),
            self.keys_seen
        );
        for p in &session.problems {
            let at = p.at.as_ref().map_or(0, |a| a.1);
            let first = p.message.lines().next().unwrap_or("");
            out.push_str(&format!("problem {} {at}: {first}\n", p.severity));
        }
        if let (Some(l), Some(b)) = (live, session.edits.buffers.first()) {
            if let Some(f) = session.edits.live_of_buffer(0) {
                for (i, ll) in b.now_to_live().into_iter().enumerate() {
                    let code =
                        ll.and_then(|ll| l.files[f].code.get(ll as usize - 1).cloned().flatten());
                    if let Some(c) = code {
                        let hex: Vec<String> = c.bytes.iter().map(|x| format!("{x:02X}")).collect();
                        out.push_str(&format!(
                            "line {}: ${:04X} {}\n",
                            i + 1,
                            c.addr,
                            hex.join(" ")
                        ));
                    }
                }
            }
        }
        if let Err(e) = std::fs::write(path, out) {
            eprintln!("hc11lab autorun: cannot write {}: {e}", path.display());
        }
    }

    fn finish(&mut self, session: &Session, ctx: &egui::Context, frames: &str) {
        let stop = if self.unfinished {
            "script_unfinished"
        } else {
            session.stop_reason().unwrap_or("none")
        };
        let course = match &self.course {
            CourseState::Done(lines) => lines.as_str(),
            _ => "",
        };
        let lcd = ctx
            .data(|d| d.get_temp::<egui::Rect>(egui::Id::unique(super::lcd::LCD_RECT)))
            .map(|r| {
                format!(
                    "lcd_rect {} {} {} {}\npixels_per_point {}\n",
                    r.min.x,
                    r.min.y,
                    r.width(),
                    r.height(),
                    ctx.pixels_per_point()
                )
            })
            .unwrap_or_default();
        // E-cycles run per second of wall time since the script ended: 2
        // at real time, more at `max` (in millions, the board's MHz).
        let speed = self
            .measured_from
            .map(|(cycles, since)| {
                let secs = since.elapsed().as_secs_f64().max(1e-9);
                let run = session.cycles().saturating_sub(cycles) as f64;
                format!("speed_mhz {:.3}\n", run / secs / 1e6)
            })
            .unwrap_or_default();
        let report = format!(
            "stop {stop}\ncycles {}\ninstructions {}\n{frames}\n{speed}{course}{lcd}",
            session.cycles(),
            session.instructions()
        );
        note(&format!("hc11lab autorun: done\n{report}"));
        if let Some(p) = &self.done {
            if let Err(e) = crate::platform::fs::write(p, report.as_bytes()) {
                note(&format!(
                    "hc11lab autorun: cannot write {}: {e}",
                    p.display()
                ));
            }
        }
        self.state = State::Done(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key script the program never finishes (it never waits for input)
    /// still ends in `done` after the play limit, saying so.
    #[test]
    fn a_script_that_never_finishes_is_reported_after_the_play_limit() {
        let dir = std::env::temp_dir().join(format!("hc11lab-autorun-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let done = dir.join("done");
        let mut a =
            Autorun::parse(&format!("keys=drop;frames=1;done={}", done.display())).expect("parses");
        assert_eq!(a.play_limit, PLAY_LIMIT);
        a.play_limit = Duration::ZERO;
        let mut s = Session::new(crate::ui::settings::Settings::default());
        s.open(crate::ui::AppInput::Bundled);
        let ctx = egui::Context::default();
        // The session never advances here: the script stays active.
        for _ in 0..10 {
            a.drive(&mut s, &ctx, "frames none");
        }
        assert!(a.is_done());
        let text = std::fs::read_to_string(&done).expect("done written");
        assert!(text.starts_with("stop script_unfinished"), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn parses_all_items_and_rejects_unknown_ones() {
        let a = Autorun::parse(
            "keys=drop,right,drop; select=pixel:63,43; run=realtime; done=/tmp/d; quit_after_ms=1500",
        )
        .unwrap();
        assert_eq!(a.keys, "drop,right,drop");
        assert_eq!(a.select.as_deref(), Some("pixel:63,43"));
        assert_eq!(a.run, Some(Speed::RealTime));
        assert_eq!(a.done, Some(PathBuf::from("/tmp/d")));
        assert_eq!(a.quit_after, Some(Duration::from_millis(1500)));
        assert_eq!(
            Autorun::parse("colour=red"),
            Err(AutorunError::Unknown("colour".into()))
        );
        assert!(matches!(
            Autorun::parse("keys=jump"),
            Err(AutorunError::BadValue(..))
        ));
        assert_eq!(Autorun::parse("").map(|a| a.frames), Ok(SETTLE_FRAMES));
        assert_eq!(Autorun::parse("frames=300").map(|a| a.frames), Ok(300));
        assert_eq!(
            Autorun::parse("idle_ms=800").map(|a| a.idle),
            Ok(Some(Duration::from_millis(800)))
        );
    }
}
