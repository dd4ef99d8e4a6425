//! Similarity between submissions: each source is reduced to a stream of
//! normalised instructions (canonical mnemonic + addressing mode; labels,
//! operands' names, comments and layout ignored), fingerprinted by winnowing
//! its k-grams (Schleimer, Wilkerson, Aiken 2003, "Winnowing: local
//! algorithms for document fingerprinting"), and fingerprints that also occur
//! in the starter code are dropped before pairs are compared.

use crate::cpu::Op;
use rayon::prelude::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::{Deserialize, Serialize};

/// Tuning of the fingerprinting and of what counts as suspicious.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimilarityOptions {
    /// Instructions per k-gram.
    pub k: usize,
    /// Winnowing window (in k-grams): any match of `k + window - 1`
    /// instructions is guaranteed to be found.
    pub window: usize,
    /// Lowest share of the smaller submission's own fingerprints that must be
    /// shared for a pair to be reported.
    pub threshold: f64,
    /// Fewest shared fingerprints for a pair to be reported (small edits to
    /// the starter code share a few by chance).
    pub min_shared: usize,
}

impl Default for SimilarityOptions {
    fn default() -> Self {
        SimilarityOptions {
            k: 8,
            window: 4,
            threshold: 0.5,
            min_shared: 8,
        }
    }
}

/// One normalised instruction and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// `mnemonic/mode`, e.g. `ldaa/idx`.
    pub text: String,
    /// 1-based source line.
    pub line: u32,
}

/// Strips a comment (`;` outside quotes, or a line starting with `*`).
fn strip_comment(line: &str) -> &str {
    if line.trim_start().starts_with('*') {
        return "";
    }
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ';') => return line.get(..i).unwrap_or(line),
            _ => {}
        }
    }
    line
}

/// The addressing-mode class of an operand field.
fn mode_class(operand: &str) -> &'static str {
    let o = operand.trim().to_ascii_lowercase();
    // The index register is the word right after the first comma (`3,x`,
    // `0,x #$80 label` for brset).
    let index_reg = o.split_once(',').and_then(|(_, rest)| {
        rest.trim_start()
            .split(|c: char| c.is_whitespace() || c == ',')
            .next()
    });
    if o.is_empty() {
        "inh"
    } else if o.starts_with('#') {
        "imm"
    } else if index_reg == Some("x") {
        "idx"
    } else if index_reg == Some("y") {
        "idy"
    } else {
        "mem"
    }
}

/// Reduces one source file to its instruction stream. Labels (in column 1 or
/// ending in `:`), directives and comments produce no tokens.
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comment(raw);
        let mut words = line.split_whitespace();
        let starts_with_label = line.chars().next().is_some_and(|c| !c.is_whitespace());
        let mut first = words.next();
        if starts_with_label || first.is_some_and(|w| w.ends_with(':')) {
            first = words.next();
        }
        let Some(mnemonic) = first else { continue };
        let Some(op) = Op::from_mnemonic(mnemonic.trim_end_matches(':')) else {
            continue;
        };
        let operand: String = words.collect::<Vec<_>>().join(" ");
        out.push(Token {
            text: format!("{}/{}", op.mnemonic(), mode_class(&operand)),
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
        });
    }
    out
}

/// A stable 64-bit FNV-1a hash (the same in every run, so reports are deterministic).
fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;

