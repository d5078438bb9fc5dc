//! Warning control: which warnings are reported, silenced or made errors,
//! per code or all at once, in the order given (the command line's `-w`,
//! `-A`, `-W`, `-D` and `--deny-warnings`; [`Options::warnings`] in the
//! library).
//!
//! Like rustc's lint levels, a later setting overrides an earlier one for
//! the codes both cover: `-D warnings -A W0002` denies every warning but
//! W0002, which is silenced; `-A W0002 -D warnings` denies all of them.
//!
//! ```
//! use nvp4c::{Options, WarningLevel};
//! let source = "!!NVfp4.0\nTEMP unused;\nMOV result.color, fragment.color;\nEND\n";
//! let mut options = Options::default();
//! options.warnings.set("W0002", WarningLevel::Allow).unwrap();
//! assert!(nvp4c::compile(source, &options).unwrap().warnings.is_empty());
//!
//! options.warnings.set("warnings", WarningLevel::Deny).unwrap();
//! let errors = nvp4c::compile(source, &options).unwrap_err();
//! assert_eq!(errors.0[0].code, "W0002");
//! assert!(errors.0[0].is_error());
//! ```
//!
//! [`Options::warnings`]: crate::Options::warnings

use super::{Diagnostic, Severity};

/// What happens to a warning.
///
/// ```
/// assert_eq!(nvp4c::WarningLevel::default(), nvp4c::WarningLevel::Warn);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WarningLevel {
    /// Not reported at all (`-A CODE`, `-w`).
    Allow,
    /// Reported as a warning; compilation succeeds (the default, `-W CODE`).
    #[default]
    Warn,
    /// Reported as an error; compilation fails (`-D CODE`, `--deny-warnings`).
    Deny,
}

impl WarningLevel {
    /// The command-line flag that sets this level (`-A`, `-W`, `-D`).
    ///
    /// ```
    /// assert_eq!(nvp4c::WarningLevel::Deny.flag(), "-D");
    /// ```
    pub fn flag(self) -> &'static str {
        match self {
            WarningLevel::Allow => "-A",
            WarningLevel::Warn => "-W",
            WarningLevel::Deny => "-D",
        }
    }
}

/// The warning codes a setting covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Selector {
    /// Every warning (`warnings`, as in rustc's `-D warnings`).
    All,
    /// One warning code, from the registry (`nvp4c::codes`).
    Code(&'static str),
}

impl Selector {
    fn covers(self, code: &str) -> bool {
        match self {
            Selector::All => true,
            Selector::Code(c) => c == code,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Selector::All => "warnings",
            Selector::Code(c) => c,
        }
    }
}

/// Why a name given to [`WarningControl::set`] was refused.
///
/// ```
/// use nvp4c::{WarningControl, WarningLevel};
/// let err = WarningControl::default().set("E0301", WarningLevel::Allow).unwrap_err();
/// assert!(err.to_string().contains("is an error"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningControlError {
    /// Not `warnings` and not a code nvp4c has.
    UnknownCode(String),
    /// An error code (`E...`): errors cannot be allowed, warned or denied.
    NotAWarning(&'static str),
}

impl std::fmt::Display for WarningControlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WarningControlError::UnknownCode(name) => write!(
                f,
                "`{name}` is not a warning code (the warnings are {}, or `warnings` for all of them)",
                warning_codes().collect::<Vec<_>>().join(", ")
            ),
            WarningControlError::NotAWarning(code) => write!(
                f,
                "{code} is an error, not a warning: errors always stop compilation and cannot be allowed or denied"
            ),
        }
    }
}

impl std::error::Error for WarningControlError {}

fn warning_codes() -> impl Iterator<Item = &'static str> {
    crate::codes::CODES
        .iter()
        .map(|c| c.code)
        .filter(|c| c.starts_with('W'))
}

/// Per-code warning levels, applied in the order they were set (the last
/// setting that covers a code wins). The default reports every warning.
///
/// ```
/// use nvp4c::{WarningControl, WarningLevel};
/// let mut control = WarningControl::default();
/// control.set("warnings", WarningLevel::Deny).unwrap();
/// control.set("W0002", WarningLevel::Allow).unwrap();
/// assert_eq!(control.level("W0002"), WarningLevel::Allow);
/// assert_eq!(control.level("W0001"), WarningLevel::Deny);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WarningControl {
    settings: Vec<(Selector, WarningLevel)>,
}

