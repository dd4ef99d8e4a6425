//! Reading source files in pass 1: loading and decoding a file (within the
//! size limits) and following an `include` (inside the main file's folder,
//! no cycles, not too deep).

use super::super::diagnostics::{did_you_mean, display_path, suggestions, Code, Diagnostic, Span};
use super::super::lexer::Piece;
use super::super::source::{self, decode, parent_dir, resolve_include, Resolved, SourceError};
use super::Asm;
use crate::image::{FileId, SourceFile};
use std::path::Path;

fn source_error(code_path: &str, e: &SourceError) -> (Code, String, Option<String>) {
    match e {
        SourceError::NotFound => (
            Code::Io,
            format!("cannot read `{code_path}`: file not found"),
            None,
        ),
        SourceError::Io(msg) => (Code::Io, format!("cannot read `{code_path}`: {msg}"), None),
        SourceError::TooLarge { size, limit } => (
            Code::FileTooLarge,
            format!("`{code_path}` is too large ({size} bytes; the limit is {limit} bytes)"),
            Some("assembler sources are small text files; is this the right file?".to_string()),
        ),
        SourceError::NotText(why) => (
            Code::NotText,
            format!("`{code_path}` is not a text file ({why})"),
            Some("include only assembler source text (.asm, .inc)".to_string()),
        ),
    }
}

impl Asm<'_> {
    /// Reads and decodes a file, registering it; `at` is the include's span.
    pub(super) fn load(&mut self, path: &Path, at: Option<Span>) -> Result<FileId, Diagnostic> {
        let shown = path.to_string_lossy().replace('\\', "/");
        let fail = |e: SourceError| {
            let (code, msg, hint) = source_error(&shown, &e);
            let d = match at {
                Some(span) => Diagnostic::new(code, span, msg),
                None => Diagnostic::global(code, msg),
            };
            match hint {
                Some(h) => d.hint(h),
                None => d,
            }
        };
        let identity = self.provider.identity(path);
        if let Some(&id) = self.identities.get(&identity) {
            return Ok(id);
        }
        let budget = self.opts.max_total_size.saturating_sub(self.total);
        let limit = self.opts.max_file_size.min(budget);
        let bytes = self.provider.read(path, limit).map_err(|e| match e {
            SourceError::TooLarge { size, .. } if limit < self.opts.max_file_size => {
                let d = fail(SourceError::TooLarge {
                    size,
                    limit: self.opts.max_total_size,
                });
                Diagnostic {
                    message: format!(
                        "including `{shown}` makes the sources larger than {} bytes in total",
                        self.opts.max_total_size
                    ),
                    ..d
                }
            }
            e => fail(e),
        })?;
        let text = decode(&bytes).map_err(fail)?;
        self.total += bytes.len() as u64;
        let id = self.files.len();
        self.files.push(SourceFile {
            path: path.to_path_buf(),
            text,
        });
        self.identities.insert(identity, id);
        Ok(id)
    }

    /// Reads the file an `include` names; with `once` (ASM11's `#Uses`),
    /// a file that was read before is not read again.
    pub(super) fn include(&mut self, file: FileId, ops: Piece, once: bool) {
        let span = Span::new(file, ops.start, ops.end());
        let dir = self
            .files
            .get(file)
            .map(|f| parent_dir(&f.path))
            .unwrap_or_default();
        // A file found through the search path includes from its own tree.
        let root = if source::is_inside(&dir, &self.root) {
            self.root.clone()
        } else {
            self.opts
                .include_dirs
                .iter()
                .find(|f| source::is_inside(&dir, f))
                .cloned()
                .unwrap_or_else(|| self.root.clone())
        };
        let mut resolved = resolve_include(self.provider, &root, &dir, ops.text);
        if matches!(resolved, Resolved::NotFound(_)) {
            // The search path: each folder is a tree of its own, which the
            // include may not leave either.
            for folder in &self.opts.include_dirs {
                if let found @ Resolved::Found(_) =
                    resolve_include(self.provider, folder, folder, ops.text)
                {
                    resolved = found;
                    break;
                }
            }
        }
        let path = match resolved {
            Resolved::Found(p) => p,
            Resolved::Escapes(_) => {
                let root = if self.root.as_os_str().is_empty() {
                    ".".to_string()
                } else {
                    self.root.to_string_lossy().replace('\\', "/")
                };
                self.error(
                    Diagnostic::new(
                        Code::IncludeEscapes,
                        span,
                        format!(
                            "`{}` is outside `{root}`, the folder of the main source file",
                            ops.text.trim()
                        ),
                    )
                    .hint("includes must stay inside the main file's folder (or below it); copy the file there"),
                );
                return;
            }
            Resolved::NotRegular(p, kind) => {
                self.error(
                    Diagnostic::new(
                        Code::Io,
                        span,
                        format!(
                            "cannot include `{}`: it is {kind}, not a regular file",
                            p.to_string_lossy().replace('\\', "/")
                        ),
                    )
                    .hint("include a source file (`.inc`, `.asm`) by its name"),
                );
                return;
            }
            Resolved::NotFound(p) => {
                let mut d = Diagnostic::new(
                    Code::IncludeNotFound,
                    span,
                    format!(
                        "include file `{}` not found",
                        p.to_string_lossy().replace('\\', "/")
                    ),
                );
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                // Suggest only names inside the main file's folder tree: an
                // absolute path elsewhere must not list, say, /etc.
                let folder = parent_dir(&p);
                let root = source::normalize(&self.root);
                let inside = source::normalize(&folder).starts_with(&root)
                    && (!folder.is_absolute() || root.is_absolute());
                if inside {
                    let here = self.provider.list_dir(&folder);
                    if let Some(h) =
                        did_you_mean(&suggestions(&name, here.iter().map(String::as_str)))
                    {
                        d = d.hint(h);
                    }
                } else {
                    d = d.hint(
                        "include files from the main file's folder, with a path relative to it",
                    );
                }
                self.error(d);
                return;
            }
        };
        let identity = self.provider.identity(&path);
        if once && self.identities.contains_key(&identity) {
            return;
        }
        if self.stack.iter().any(|(p, _)| *p == identity) {
            let mut chain: Vec<String> = self
                .stack
                .iter()
                .filter_map(|(_, id)| self.files.get(*id).map(display_path))
                .collect();
            chain.push(path.to_string_lossy().replace('\\', "/"));
            self.error(
                Diagnostic::new(Code::IncludeCycle, span, "include cycle")
                    .hint(format!("{} includes itself again", chain.join(" -> ")))
                    .hint("use `.ifndef NAME` / `NAME equ 1` / `.endif` as an include guard, or remove the include"),
            );
            return;
        }
        if self.stack.len() >= self.opts.max_include_depth {
            self.error(Diagnostic::new(
                Code::IncludeCycle,
                span,
                format!(
                    "includes nest deeper than {} files",
                    self.opts.max_include_depth
                ),
            ));
            return;
        }
        let id = match self.load(&path, Some(span)) {
            Ok(id) => id,
            Err(d) => {
                self.error(d);
                return;
            }
        };
        self.stack.push((identity, id));
        self.read_file(id);
        self.stack.pop();
    }
}
