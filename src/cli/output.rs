//! Writing a run's outputs safely.
//!
//! * **What is at the path is respected.** A regular file (or a new path)
//!   is replaced atomically: written to a temporary file beside it, then
//!   renamed over it. A symbolic link is followed: the file it names is
//!   replaced and the link stays. A device, FIFO or socket (`/dev/null`,
//!   `mkfifo`) is written in place, never replaced; `-` is standard output.
//! * **All outputs of a run or none.** Every file output is written to its
//!   temporary first; standard output and devices next; only then are the
//!   temporaries renamed over their targets. If any step fails, the
//!   temporaries are removed, files already renamed get their old contents
//!   back, and the command fails: the old files (or none) remain.
//! * **No output replaces an input or another output** ([`refuse_clashes`]):
//!   `nvp4c a.vp -o a.vp`, a source named `x.spv` compiled with the default
//!   output name, `-o f --reflect f` are refused before anything is done.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Where one output goes, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// `-`: standard output.
    Stdout,
    File(PathBuf),
}

impl Destination {
    pub fn from_arg(path: &Path) -> Destination {
        if path.as_os_str() == "-" {
            Destination::Stdout
        } else {
            Destination::File(path.to_path_buf())
        }
    }

    /// The name messages use: the path as given, or "standard output".
    pub fn shown(&self) -> String {
        match self {
            Destination::Stdout => "standard output".to_string(),
            Destination::File(p) => p.display().to_string(),
        }
    }
}

/// An output of a run: where, and what.
#[derive(Clone, Debug)]
pub struct Output {
    pub destination: Destination,
    pub contents: Contents,
}

/// What an output holds.
#[derive(Clone, Debug)]
pub enum Contents {
    Bytes(Vec<u8>),
    /// A SPIR-V module, written as its words' little-endian bytes (SPIR-V
    /// 3.1, "Magic Number": a consumer reads either order; little-endian is
    /// what every tool writes). The words are written a piece at a time,
    /// never copied into a byte buffer of the whole module: that copy was
    /// the peak memory of the command on a big program
    /// (docs/performance.md, "Session 9 (memory)").
    Words(Vec<u32>),
}

impl Contents {
    fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Contents::Bytes(bytes) => out.write_all(bytes),
            Contents::Words(words) => {
                // 64 KiB per write: few system calls, little memory.
                let mut piece = vec![0u8; 1 << 16];
                for chunk in words.chunks(piece.len() / 4) {
                    for (to, word) in piece.chunks_exact_mut(4).zip(chunk) {
                        to.copy_from_slice(&word.to_le_bytes());
                    }
                    out.write_all(&piece[..4 * chunk.len()])?;
                }
                Ok(())
            }
        }
    }
}

/// A failed write: which output (as messages name it), and why.
#[derive(Debug)]
pub struct OutputError {
    pub destination: Destination,
    pub error: io::Error,
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot write {}: {}",
            self.destination.shown(),
            self.error
        )
    }
}

/// How an existing (or new) path is written.
enum Target {
    Stdout,
    /// A device, FIFO or socket: opened and written in place.
    InPlace(PathBuf),
    /// A regular file or a new path (symbolic links followed to it):
    /// replaced by renaming a temporary file over it.
    Replace(PathBuf),
}

/// Follows symbolic links to the path they finally name, for a path that
/// does not exist yet (a link to a new file creates that file).
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    // As the kernel does (MAXSYMLINKS), give up on a loop after 40 links.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

fn target(destination: &Destination) -> io::Result<Target> {
    let path = match destination {
        Destination::Stdout => return Ok(Target::Stdout),
        Destination::File(p) => p,
    };
    // The kernel follows every link, /proc's "magic" ones too (`-o
    // /dev/stdout` names whatever standard output is).
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(Target::Replace(std::fs::canonicalize(path)?)),
        Ok(m) if m.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory",
        )),
        Ok(_) => Ok(Target::InPlace(path.clone())),
        // A new file, maybe named by a link that does not lead anywhere yet.
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Target::Replace(follow_links(path)?)),
        Err(e) => Err(e),
    }
}

#[cfg(unix)]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o666))
}

#[cfg(not(unix))]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    None
}

/// A file output written to its temporary, not yet renamed.
struct Staged {
    index: usize,
    real: PathBuf,
    temporary: tempfile::NamedTempFile,
}

