//! The HTML reports: `report.html` (overview, then per student every check
//! with its feedback and, for failed LCD checks, the submission's picture
//! beside the expected one as embedded PNGs) and `similarity.html`.

use super::folder_names;
use crate::grade::png::{diff_png, frame_png};
use crate::grade::result::{fmt_points, BatchReport, CheckResult, SubmissionStatus};
use base64::Engine as _;
use std::fmt::Write as _;

/// Escapes text for HTML content and attributes.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:78em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .5em;vertical-align:top;text-align:left}\
th{background:#f2f2f2}.pass{background:#e6f4e6}.fail{background:#fbe7e7}.part{background:#fff4d6}\
pre{white-space:pre-wrap;margin:0;font-size:.9em}.vis{font-size:.8em;color:#666}\
img.lcd{image-rendering:pixelated;width:384px;height:192px;border:1px solid #999}\
figure{display:inline-block;margin:.3em 1em .3em 0}figcaption{font-size:.85em;color:#444}\
.note{color:#555}.bad{color:#a00;font-weight:bold}\
.side{display:grid;grid-template-columns:1fr 1fr;gap:1em}.side pre{background:#f7f7f7;padding:.4em;border:1px solid #ddd}";

/// Pairs shown with their code in `similarity.html` (the CSV has all).
const MAX_PAIRS_SHOWN: usize = 200;

fn page_start(out: &mut String, title: &str) {
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>",
        esc(title)
    );
}

fn png_img(bytes: &[u8], alt: &str) -> String {
    format!(
        "<img class=\"lcd\" alt=\"{}\" src=\"data:image/png;base64,{}\">",
        esc(alt),
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

fn class_of(c: &CheckResult) -> &'static str {
    if c.passed {
        "pass"
    } else if c.score > 0.0 {
        "part"
    } else {
        "fail"
    }
}

fn check_row(out: &mut String, c: &CheckResult) {
    let _ = write!(
        out,
        "<tr class=\"{}\"><td>{}<div class=\"vis\">{}</div></td><td>{} / {}</td><td><pre>{}</pre>",
        class_of(c),
        esc(&c.name),
        c.visibility.as_str(),
        fmt_points(c.score),
        fmt_points(c.max_score),
        esc(&c.output)
    );
    if let Some(ev) = &c.lcd {
        out.push_str("<div>");
        let pics = [
            (frame_png(&ev.actual), "submission"),
            (frame_png(&ev.expected), "expected"),
            (
                diff_png(&ev.actual, &ev.expected, ev.region),
                "difference (red: missing, blue: extra)",
            ),
        ];
        for (png, caption) in pics {
            let _ = write!(
                out,
                "<figure>{}<figcaption>{}</figcaption></figure>",
                png_img(&png, caption),
                esc(caption)
            );
        }
        out.push_str("</div>");
    }
    out.push_str("</td></tr>\n");
}

/// `report.html` for the teaching assistant: every check, hidden ones included.
pub fn report_html(report: &BatchReport) -> String {
    let mut out = String::new();
    page_start(&mut out, &format!("Grades: {}", report.title));
    let n = report.submissions.len();
    let mean = if n == 0 {
        0.0
    } else {
        report.submissions.iter().map(|s| s.score).sum::<f64>() / n as f64
    };
    let _ = write!(
        out,
        "<h1>{}</h1>\n<p>{} submission(s), {} points possible, mean {}. \
         <a href=\"similarity.html\">Similarity report</a>: {} suspicious pair(s).</p>\n",
        esc(&report.title),
        n,
        fmt_points(report.max_score),
        fmt_points(mean),
        report.similarity.pairs.len()
    );
    out.push_str("<table>\n<tr><th>submission</th><th>score</th>");
    for name in &report.check_names {
        let _ = write!(out, "<th>{}</th>", esc(name));
    }
    out.push_str("</tr>\n");
    // Anchors are the submissions' folders: unique, where names may not be.
    let folders = folder_names(&report.submissions);
    for (s, folder) in report.submissions.iter().zip(&folders) {
        let _ = write!(
            out,
            "<tr><td><a href=\"#s-{}\">{}</a></td><td>{} / {}</td>",
            esc(folder),
            esc(&s.submission),
            fmt_points(s.score),
            fmt_points(s.max_score)
        );
        for name in &report.check_names {
            match s.checks.iter().find(|c| &c.name == name) {
                Some(c) => {
                    let _ = write!(
                        out,
                        "<td class=\"{}\">{}</td>",
                        class_of(c),
                        fmt_points(c.score)
                    );
                }
                None => out.push_str("<td></td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    for (s, folder) in report.submissions.iter().zip(&folders) {
        let _ = writeln!(
            out,
            "<h2 id=\"s-{}\">{} — {} / {}</h2>",
            esc(folder),
            esc(&s.submission),
            fmt_points(s.score),
            fmt_points(s.max_score)
        );
        match &s.status {
            SubmissionStatus::Graded => {}
            SubmissionStatus::Rejected(m) => {
                let _ = writeln!(out, "<p class=\"bad\">Not graded: {}</p>", esc(m));
            }
            SubmissionStatus::InternalError(m) => {
                let _ = writeln!(
                    out,
                    "<p class=\"bad\">Internal grader error: {}</p>",
                    esc(m)
                );
            }
        }
        if !s.notes.is_empty() {
            out.push_str("<ul class=\"note\">");
            for note in &s.notes {
                let _ = write!(out, "<li>{}</li>", esc(note));
            }
            out.push_str("</ul>\n");
        }
        out.push_str("<table>\n<tr><th>check</th><th>points</th><th>feedback</th></tr>\n");
        for c in &s.checks {
            check_row(&mut out, c);
        }
        out.push_str("</table>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// `similarity.html`: suspicious pairs with their matching code side by side.
pub fn similarity_html(report: &BatchReport) -> String {
    let mut out = String::new();
    page_start(&mut out, &format!("Similarity: {}", report.title));
    let _ = write!(
        out,
        "<h1>Similarity: {}</h1>\n<p>Pairs whose instruction streams (mnemonic and addressing mode; \
         labels, comments and layout ignored) share much code that is not in the starter code. \
         A pair here is a reason to look, not a verdict.</p>\n",
        esc(&report.title)
    );
    if let Some(o) = &report.similarity.options {
        let _ = writeln!(
            out,
            "<p class=\"note\">k = {} instructions, window {}, reported from {}% shared and {} fingerprints.</p>",
            o.k,
            o.window,
            (o.threshold * 100.0).round(),
            o.min_shared
        );
    }
    for group in &report.similarity.identical {
        let names: Vec<String> = group.iter().map(|n| esc(n)).collect();
        let _ = writeln!(
            out,
            "<p class=\"bad\">{} submissions have identical sources: {}. They are compared with the others once, as {}.</p>",
            group.len(),
            names.join(", "),
            names.first().cloned().unwrap_or_default()
        );
    }
    if report.similarity.pairs.is_empty() {
        out.push_str("<p>No suspicious pairs.</p>\n");
    }
    if report.similarity.omitted_pairs > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">{} more suspicious pair(s) are not listed (only the {} most similar are kept).</p>",
            report.similarity.omitted_pairs,
            crate::grade::similarity::MAX_PAIRS
        );
    }
    let pairs = &report.similarity.pairs;
    if pairs.len() > MAX_PAIRS_SHOWN {
        let _ = writeln!(
            out,
            "<p class=\"note\">The {MAX_PAIRS_SHOWN} most similar of {} pairs; similarity.csv lists all.</p>",
            pairs.len()
        );
    }
    for p in pairs.iter().take(MAX_PAIRS_SHOWN) {
        let _ = writeln!(
            out,
            "<h2>{} ↔ {}: {}% ({} shared fingerprints of {} / {})</h2>",
            esc(&p.a),
            esc(&p.b),
            (p.score * 100.0).round(),
            p.shared,
            p.a_fingerprints,
            p.b_fingerprints
        );
        for m in &p.matches {
            let _ = writeln!(
                out,
                "<div class=\"side\"><div><b>{}</b> {}:{}-{}<pre>{}</pre></div><div><b>{}</b> {}:{}-{}<pre>{}</pre></div></div>",
                esc(&p.a),
                esc(&m.a.file),
                m.a.first,
                m.a.last,
                esc(&m.a.text),
                esc(&p.b),
                esc(&m.b.file),
                m.b.first,
                m.b.last,
                esc(&m.b.text)
            );
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::report::tests::sample;

    #[test]
    fn report_has_pictures_and_escapes() {
        let h = report_html(&sample());
        assert_eq!(h.matches("data:image/png;base64,").count(), 3);
        assert!(h.contains("&lt;here&gt;"));
        assert!(h.contains("id=\"s-bob__b_\""));
        assert!(h.contains("Viergewinnt.asm is not UTF-8"));
        assert!(h.contains("class=\"part\">0.5<"));
    }

    #[test]
    fn similarity_side_by_side() {
        let h = similarity_html(&sample());
        assert!(h.contains("Logic.inc:10-12"));
        assert!(h.contains("staa &lt;x&gt;"));
        assert!(h.contains("90%"));
    }
}