/// Winnowed fingerprints of one file's tokens: hash -> k-gram start positions.
fn winnow(tokens: &[Token], opts: &SimilarityOptions) -> Vec<(u64, usize)> {
    let k = opts.k.max(1);
    if tokens.len() < k {
        return Vec::new();
    }
    let token_hashes: Vec<u64> = tokens
        .iter()
        .map(|t| fnv1a(t.text.as_bytes(), FNV_OFFSET))
        .collect();
    let grams: Vec<u64> = token_hashes
        .windows(k)
        .map(|w| w.iter().fold(FNV_OFFSET, |h, t| fnv1a(&t.to_le_bytes(), h)))
        .collect();
    let w = opts.window.max(1);
    let mut picked: Vec<(u64, usize)> = Vec::new();
    if grams.len() <= w {
        if let Some((pos, &h)) = grams
            .iter()
            .enumerate()
            .min_by_key(|(i, h)| (**h, usize::MAX - i))
        {
            picked.push((h, pos));
        }
        return picked;
    }
    for start in 0..=grams.len() - w {
        let window = grams.get(start..start + w).unwrap_or(&[]);
        // Rightmost minimum, as the paper prescribes, so runs of equal hashes pick once.
        let Some((off, &h)) = window
            .iter()
            .enumerate()
            .min_by_key(|(i, h)| (**h, usize::MAX - i))
        else {
            continue;
        };
        let pos = start + off;
        if picked.last() != Some(&(h, pos)) {
            picked.push((h, pos));
        }
    }
    picked
}

/// The sources of one submission, for comparison.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SimSource {
    /// The submission's name.
    pub name: String,
    /// (path, text) of each source file.
    pub files: Vec<(String, String)>,
}

/// A range of lines in one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineRange {
    /// File path within the submission.
    pub file: String,
    /// First line (1-based).
    pub first: u32,
    /// Last line (inclusive).
    pub last: u32,
    /// The lines' text, for the side-by-side view.
    pub text: String,
}

/// One stretch of matching code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRange {
    /// In the first submission.
    pub a: LineRange,
    /// In the second.
    pub b: LineRange,
    /// Number of matching instructions.
    pub instructions: usize,
}

/// A pair of submissions that share much code that is not starter code.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimilarPair {
    /// First submission (by name order).
    pub a: String,
    /// Second submission.
    pub b: String,
    /// Shared fingerprints over the smaller fingerprint count (0..1).
    pub score: f64,
    /// Shared fingerprints.
    pub shared: usize,
    /// Fingerprints of `a` that are not starter code.
    pub a_fingerprints: usize,
    /// Fingerprints of `b` that are not starter code.
    pub b_fingerprints: usize,
    /// The matching stretches, in `a`'s order.
    pub matches: Vec<MatchRange>,
}

/// The similarity report of a batch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SimilarityReport {
    /// The settings used.
    pub options: Option<SimilarityOptions>,
    /// Suspicious pairs, most similar first (at most [`MAX_PAIRS`]).
    pub pairs: Vec<SimilarPair>,
    /// Groups of submissions whose sources are identical (names in order),
    /// each compared with the others once, through its first member; only
    /// groups that share more than starter code are listed.
    #[serde(default)]
    pub identical: Vec<Vec<String>>,
    /// Suspicious pairs beyond [`MAX_PAIRS`], counted but not listed.
    #[serde(default)]
    pub omitted_pairs: usize,
}

/// Most pairs a report lists (the most similar): a batch full of shared
/// code must not make a report that grows with the square of the batch.
pub const MAX_PAIRS: usize = 200;

/// Most matching stretches listed for one pair (the longest ones).
pub const MAX_MATCHES: usize = 12;

/// Most lines of each side of a stretch quoted in the report.
pub const MAX_QUOTED_LINES: usize = 40;

/// Where a fingerprint sits: file index and k-gram start within that file's tokens.
type Place = (usize, usize);

struct Fingerprinted {
    tokens: Vec<Vec<Token>>,
    prints: HashMap<u64, Vec<Place>>,
}

fn fingerprint(src: &SimSource, opts: &SimilarityOptions, starter: &HashSet<u64>) -> Fingerprinted {
    let tokens: Vec<Vec<Token>> = src.files.iter().map(|(_, t)| tokenize(t)).collect();
    let mut prints: HashMap<u64, Vec<Place>> = HashMap::default();
    for (fi, toks) in tokens.iter().enumerate() {
        for (h, pos) in winnow(toks, opts) {
            if !starter.contains(&h) {
                prints.entry(h).or_default().push((fi, pos));
            }
        }
    }
    Fingerprinted { tokens, prints }
}

