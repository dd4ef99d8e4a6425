//! Typed errors of the grader: those that stop a batch ([`GradeError`]) and
//! those that give one submission 0 points with a message ([`SubmissionError`]).

use std::path::PathBuf;

/// A problem that stops grading altogether (the assignment or the output is
/// unusable); a bad submission never produces one.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    /// A file or folder could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// `--out` names something that is not a folder.
    #[error("--out {0}: this is a file, not a folder; name a folder for the reports (it is created if missing)")]
    OutNotFolder(PathBuf),
    /// `assignment.toml` is not valid TOML or does not match the schema.
    #[error("{path}: {message}")]
    Assignment {
        /// The assignment file.
        path: PathBuf,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// The reference solution does not assemble or fails its own checks, so
    /// grading against it would be meaningless.
    #[error("reference solution: {0}")]
    Reference(String),
    /// A file the course must supply (one listed in `provided`) is missing,
    /// so grading would have to use the student's copy.
    #[error("course error: {0}")]
    Course(String),
    /// None of the given paths holds a submission.
    #[error("no submission found in {0}")]
    NoSubmissions(String),
    /// A `grade merge` input that is not one shard of the batch (missing,
    /// twice, another batch's, not a shard folder), or an `--out` that
    /// would overwrite a shard.
    #[error("{path}: {message}")]
    Merge {
        /// The shard folder or file at fault.
        path: PathBuf,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// A report could not be serialised.
    #[error("writing {what}: {message}")]
    Report {
        /// Which report.
        what: String,
        /// What went wrong.
        message: String,
    },
}

/// Why a submission could not be read; the submission gets 0 points and this
/// message as feedback, and the batch goes on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SubmissionError {
    /// The path could not be read.
    #[error("cannot read {path}: {message}")]
    Unreadable {
        /// The path as given.
        path: String,
        /// What the OS said.
        message: String,
    },
    /// A `.zip` that is damaged or not a zip at all.
    #[error("{name} is not a readable zip archive ({message}); zip the folder again and resubmit")]
    BadZip {
        /// The archive's file name.
        name: String,
        /// What the zip reader said.
        message: String,
    },
    /// A zip entry with an absolute path or `..` that would lead outside the submission.
    #[error("zip entry `{entry}` points outside the submission (absolute path or `..`); it was refused, nothing was read from it")]
    ZipPathOutside {
        /// The entry name as stored in the archive.
        entry: String,
    },
    /// A zip entry that is encrypted or uses a compression method other than stored/deflate.
    #[error("zip entry `{entry}` cannot be read: {message}; zip it with ordinary deflate compression and no password")]
    ZipEntryUnsupported {
        /// The entry name.
        entry: String,
        /// Why.
        message: String,
    },
    /// A path that is a fifo, device or socket rather than a file or folder:
    /// reading it could hang the batch or never end, so it is not opened.
    #[error("{path} is a {kind}, not a regular file or folder; it was skipped (submit a folder or a .zip)")]
    NotRegular {
        /// The path (relative to the submission, or as given).
        path: String,
        /// What it is: "fifo", "character device", ...
        kind: String,
    },
    /// A `.zip` larger than the assignment allows, refused before it is opened.
    #[error("{name} is {size} bytes, more than the {limit} bytes a submission's zip may have; zip only the sources")]
    ZipTooLarge {
        /// The archive's file name.
        name: String,
        /// Its size on disk.
        size: u64,
        /// `[limits] max_zip_bytes`.
        limit: u64,
    },
    /// One file larger than the assignment allows.
    #[error("{file} is {size} bytes, more than the {limit} bytes a source file may have; submit only the sources")]
    FileTooLarge {
        /// The file (relative to the submission).
        file: String,
        /// Its size (as declared in a zip, or read so far).
        size: u64,
        /// The limit from `assignment.toml`.
        limit: u64,
    },
    /// One file that turned out larger than the assignment allows while it
    /// was read (its size was not known before, or a zip's header
    /// understated it): reading stopped at the limit.
    #[error("{file} holds more than the {limit} bytes a source file may have (reading stopped there); submit only the sources")]
    FileTooLargeRead {
        /// The file (relative to the submission).
        file: String,
        /// The limit from `assignment.toml`.
        limit: u64,
    },
    /// All files together are larger than the assignment allows.
    #[error("the submission holds more than {limit} bytes of files; submit only the sources")]
    TooLarge {
        /// The limit from `assignment.toml`.
        limit: u64,
    },
    /// More assembler source files than the assignment allows.
    #[error("the submission holds more than {limit} assembler source files; submit only the program's sources")]
    TooManyFiles {
        /// The limit from `assignment.toml`.
        limit: usize,
    },
    /// More files and folders in all than a submission may hold (a whole
    /// project folder with its build output, say), the same for a zip and
    /// a folder; they are not walked.
    #[error("the submission holds more than {limit} files and folders in all; submit only the sources, not a whole project folder")]
    TooManyEntries {
        /// [`crate::grade::assignment::Limits::max_entries`].
        limit: usize,
    },
    /// The entry file is missing.
    #[error("{entry} is missing{found}")]
    EntryMissing {
        /// The entry file name the assignment asks for.
        entry: String,
        /// A hint listing the assembler files that were found, or empty.
        found: String,
    },
    /// The entry file name occurs more than once (in different folders).
    #[error("{entry} occurs more than once ({paths}); keep one")]
    EntryAmbiguous {
        /// The entry file name.
        entry: String,
        /// The paths where it was found.
        paths: String,
    },
    /// A source file that is binary data rather than text.
    #[error("{file} is not a text file (byte ${byte:02X} at offset {offset}); submit the assembler source, not a binary")]
    NotText {
        /// The file.
        file: String,
        /// Offset of the offending byte.
        offset: usize,
        /// The byte.
        byte: u8,
    },
}