/// Writes `contents` to a temporary file beside `real`.
fn stage(real: &Path, contents: &Contents) -> io::Result<tempfile::NamedTempFile> {
    let dir = match real.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // A temporary file is private (0600); the output is not: a replaced
    // file keeps its permissions, a new one gets what any new file gets
    // (0666 less the umask, which open(2) applies).
    let permissions = match std::fs::metadata(real) {
        Ok(m) => Some(m.permissions()),
        Err(_) => new_file_permissions(),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".nvp4c-");
    if let Some(p) = permissions {
        builder.permissions(p);
    }
    let mut tmp = builder.tempfile_in(dir).map_err(|e| {
        // tempfile's error names its random temporary path, which the user
        // never asked for: report the directory's own error if it has one,
        // else the kind of failure.
        std::fs::metadata(dir)
            .err()
            .unwrap_or_else(|| io::Error::from(e.kind()))
    })?;
    contents.write_to(&mut tmp)?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

/// Writes in place (a device or FIFO): opened for writing, never created
/// or replaced.
fn write_in_place(path: &Path, contents: &Contents) -> io::Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
    contents.write_to(&mut file)?;
    file.flush()
}

/// A file renamed over its target, with what it replaced.
struct Committed {
    real: PathBuf,
    /// A hard link to the replaced file, to put back if a later rename
    /// fails; `None` for a new file, or where no link could be made.
    backup: Option<PathBuf>,
    was_new: bool,
}

fn backup_of(real: &Path) -> Option<PathBuf> {
    let dir = match real.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    for n in 0..100u32 {
        let name = format!(".nvp4c-old-{}-{n}", std::process::id());
        let path = dir.join(name);
        match std::fs::hard_link(real, &path) {
            Ok(()) => return Some(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(_) => return None,
        }
    }
    None
}

/// Writes every output, or none: see the module documentation. Standard
/// output's own failures (a closed pipe) come back as an error for
/// [`Destination::Stdout`].
pub fn write_all(outputs: &[Output]) -> Result<(), OutputError> {
    let fail = |index: usize, error: io::Error| OutputError {
        destination: outputs[index].destination.clone(),
        error,
    };
    let mut targets = Vec::with_capacity(outputs.len());
    for (i, o) in outputs.iter().enumerate() {
        targets.push(target(&o.destination).map_err(|e| fail(i, e))?);
    }
    // 1. Every file to its temporary (dropping one removes it).
    let mut staged: Vec<Staged> = Vec::new();
    for (i, t) in targets.iter().enumerate() {
        if let Target::Replace(real) = t {
            let temporary = stage(real, &outputs[i].contents).map_err(|e| fail(i, e))?;
            staged.push(Staged {
                index: i,
                real: real.clone(),
                temporary,
            });
        }
    }
    // 2. Standard output and devices, which cannot be taken back.
    for (i, t) in targets.iter().enumerate() {
        let written = match t {
            Target::Stdout => {
                let mut out = io::stdout().lock();
                outputs[i]
                    .contents
                    .write_to(&mut out)
                    .and_then(|()| out.flush())
            }
            Target::InPlace(path) => write_in_place(path, &outputs[i].contents),
            Target::Replace(_) => Ok(()),
        };
        written.map_err(|e| fail(i, e))?;
    }
    // 3. The renames; a failure puts back what was already replaced.
    let mut committed: Vec<Committed> = Vec::new();
    for s in staged {
        let was_new = std::fs::symlink_metadata(&s.real).is_err();
        let backup = if was_new { None } else { backup_of(&s.real) };
        if let Err(e) = s.temporary.persist(&s.real) {
            if let Some(b) = &backup {
                let _ = std::fs::remove_file(b);
            }
            for c in committed.into_iter().rev() {
                match (&c.backup, c.was_new) {
                    (Some(b), _) => {
                        let _ = std::fs::rename(b, &c.real);
                    }
                    (None, true) => {
                        let _ = std::fs::remove_file(&c.real);
                    }
                    (None, false) => {}
                }
            }
            return Err(fail(s.index, e.error));
        }
        committed.push(Committed {
            real: s.real,
            backup,
            was_new,
        });
    }
    for c in committed {
        if let Some(b) = c.backup {
            let _ = std::fs::remove_file(b);
        }
    }
    Ok(())
}

/// What a path is, to tell whether two paths are one file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    /// An existing file: device and inode (or, off Unix, its canonical path).
    Existing(FileKey),
    /// A path that does not exist yet: its directory's canonical path and
    /// its name.
    New(PathBuf),
    Stdout,
}

#[cfg(unix)]
type FileKey = (u64, u64);
#[cfg(not(unix))]
type FileKey = PathBuf;