fn line_range(
    src: &SimSource,
    fp: &Fingerprinted,
    file: usize,
    start: usize,
    end: usize,
) -> Option<LineRange> {
    let toks = fp.tokens.get(file)?;
    let first = toks.get(start)?.line;
    let last = toks.get(end.min(toks.len()).checked_sub(1)?)?.line;
    let (path, text) = src.files.get(file)?;
    let count = last.saturating_sub(first) as usize + 1;
    let lines: Vec<&str> = text
        .lines()
        .skip((first as usize).saturating_sub(1))
        .take(count.min(MAX_QUOTED_LINES))
        .collect();
    let mut text = lines.join("\n");
    if count > MAX_QUOTED_LINES {
        text.push_str(&format!("\n... ({} more lines)", count - MAX_QUOTED_LINES));
    }
    Some(LineRange {
        file: path.clone(),
        first,
        last,
        text,
    })
}

/// Merges shared k-grams into maximal stretches that advance together in
/// both submissions (same file pair, same diagonal `pos_a - pos_b`, gaps no
/// longer than one winnowing window).
fn matches(
    sa: &SimSource,
    a: &Fingerprinted,
    sb: &SimSource,
    b: &Fingerprinted,
    shared: &[u64],
    opts: &SimilarityOptions,
) -> Vec<MatchRange> {
    let k = opts.k.max(1);
    let gap = opts.window.max(1);
    // (file_a, file_b, diagonal, pos_a, pos_b) for every pairing of places.
    let mut hits: Vec<(usize, usize, i64, usize, usize)> = Vec::new();
    for h in shared {
        let (Some(pas), Some(pbs)) = (a.prints.get(h), b.prints.get(h)) else {
            continue;
        };
        // Bounded: a fingerprint repeated many times adds no evidence, only work.
        for &(fa, pa) in pas.iter().take(8) {
            for &(fb, pb) in pbs.iter().take(8) {
                hits.push((fa, fb, pa as i64 - pb as i64, pa, pb));
            }
        }
    }
    hits.sort_unstable();
    // Runs: (file_a, start_a, end_a, file_b, start_b, end_b), ends exclusive.
    let mut runs: Vec<(usize, usize, usize, usize, usize, usize)> = Vec::new();
    let mut last_key: Option<(usize, usize, i64)> = None;
    for (fa, fb, diag, pa, pb) in hits {
        if let (Some(key), Some(run)) = (last_key, runs.last_mut()) {
            if key == (fa, fb, diag) && pa <= run.2 + gap {
                run.2 = run.2.max(pa + k);
                run.5 = run.5.max(pb + k);
                continue;
            }
        }
        last_key = Some((fa, fb, diag));
        runs.push((fa, pa, pa + k, fb, pb, pb + k));
    }
    runs.sort_unstable();
    // A stretch of `a` matched on two diagonals (code copied twice) shows once: the longer.
    let mut kept: Vec<(usize, usize, usize, usize, usize, usize)> = Vec::new();
    for r in runs {
        match kept.last_mut() {
            Some(prev) if prev.0 == r.0 && r.1 < prev.2 => {
                if r.2 - r.1 > prev.2 - prev.1 {
                    *prev = r;
                }
            }
            _ => kept.push(r),
        }
    }
    if kept.len() > MAX_MATCHES {
        // The longest stretches are the evidence; keep them in `a`'s order.
        let mut longest: Vec<usize> = (0..kept.len()).collect();
        longest.sort_by_key(|&i| (std::cmp::Reverse(kept[i].2 - kept[i].1), i));
        longest.truncate(MAX_MATCHES);
        longest.sort_unstable();
        kept = longest.into_iter().map(|i| kept[i]).collect();
    }
    kept.into_iter()
        .filter_map(|(fa, s_a, e_a, fb, s_b, e_b)| {
            Some(MatchRange {
                a: line_range(sa, a, fa, s_a, e_a)?,
                b: line_range(sb, b, fb, s_b, e_b)?,
                instructions: (e_a - s_a).max(e_b - s_b),
            })
        })
        .collect()
}

