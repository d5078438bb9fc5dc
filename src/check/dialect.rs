//! Features a program uses that its language does not have.
//!
//! Every such rule is one question asked of the dialect tables ("does this
//! opcode / modifier / binding / declaration exist in this dialect?"); the
//! answer for the program's own dialect decides, and the same question
//! asked of the dialects its header can reach with one more option says
//! what to write instead: `E0730` names the option that provides the
//! feature, `E0731` says that no option of this header does (the feature
//! belongs to another language, e.g. NV_gpu_program4's integer
//! instructions in a `!!ARBfp1.0` program).

use super::Checker;
use crate::diag::Diagnostic;
use crate::isa::{options_of, Dialect};
use crate::span::Span;

impl Checker<'_> {
    /// Reports that `what` (e.g. "`SEQ`", "the `X` suffix") does not exist
    /// in this program's dialect. `exists` answers for any dialect; `rule`
    /// is the sentence of the spec that defines the feature.
    pub(super) fn unavailable(
        &mut self,
        what: &str,
        span: Span,
        exists: impl Fn(Dialect) -> bool,
        rule: &str,
    ) {
        let d = unavailable(self.dialect, what, span, exists, rule);
        self.error(d);
    }
}

/// The first option of the dialect's header (in table order) that, added to
/// the options already given, makes `exists` true.
pub(super) fn option_providing(
    dialect: Dialect,
    exists: impl Fn(Dialect) -> bool,
) -> Option<&'static crate::isa::OptionInfo> {
    let header = dialect.header;
    // An option that provides it by itself first: ARB_fragment_program_shadow
    // on a vertex program only brings NV_vertex_program3's features along
    // with its requirement, and is no answer for `|x|`.
    let alone = options_of(header).find(|o| {
        let mut with = dialect;
        with.enable(o.features);
        exists(with)
    });
    alone.or_else(|| {
        options_of(header).find(|o| {
            let mut with = dialect;
            with.enable(o.features);
            // An option that needs another first (ARB_fragment_program_shadow
            // on a vertex program) is tried with it.
            if let Some((h, f)) = o.requires {
                if h == header {
                    with.enable(f);
                }
            }
            exists(with)
        })
    })
}

/// The diagnostic of [`Checker::unavailable`], for code without a checker
/// at hand (the binding decoder).
pub(super) fn unavailable(
    dialect: Dialect,
    what: &str,
    span: Span,
    exists: impl Fn(Dialect) -> bool,
    rule: &str,
) -> Diagnostic {
    let header = dialect.header;
    // The options of this header, in table order (NV_vertex_program2
    // before NV_vertex_program3), tried one at a time on top of the
    // options already given.
    let provider = option_providing(dialect, exists);
    match provider {
        Some(o) => {
            let mut d = Diagnostic::error("E0730", format!("{what} needs `OPTION {};`", o.name))
                .primary(span, format!("not part of plain {header}"))
                .note(format!(
                    "{}: the `{}` option provides {}",
                    o.spec, o.name, o.summary
                ));
            if !rule.is_empty() {
                d = d.note(rule.to_string());
            }
            d.note(format!(
                "add `OPTION {};` after the `{header}` header",
                o.name
            ))
        }
        None => {
            let mut d = Diagnostic::error(
                "E0731",
                format!("{what} does not exist in {header} programs"),
            )
            .primary(span, format!("not part of the {} language", header.spec()));
            if !rule.is_empty() {
                d = d.note(rule.to_string());
            }
            d.note(format!(
                "no option of {} provides it (the options are: {})",
                header.spec(),
                options_of(header)
                    .map(|o| o.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    }
}
