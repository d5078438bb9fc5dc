//! Standard output and standard error: every write the command makes goes
//! through here, so none can panic (`println!` does on a closed stream).
//!
//! * A closed pipe on either stream (`nvp4c run --trace | head -1`) ends
//!   the command quietly, with exit code [`EXIT_BROKEN_PIPE`]: what a shell
//!   reports for a program a pipe's SIGPIPE ended (`cat`, `grep`), so
//!   `set -o pipefail` scripts see the same as with those tools.
//! * Any other failure to write standard output (`> /dev/full`) is
//!   reported on standard error, naming "standard output", exit code 1.
//! * Any other failure to write standard error ends the command with exit
//!   code 1; there is nowhere left to report it.

use std::io::{self, Write};
use std::process::ExitCode;

/// 128 + SIGPIPE (13): the shell's status for a command a closed pipe ended.
pub const EXIT_BROKEN_PIPE: u8 = 141;
/// The program has errors, or an output (standard output included) could
/// not be written.
pub const EXIT_PROGRAM_ERROR: u8 = 1;
/// Bad usage: unknown options, an unreadable input, an output that would
/// replace an input, binary SPIR-V for a terminal.
pub const EXIT_USAGE: u8 = 2;

/// Which standard stream a write failed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// A failed write to standard output or standard error.
#[derive(Debug)]
pub struct StreamError {
    pub stream: Stream,
    pub error: io::Error,
}

impl StreamError {
    pub fn stdout(error: io::Error) -> StreamError {
        StreamError {
            stream: Stream::Stdout,
            error,
        }
    }
    pub fn stderr(error: io::Error) -> StreamError {
        StreamError {
            stream: Stream::Stderr,
            error,
        }
    }
}

/// What a command comes to: its exit code, or a stream it could not write.
pub type Outcome = Result<u8, StreamError>;

/// Writes all of `bytes` to standard output and flushes it.
pub fn write_stdout(bytes: &[u8]) -> Result<(), StreamError> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(StreamError::stdout)
}

/// Writes all of `text` to standard error (unbuffered, so one call is one
/// write and messages of parallel compiles never interleave mid-line).
pub fn write_stderr(text: &str) -> Result<(), StreamError> {
    io::stderr()
        .lock()
        .write_all(text.as_bytes())
        .map_err(StreamError::stderr)
}

/// The exit code for what a command came to, reporting a failed write to
/// standard output on standard error.
pub fn exit_code(outcome: Outcome) -> ExitCode {
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(e) if e.error.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(EXIT_BROKEN_PIPE),
        Err(StreamError {
            stream: Stream::Stdout,
            error,
        }) => {
            // If standard error fails too, the exit code says it all.
            let _ = write_stderr(&format!("error: cannot write standard output: {error}\n"));
            ExitCode::from(EXIT_PROGRAM_ERROR)
        }
        Err(StreamError {
            stream: Stream::Stderr,
            ..
        }) => ExitCode::from(EXIT_PROGRAM_ERROR),
    }
}