/// Groups submissions with identical sources (the same file texts, line
/// endings aside, whatever the paths): each group as indices, by name.
fn identical_groups(sources: &[SimSource]) -> Vec<Vec<usize>> {
    // The texts made comparable in parallel (a batch of a thousand is
    // megabytes), grouped in order.
    let contents: Vec<Vec<String>> = sources
        .par_iter()
        .map(|s| {
            let mut texts: Vec<String> = s
                .files
                .iter()
                .map(|(_, t)| t.replace("\r\n", "\n"))
                .collect();
            texts.sort_unstable();
            texts
        })
        .collect();
    let mut by_content: HashMap<&[String], usize> = HashMap::default();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, texts) in contents.iter().enumerate() {
        match by_content.get(texts.as_slice()) {
            Some(&g) => groups[g].push(i),
            None => {
                by_content.insert(texts, groups.len());
                groups.push(vec![i]);
            }
        }
    }
    for g in &mut groups {
        g.sort_by(|&x, &y| sources[x].name.cmp(&sources[y].name));
    }
    groups
}

/// Compares every pair of submissions, ignoring code that also occurs in
/// `starter`. Identical submissions are compared once, as a group; the
/// pairs, their matches and the quoted lines are capped ([`MAX_PAIRS`],
/// [`MAX_MATCHES`], [`MAX_QUOTED_LINES`]), so the report stays small
/// however much of the batch is shared.
pub fn compare(
    sources: &[SimSource],
    starter: &SimSource,
    opts: &SimilarityOptions,
) -> SimilarityReport {
    let mut starter_prints = HashSet::default();
    for (_, text) in &starter.files {
        let toks = tokenize(text);
        // Every k-gram of the starter, not only the winnowed ones, so no
        // starter stretch survives in a submission by a different choice of minima.
        let all = SimilarityOptions { window: 1, ..*opts };
        starter_prints.extend(winnow(&toks, &all).into_iter().map(|(h, _)| h));
    }
    let groups = identical_groups(sources);
    // One fingerprinted member per group; its weight is the group's size.
    // Fingerprinting is the work (tokens, hashes): in parallel, in order.
    let reps: Vec<(&SimSource, Fingerprinted, usize)> = groups
        .par_iter()
        .filter_map(|g| {
            let s = sources.get(*g.first()?)?;
            Some((s, fingerprint(s, opts, &starter_prints), g.len()))
        })
        .collect();
    let identical: Vec<Vec<String>> = groups
        .iter()
        .zip(&reps)
        .filter(|(g, (_, fp, _))| g.len() > 1 && fp.prints.len() >= opts.min_shared.max(1))
        .map(|(g, _)| g.iter().map(|&i| sources[i].name.clone()).collect())
        .collect();
    // How many submissions hold each fingerprint, and which groups.
    let mut index: HashMap<u64, (usize, Vec<usize>)> = HashMap::default();
    for (r, (_, fp, weight)) in reps.iter().enumerate() {
        for h in fp.prints.keys() {
            let e = index.entry(*h).or_default();
            e.0 += weight;
            e.1.push(r);
        }
    }
    // A fingerprint in most of the batch is a common idiom, not evidence.
    let common = (sources.len() / 2).max(4);
    let evidence = |h: &u64| index.get(h).is_some_and(|(n, _)| *n <= common);
    // Only counts per pair here: the shared fingerprints are collected
    // again for the few pairs that are reported.
    let mut counts: HashMap<(usize, usize), u32> = HashMap::default();
    for (n, holders) in index.values() {
        if *n > common {
            continue;
        }
        for (x, &i) in holders.iter().enumerate() {
            for &j in holders.iter().skip(x + 1) {
                *counts.entry((i.min(j), i.max(j))).or_default() += 1;
            }
        }
    }
    let mut pairs: Vec<(SimilarPair, usize, usize)> = Vec::new();
    for ((i, j), n) in counts {
        let (Some((sa, fa, _)), Some((sb, fb, _))) = (reps.get(i), reps.get(j)) else {
            continue;
        };
        let shared = n as usize;
        let smaller = fa.prints.len().min(fb.prints.len()).max(1);
        let score = shared as f64 / smaller as f64;
        // A small program (few fingerprints of its own, like a short
        // exercise change) cannot share `min_shared`: ask for half of it.
        let min_shared = opts.min_shared.min(smaller.div_ceil(2)).max(2);
        if shared < min_shared || score < opts.threshold {
            continue;
        }
        let (i, j) = if sa.name <= sb.name { (i, j) } else { (j, i) };
        let ((sa, fa, _), (sb, fb, _)) = (&reps[i], &reps[j]);
        pairs.push((
            SimilarPair {
                a: sa.name.clone(),
                b: sb.name.clone(),
                score: super::result::round2(score),
                shared,
                a_fingerprints: fa.prints.len(),
                b_fingerprints: fb.prints.len(),
                matches: Vec::new(),
            },
            i,
            j,
        ));
    }
    pairs.sort_by(|(x, ..), (y, ..)| {
        y.score
            .total_cmp(&x.score)
            .then(y.shared.cmp(&x.shared))
            .then_with(|| (&x.a, &x.b).cmp(&(&y.a, &y.b)))
    });
    let omitted_pairs = pairs.len().saturating_sub(MAX_PAIRS);
    pairs.truncate(MAX_PAIRS);
    let pairs = pairs
        .into_iter()
        .map(|(mut p, i, j)| {
            let ((sa, fa, _), (sb, fb, _)) = (&reps[i], &reps[j]);
            let mut hashes: Vec<u64> = fa
                .prints
                .keys()
                .filter(|h| fb.prints.contains_key(h) && evidence(h))
                .copied()
                .collect();
            hashes.sort_unstable();
            p.matches = matches(sa, fa, sb, fb, &hashes, opts);
            p
        })
        .collect();
    SimilarityReport {
        options: Some(*opts),
        pairs,
        identical,
        omitted_pairs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROUTINE: &str = "
checkRow    ldaa    coordx      ; start column
            ldab    #1
loop        cmpa    #6
            bhs     done
            inca
            ldx     #board
            abx
            ldaa    0,x
            bita    #%00011000
            beq     done
            incb
            cmpb    #4
            bne     loop
            ldaa    #1
            staa    playerWonFlag
done        rts
";

    fn renamed(src: &str) -> String {
        src.replace("checkRow", "pruefeZeile")
            .replace("loop", "schleife")
            .replace("done", "fertig")
            .replace("; start column", "; Startspalte")
            .replace("bhs", "bcc")
            .replace("        ", "\t")
    }

    #[test]
    fn tokens_ignore_labels_comments_and_aliases() {
        let t = tokenize(
            "lbl ldaa #1 ; x\n  sta 0,y\n* comment\n  org $C000\nx: rts\n  brset 0,x #$80 lbl\n",
        );
        let texts: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["ldaa/imm", "staa/idy", "rts/inh", "brset/idx"]);
        assert_eq!(t[1].line, 2);
        let a: Vec<String> = tokenize(ROUTINE).into_iter().map(|t| t.text).collect();
        let b: Vec<String> = tokenize(&renamed(ROUTINE))
            .into_iter()
            .map(|t| t.text)
            .collect();
        assert_eq!(a, b);
    }

    fn src(name: &str, text: &str) -> SimSource {
        SimSource {
            name: name.into(),
            files: vec![("Main.asm".into(), text.into())],
        }
    }

    #[test]
    fn renamed_copy_is_flagged_with_line_ranges() {
        let opts = SimilarityOptions {
            min_shared: 2,
            ..SimilarityOptions::default()
        };
        let original = format!(
            "{ROUTINE}{}",
            ROUTINE.replace("ldab    #1", "ldab #1\n psha\n pula")
        );
        let copy = renamed(&original);
        let other = "a ldx #1\n inx\n inx\n stx 0,y\n ldaa 1,x\n tab\n aba\n rts\n ldd #3\n std 2,x\n mul\n rts\n";
        let starter = src("starter", "");
        let rep = compare(
            &[
                src("bob", &copy),
                src("alice", &original),
                src("carol", other),
            ],
            &starter,
            &opts,
        );
        assert_eq!(rep.pairs.len(), 1, "{:?}", rep.pairs);
        let p = &rep.pairs[0];
        assert_eq!((p.a.as_str(), p.b.as_str()), ("alice", "bob"));
        assert_eq!(p.score, 1.0);
        assert!(!p.matches.is_empty());
        assert!(p.matches[0].a.first >= 2);
        assert!(
            p.matches[0].b.text.contains("pruefeZeile") || p.matches[0].b.text.contains("ldaa")
        );
    }

    #[test]
    fn identical_copies_are_one_group_and_the_report_is_bounded() {
        let opts = SimilarityOptions::default();
        // A long program of varied instructions, copied 40 times, 10
        // submissions that each change a little of it, and 50 of their own
        // (so the copies are not most of the batch, and count as evidence).
        let mut big = String::new();
        let mut x: u64 = 88172645463325252;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let op = [
                "ldaa #1", "staa 0,x", "inx", "ldab 2,y", "aba", "psha", "pula", "tab",
            ];
            big.push_str(&format!(" {}\n", op[(x % 8) as usize]));
        }
        let mut sources: Vec<SimSource> =
            (0..40).map(|i| src(&format!("copy{i:02}"), &big)).collect();
        for i in 0..10 {
            sources.push(src(
                &format!("edit{i:02}"),
                &format!("{}{big} daa\n", " mul\n".repeat(i + 1)),
            ));
        }
        for i in 0..50 {
            sources.push(src(&format!("own{i:02}"), &" nop\n".repeat(i + 1)));
        }
        let rep = compare(&sources, &src("starter", ""), &opts);
        assert_eq!(rep.identical.len(), 1, "{:?}", rep.identical);
        assert_eq!(rep.identical[0].len(), 40);
        // copy00 with each edit, and the edits among themselves.
        assert_eq!(rep.pairs.len() + rep.omitted_pairs, 10 + 45);
        assert_eq!(rep.identical[0][0], "copy00");
        assert!(rep.pairs.len() <= MAX_PAIRS);
        for p in &rep.pairs {
            assert!(p.matches.len() <= MAX_MATCHES);
            for m in &p.matches {
                assert!(m.a.text.lines().count() <= MAX_QUOTED_LINES + 1);
            }
        }
        let json = serde_json::to_string(&rep).unwrap();
        assert!(json.len() < 2_000_000, "{} bytes", json.len());
    }

    #[test]
    fn starter_code_is_not_evidence() {
        let opts = SimilarityOptions {
            min_shared: 1,
            ..SimilarityOptions::default()
        };
        let starter = src("starter", ROUTINE);
        let rep = compare(
            &[src("a", ROUTINE), src("b", &renamed(ROUTINE))],
            &starter,
            &opts,
        );
        assert!(rep.pairs.is_empty(), "{:?}", rep.pairs);
    }

    #[test]
    fn winnowing_is_deterministic_and_covers_long_matches() {
        let toks = tokenize(ROUTINE);
        let opts = SimilarityOptions::default();
        let a = winnow(&toks, &opts);
        assert_eq!(a, winnow(&toks, &opts));
        assert!(!a.is_empty());
        // Every window of `window` consecutive k-grams contributes a fingerprint.
        let n = toks.len() - opts.k + 1;
        for start in 0..=n - opts.window {
            assert!(a
                .iter()
                .any(|(_, p)| (start..start + opts.window).contains(p)));
        }
    }
}
