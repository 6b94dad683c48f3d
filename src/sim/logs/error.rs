//! [`LogError`]: a log that cannot be read, and the line at fault. The reader ([`super::reader`])
//! and the chunks it is fed ([`super::chunks`]) make them; the shadow report and the page's worker
//! hand them on.

/// A log that cannot be read, with the line at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogError {
    /// The line (1-based), or 0 for the log as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "log: {}", self.message)
        } else {
            write!(f, "log line {}: {}", self.line, self.message)
        }
    }
}

/// A [`LogError`] at `line` (0: the log as a whole).
pub(super) fn error(line: usize, message: impl Into<String>) -> LogError {
    LogError { line, message: message.into() }
}