impl WarningControl {
    /// Sets the level of one warning code (`W0002`), or of every warning
    /// (`warnings`), overriding what earlier settings said about it.
    ///
    /// ```
    /// use nvp4c::{WarningControl, WarningLevel};
    /// let mut control = WarningControl::default();
    /// assert!(control.set("W0001", WarningLevel::Deny).is_ok());
    /// assert!(control.set("W9999", WarningLevel::Deny).is_err());
    /// ```
    pub fn set(&mut self, name: &str, level: WarningLevel) -> Result<(), WarningControlError> {
        let selector = if name == "warnings" {
            Selector::All
        } else {
            match crate::codes::lookup(&name.to_ascii_uppercase()) {
                Some(info) if info.code.starts_with('W') => Selector::Code(info.code),
                Some(info) => return Err(WarningControlError::NotAWarning(info.code)),
                None => return Err(WarningControlError::UnknownCode(name.to_string())),
            }
        };
        self.settings.push((selector, level));
        Ok(())
    }

    /// The level of a warning code after every setting.
    ///
    /// ```
    /// let control = nvp4c::WarningControl::default();
    /// assert_eq!(control.level("W0002"), nvp4c::WarningLevel::Warn);
    /// ```
    pub fn level(&self, code: &str) -> WarningLevel {
        self.setting(code).map_or(WarningLevel::Warn, |(_, l)| l)
    }

    /// Whether no warning can be denied (so warnings never fail a compile).
    ///
    /// ```
    /// let mut control = nvp4c::WarningControl::default();
    /// assert!(!control.denies_any());
    /// control.set("W0005", nvp4c::WarningLevel::Deny).unwrap();
    /// assert!(control.denies_any());
    /// ```
    pub fn denies_any(&self) -> bool {
        warning_codes().any(|c| self.level(c) == WarningLevel::Deny)
    }

    fn setting(&self, code: &str) -> Option<(Selector, WarningLevel)> {
        self.settings
            .iter()
            .rev()
            .find(|(s, _)| s.covers(code))
            .copied()
    }

    /// Applies the levels to a program's diagnostics: allowed warnings are
    /// removed, denied ones become errors (keeping their code, with a note
    /// saying which setting denied them). Errors pass unchanged.
    ///
    /// ```
    /// use nvp4c::{Diagnostic, WarningControl, WarningLevel};
    /// let mut control = WarningControl::default();
    /// control.set("W0001", WarningLevel::Allow).unwrap();
    /// control.set("W0002", WarningLevel::Deny).unwrap();
    /// let mut diags = vec![
    ///     Diagnostic::warning("W0001", "read before written"),
    ///     Diagnostic::warning("W0002", "never used"),
    /// ];
    /// control.apply(&mut diags);
    /// assert_eq!(diags.len(), 1);
    /// assert!(diags[0].is_error() && diags[0].code == "W0002");
    /// ```
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.settings.is_empty() {
            return;
        }
        diagnostics.retain_mut(|d| {
            if d.severity != Severity::Warning {
                return true;
            }
            match self.setting(d.code) {
                Some((_, WarningLevel::Allow)) => false,
                Some((selector, WarningLevel::Deny)) => {
                    d.severity = Severity::Error;
                    d.notes.push(format!(
                        "`-D {}` makes this warning an error (Options::warnings)",
                        selector.name()
                    ));
                    true
                }
                _ => true,
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_setting_covering_a_code_wins() {
        let mut c = WarningControl::default();
        c.set("W0002", WarningLevel::Allow).unwrap();
        c.set("warnings", WarningLevel::Deny).unwrap();
        assert_eq!(c.level("W0002"), WarningLevel::Deny);
        c.set("W0002", WarningLevel::Warn).unwrap();
        assert_eq!(c.level("W0002"), WarningLevel::Warn);
        assert_eq!(c.level("W0001"), WarningLevel::Deny);
    }

    #[test]
    fn errors_and_unknown_codes_are_refused() {
        let mut c = WarningControl::default();
        assert_eq!(
            c.set("E0001", WarningLevel::Deny),
            Err(WarningControlError::NotAWarning("E0001"))
        );
        assert!(matches!(
            c.set("W12", WarningLevel::Deny),
            Err(WarningControlError::UnknownCode(_))
        ));
        assert_eq!(c, WarningControl::default());
        // Codes are matched without regard to case, as `--explain` does.
        c.set("w0002", WarningLevel::Deny).unwrap();
        assert_eq!(c.level("W0002"), WarningLevel::Deny);
    }

    #[test]
    fn errors_are_never_changed() {
        let mut c = WarningControl::default();
        c.set("warnings", WarningLevel::Allow).unwrap();
        let mut d = vec![Diagnostic::error("E0301", "x")];
        c.apply(&mut d);
        assert_eq!(d.len(), 1);
        assert!(d[0].notes.is_empty());
    }
}