#[cfg(unix)]
fn file_key(_path: &Path, m: &std::fs::Metadata) -> FileKey {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

#[cfg(not(unix))]
fn file_key(path: &Path, _m: &std::fs::Metadata) -> FileKey {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn identity_of_path(path: &Path) -> Option<(Identity, bool)> {
    match std::fs::metadata(path) {
        Ok(m) => Some((
            Identity::Existing(file_key(path, &m)),
            m.file_type().is_file(),
        )),
        Err(_) => Some((
            Identity::New(new_path_key(&follow_links(path).ok()?)?),
            true,
        )),
    }
}

/// A path that does not exist yet, spelled one way: its nearest existing
/// ancestor's canonical path and the names below it (so two inputs going
/// to one file in an `--out-dir` not created yet are still caught).
fn new_path_key(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let mut below = Vec::new();
    let mut existing = absolute.as_path();
    loop {
        if let Ok(mut key) = std::fs::canonicalize(existing) {
            key.extend(below.iter().rev());
            return Some(key);
        }
        below.push(existing.file_name()?.to_os_string());
        existing = existing.parent()?;
    }
}

/// Standard input's file, when it is one (`nvp4c - -o a.vp < a.vp`).
#[cfg(not(unix))]
fn stdin_identity() -> Option<Identity> {
    None
}

/// Standard input's file, when it is one (`nvp4c - -o a.vp < a.vp`).
#[cfg(unix)]
fn stdin_identity() -> Option<Identity> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    let m = std::fs::File::from(fd).metadata().ok()?;
    m.file_type()
        .is_file()
        .then(|| Identity::Existing(file_key(Path::new("/dev/stdin"), &m)))
}

/// Why [`refuse_clashes`] refused a run, with the message to print.
#[derive(Debug)]
pub enum Clash {
    /// An output would replace an input.
    ReplacesInput(String),
    /// Two outputs would be written to one file.
    SharedFile(String),
}

impl std::fmt::Display for Clash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Clash::ReplacesInput(m) | Clash::SharedFile(m) => f.write_str(m),
        }
    }
}

/// An input of the run, for [`refuse_clashes`].
pub enum Input<'a> {
    Stdin,
    File(&'a Path),
}

/// Refuses (with the message to print) a run where an output would
/// replace an input, or two outputs are the same file (hard and symbolic
/// links included). Each output comes with what it is, for the message
/// ("the module of a.fp"). Outputs written in place (devices: `-o /dev/null
/// --reflect /dev/null`) replace nothing and may repeat; standard output
/// may not.
pub fn refuse_clashes(inputs: &[Input], outputs: &[(Destination, String)]) -> Result<(), Clash> {
    let mut seen: Vec<(Identity, &Destination, &str)> = Vec::new();
    let input_ids: Vec<(Identity, String)> = inputs
        .iter()
        .filter_map(|i| match i {
            Input::Stdin => stdin_identity().map(|id| (id, "standard input".to_string())),
            Input::File(p) => identity_of_path(p).map(|(id, _)| (id, p.display().to_string())),
        })
        .collect();
    for (out, what) in outputs {
        let (id, replaced) = match out {
            Destination::Stdout => (Identity::Stdout, true),
            Destination::File(p) => match identity_of_path(p) {
                Some(x) => x,
                // Unresolvable (a `..` below a missing directory): writing
                // it fails later with the OS's reason.
                None => continue,
            },
        };
        if !replaced {
            continue;
        }
        if let Some((_, name)) = input_ids.iter().find(|(i, _)| *i == id) {
            return Err(Clash::ReplacesInput(format!(
                "{what} would be written to {}, which is the input {name}: refusing to overwrite it",
                out.shown()
            )));
        }
        if let Some((_, first, first_what)) = seen.iter().find(|(i, _, _)| *i == id) {
            let place = if *first == out {
                out.shown()
            } else {
                format!("{} and {}, which are one file", first.shown(), out.shown())
            };
            return Err(Clash::SharedFile(format!(
                "{first_what} and {what} would both be written to {place}: each output needs a file of its own"
            )));
        }
        seen.push((id, out, what));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module of more words than one 64 KiB piece holds, and one of
    /// none, are written as the little-endian bytes of their words.
    #[test]
    fn words_are_written_as_their_little_endian_bytes() {
        for len in [0usize, 3, (1 << 14) + 5] {
            let words: Vec<u32> = (0..len as u32)
                .map(|i| i.wrapping_mul(0x0102_0304))
                .collect();
            let mut written = Vec::new();
            Contents::Words(words.clone())
                .write_to(&mut written)
                .unwrap();
            let expected: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert!(written == expected, "{len} words");
        }
    }
}
