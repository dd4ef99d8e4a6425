//! `[limits]`: what one submission may use (cycles, file sizes, assembly
//! time), with the defaults and the check of the values.

use super::*;

/// Resource limits for each submission.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// E-cycles one scenario, or one move of a differential game, may take
    /// before the run is stopped (an endless loop ends here).
    pub max_cycles: u64,
    /// Largest single file, in bytes.
    pub max_file_bytes: u64,
    /// Largest submission, all files together, in bytes.
    pub max_total_bytes: u64,
    /// Most assembler source files in one submission (other files are
    /// skipped with a note; all files and folders together may be
    /// [`Limits::max_entries`]).
    pub max_files: usize,
    /// Largest `.zip` of one submission, in bytes, checked before it is
    /// opened (it may also hold files that are not sources, which are skipped).
    pub max_zip_bytes: u64,
    /// Most source lines a submission may assemble (all files, includes
    /// expanded); more is refused with a line saying so.
    pub max_source_lines: usize,
    /// Milliseconds assembling a submission may take before it is stopped
    /// (wall-clock: a limit that keeps one submission from holding up the
    /// batch, set far above what any real program needs).
    pub max_assemble_ms: u64,
    /// Symbol whose address is the lowest the stack may reach (the end of
    /// the variables); default: the end of the highest RAM label.
    pub stack_guard: Option<String>,
    /// E-cycles a key tap holds its key down.
    pub hold_cycles: u64,
    /// E-cycles without device writes after which a scenario's program counts as idle.
    pub quiet_cycles: u64,
    /// The same for the moves of differential games (shorter: the games are
    /// many; it must stay above the program's debounce time).
    pub game_quiet_cycles: u64,
    /// E-cycles to wait at most for a program to become idle after a key.
    pub settle_cap_cycles: u64,
    /// A scenario fails if the program never becomes idle after its keys.
    pub require_idle: bool,
    /// False (default): after its last key a program is idle only when it
    /// waits for input again (hc11lab's `settled` rule). True: `quiet_cycles`
    /// without output alone make it idle, so an assignment can limit how long
    /// a program thinks silently (E4: 50 ms).
    pub idle_without_input: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_cycles: 20_000_000,
            max_file_bytes: 1_000_000,
            max_total_bytes: 4_000_000,
            max_files: 200,
            max_zip_bytes: 64_000_000,
            max_source_lines: 100_000,
            max_assemble_ms: 10_000,
            stack_guard: None,
            hold_cycles: 20_000,
            quiet_cycles: 60_000,
            game_quiet_cycles: 25_000,
            settle_cap_cycles: 4_000_000,
            require_idle: true,
            idle_without_input: false,
        }
    }
}

impl Limits {
    /// Most files and folders a submission may hold in all, sources or
    /// not, in a zip or a folder alike: enough for a project folder with
    /// some build output, few enough that a zip claiming millions of
    /// entries is refused before they are walked.
    pub fn max_entries(&self) -> usize {
        self.max_files.saturating_mul(20).max(2000)
    }

    /// Refuses values that make no sense or would overflow the board's clock.
    pub(super) fn validate(&self) -> Result<(), String> {
        // About 139 hours of board time: far beyond any sensible budget.
        const MAX: u64 = 1_000_000_000_000;
        let cycles = [
            ("max_cycles", self.max_cycles),
            ("hold_cycles", self.hold_cycles),
            ("quiet_cycles", self.quiet_cycles),
            ("game_quiet_cycles", self.game_quiet_cycles),
            ("settle_cap_cycles", self.settle_cap_cycles),
        ];
        for (name, v) in cycles {
            if v == 0 || v > MAX {
                return Err(format!("[limits] {name} must be 1..{MAX}"));
            }
        }
        if self.max_files == 0
            || self.max_file_bytes == 0
            || self.max_total_bytes == 0
            || self.max_zip_bytes == 0
            || self.max_source_lines == 0
        {
            return Err(
                "[limits] max_files, max_file_bytes, max_total_bytes, max_zip_bytes and max_source_lines must be above 0"
                    .into(),
            );
        }
        if self.max_assemble_ms == 0 || self.max_assemble_ms > 600_000 {
            return Err("[limits] max_assemble_ms must be 1..600000 (10 minutes)".into());
        }
        Ok(())
    }
}
