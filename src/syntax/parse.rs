//! LALRPOP glue: runs the lexer and the generated parser, and turns parse
//! errors into diagnostics.

use super::ast::{Arg, Ast, Instruction, Operand, Statement};
use super::lexer::{read_header, Lexer, Tok};
use crate::diag::Diagnostic;
use crate::isa::Header;
use crate::span::Span;
use lalrpop_util::ParseError;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens, dead_code)]
    grammar,
    "/nvp4.rs"
);

/// Why the parser stopped before the end of the program, other than a
/// syntax error it could not recover from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The instruction at this span was one more than the parse was allowed
    /// to read ([`parse_bounded`]).
    TooManyInstructions(Span),
}

/// Parses a whole program. Returns the tree (with `Statement::Error` where
/// a statement could not be read) unless the program could not be read to
/// its `END`, and every diagnostic found on the way.
///
/// ```
/// let (ast, diags) = nvp4c::syntax::parse("!!NVfp4.0\nMOV result.color, 1;\nEND\n");
/// assert_eq!(ast.unwrap().statements.len(), 1);
/// assert!(diags.is_empty());
/// ```
pub fn parse(source: &str) -> (Option<Ast>, Vec<Diagnostic>) {
    parse_bounded(source, usize::MAX)
}

/// How many times the instruction limit [`parse_bounded`] reads before it
/// stops.
pub const READ_PAST_LIMIT: usize = 4;

/// [`parse`] for a program allowed `max_instructions` instructions: it
/// reads at most [`READ_PAST_LIMIT`] times as many, and stops at the next
/// one with `E0800`. Such a program fails anyway; stopping early bounds the
/// time and memory hostile input can take by the limit instead of by the
/// size of the text. Up to that point every error is reported as usual
/// (e.g. 100 000 nested `IF`s, 200 000 instructions, get their depth error).
///
/// ```
/// let source = format!("!!NVfp4.0\n{}END\n", "MOV result.color, 1;\n".repeat(10));
/// let (ast, diags) = nvp4c::syntax::parse_bounded(&source, 2); // reads 8
/// assert!(ast.is_none());
/// assert_eq!(diags[0].code, "E0800");
/// ```
pub fn parse_bounded(source: &str, max_instructions: usize) -> (Option<Ast>, Vec<Diagnostic>) {
    let (parsed, diagnostics) = parse_with(source, max_instructions, |_| Vec::new());
    let ast = parsed.map(|p| Ast {
        stage: p.header.stage(),
        program_header: p.header,
        header: p.header_span,
        statements: p.sink,
        end: Some(p.end),
    });
    (ast, diagnostics)
}

/// Where the parser puts each statement as soon as it has read it, in
/// program order (options, declarations, then the rest, as written).
pub trait StatementSink {
    /// Takes the next statement.
    fn statement(&mut self, statement: Statement);
}

/// The action of `<statement> ::= <instruction> ";"`: hands the
/// instruction to the sink, or stops the parse when it is one more than
/// `budget` allows ([`parse_bounded`]).
pub(crate) fn take_instruction<'input>(
    sink: &mut dyn StatementSink,
    budget: &mut usize,
    instruction: Instruction,
) -> Result<(), ParseError<usize, Tok<'input>, Stop>> {
    if *budget == 0 {
        return Err(ParseError::User {
            error: Stop::TooManyInstructions(instruction.span),
        });
    }
    *budget -= 1;
    sink.statement(Statement::Instruction(instruction));
    Ok(())
}

/// The argument list of an instruction, from its first operand. Room for
/// four: nearly every instruction has two to four arguments (Table X.13),
/// so the list is allocated once and the others are pushed without
/// growing it.
pub(crate) fn first_argument(first: Operand) -> Vec<Arg> {
    let mut args = Vec::with_capacity(4);
    args.push(Arg::Operand(first));
    args
}

/// Collects the statements: the syntax tree.
impl StatementSink for Vec<Statement> {
    fn statement(&mut self, statement: Statement) {
        self.push(statement);
    }
}

/// A program read to its `END`.
pub(crate) struct Parsed<S> {
    pub header: Header,
    pub header_span: Span,
    pub end: Span,
    /// The sink, having taken every statement.
    pub sink: S,
}

/// Parses a program, handing each statement to the sink that `make_sink`
/// builds for the program's header as soon as the
/// statement is read; reads at most [`READ_PAST_LIMIT`] × `max_instructions`
/// instructions (see [`parse_bounded`]). The sink has seen a prefix of the
/// program when this returns `None`: the program could not be read to its
/// `END`, and the diagnostics say why.
pub(crate) fn parse_with<S: StatementSink>(
    source: &str,
    max_instructions: usize,
    make_sink: impl FnOnce(Header) -> S,
) -> (Option<Parsed<S>>, Vec<Diagnostic>) {
    let limit = max_instructions;
    let (header, start) = match read_header(source) {
        Ok(h) => h,
        Err(d) => return (None, vec![d]),
    };
    let mut sink = make_sink(header);
    let mut lexer = Lexer::new(source, start, header);
    let mut recovered = Vec::new();
    let mut budget = max_instructions.saturating_mul(READ_PAST_LIMIT);
    let result =
        grammar::programParser::new().parse(&mut recovered, &mut budget, &mut sink, &mut lexer);
    let mut diagnostics = std::mem::take(&mut lexer.diagnostics);
    for r in recovered {
        diagnostics.push(syntax_error(r.error, source, limit));
    }
    let parsed = match result {
        Ok(end) => Some(Parsed {
            header,
            header_span: Span::new(0, start),
            end,
            sink,
        }),
        Err(e) => {
            diagnostics.push(syntax_error(e, source, limit));
            None
        }
    };
    diagnostics.sort_by_key(|d| d.primary_span().map(|s| s.start));
    (parsed, diagnostics)
}

/// Parses the tokens of one statement as a program of their own (the
/// tokens, then an `END` at `end`), for the language server, which reads a
/// program statement by statement so that an edit re-reads only the
/// statements it touches (src/lsp/analysis.rs). `None` when they are not a
/// statement the grammar can read (a statement the grammar skips to its
/// `;` comes back as `Statement::Error`).
///
/// ```
/// use nvp4c::syntax::lexer::{Lexer, Tok};
/// let text = "MOV R0, R1;";
/// let tokens: Vec<_> = Lexer::new(text, 0, nvp4c::isa::Header::NvFp4).collect();
/// let statements = nvp4c::syntax::parse_statement(tokens, text.len()).unwrap();
/// assert!(matches!(&statements[0], nvp4c::syntax::ast::Statement::Instruction(i) if i.opcode.name == "MOV"));
/// ```
pub fn parse_statement<'a>(
    tokens: impl IntoIterator<Item = (usize, Tok<'a>, usize)>,
    end: usize,
) -> Option<Vec<Statement>> {
    let mut recovered = Vec::new();
    let mut budget = usize::MAX;
    let mut statements: Vec<Statement> = Vec::new();
    let tokens = tokens
        .into_iter()
        .chain(std::iter::once((end, Tok::End, end)));
    grammar::programParser::new()
        .parse(&mut recovered, &mut budget, &mut statements, tokens)
        .ok()?;
    Some(statements)
}

/// A terminal of the grammar as a person would name it.
fn describe_expected(terminal: &str) -> String {
    match terminal {
        "WORD" => "a name".into(),
        "INT" => "an integer".into(),
        "FLOAT" => "a number".into(),
        t => format!("`{}`", t.trim_matches('"')),
    }
}

/// Tokens that can start an operand; when all of them are expected, the
/// message says "an operand" instead of listing them.
const OPERAND_START: &[&str] = &[
    "WORD",
    "INT",
    "FLOAT",
    "\"{\"",
    "\"-\"",
    "\"+\"",
    "\"|\"",
    "\"fragment\"",
    "\"vertex\"",
    "\"primitive\"",
    "\"program\"",
    "\"result\"",
    "\"state\"",
    "\"texture\"",
];

fn expected_list(expected: &[String]) -> String {
    let operand = expected.iter().any(|t| t == "\"|\"") && expected.iter().any(|t| t == "WORD");
    let mut items: Vec<String> = Vec::new();
    if operand {
        items.push("an operand".into());
    }
    for t in expected {
        if operand && OPERAND_START.contains(&t.as_str()) {
            continue;
        }
        let d = describe_expected(t);
        if !items.contains(&d) {
            items.push(d);
        }
    }
    match items.len() {
        0 => "something else".into(),
        1 => items.remove(0),
        n if n <= 6 => {
            let last = items.pop().unwrap_or_default();
            format!("{} or {}", items.join(", "), last)
        }
        n => format!(
            "{}, or one of {} other tokens",
            items[..3].join(", "),
            n - 3
        ),
    }
}

/// If the token at `at` is the first code on its line, the end of the code
/// on the nearest earlier line with any (comments and blanks skipped).
fn code_end_before_line_of(source: &str, at: usize) -> Option<usize> {
    let at = at.min(source.len());
    let line_start = source[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    if !source[line_start..at].trim().is_empty() {
        return None;
    }
    let mut end = line_start;
    while end > 0 {
        let before = &source[..end];
        let trimmed = before.trim_end_matches(['\n', '\r']);
        let start = trimmed.rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let line = &trimmed[start..];
        let code = line.split('#').next().unwrap_or("").trim_end();
        if !code.is_empty() {
            return Some(start + code.len());
        }
        if start == 0 {
            return None;
        }
        end = start;
    }
    None
}

fn syntax_error(e: ParseError<usize, Tok<'_>, Stop>, source: &str, limit: usize) -> Diagnostic {
    match e {
        ParseError::UnrecognizedToken {
            token: (l, tok, r),
            expected,
        } => {
            let found = tok.describe();
            // A token that starts a new line where `;` was expected: the `;`
            // is missing at the end of the line before.
            if expected.iter().any(|t| t == "\";\"") {
                if let Some(end) = code_end_before_line_of(source, l) {
                    return Diagnostic::error("E0100", "missing `;`")
                        .primary(Span::new(end, end), "expected `;` here")
                        .secondary(
                            Span::new(l, r),
                            format!("the next statement, {found}, starts here"),
                        )
                        .note("section 2.X.2: every instruction and declaration ends with `;`");
                }
            }
            let wants_end = expected.iter().any(|t| t == "\"END\"");
            let mut d = Diagnostic::error(
                "E0100",
                format!("expected {}, found {}", expected_list(&expected), found),
            )
            .primary(Span::new(l, r), "unexpected here");
            let starts_operand = matches!(
                tok,
                Tok::Word(_) | Tok::Int(_) | Tok::Float(_) | Tok::LBrace | Tok::Minus | Tok::Pipe
            ) || matches!(
                tok,
                Tok::Fragment
                    | Tok::Vertex
                    | Tok::Primitive
                    | Tok::Invocation
                    | Tok::Program
                    | Tok::Result
                    | Tok::State
                    | Tok::Texture
                    | Tok::Image
            );
            if starts_operand && expected.iter().any(|t| t == "\",\"") {
                d = d.note("operands are separated by `,` (section 2.X.2)");
            }
            let reserved = matches!(
                tok,
                Tok::Fragment
                    | Tok::Vertex
                    | Tok::Primitive
                    | Tok::Invocation
                    | Tok::Program
                    | Tok::Result
                    | Tok::State
                    | Tok::Texture
                    | Tok::Image
            );
            if reserved && expected.iter().any(|t| t == "WORD") {
                return Diagnostic::error("E0302", format!("`{}` is a reserved keyword", tok.text()))
                    .primary(Span::new(l, r), "cannot be used as a name")
                    .note("section 2.X.2: \"The following strings are reserved keywords and may not be used as identifiers: \"fragment\" (for fragment programs only), \"vertex\" (for vertex and geometry programs), \"primitive\" (for fragment and geometry programs), \"program\", \"result\", \"state\", and \"texture\".\"");
            }
            if tok == Tok::Option {
                d = d.note("section 2.X.2: `OPTION` statements come first, before any declaration or instruction");
            } else if wants_end
                && matches!(tok, Tok::Word(_))
                && expected.iter().any(|t| t == "\";\"")
            {
                d = d.note("section 2.X.2: every instruction and declaration ends with `;`");
            }
            d
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let at = source.len().min(location);
            let wants_end = expected.iter().any(|t| t == "\"END\"");
            let d = Diagnostic::error(
                "E0101",
                if wants_end {
                    "the program ends without `END`".to_string()
                } else {
                    format!(
                        "the program ends in the middle of a statement: expected {}",
                        expected_list(&expected)
                    )
                },
            )
            .primary(Span::new(at, at), "program text ends here");
            if wants_end {
                d.note("section 2.X.2: <program> ::= <optionSequence> <declSequence> <statementSequence> \"END\"")
            } else {
                d
            }
        }
        ParseError::ExtraToken { token: (l, tok, r) } => {
            Diagnostic::error("E0100", format!("unexpected {}", tok.describe()))
                .primary(Span::new(l, r), "not expected here")
        }
        ParseError::InvalidToken { location } => Diagnostic::error("E0001", "invalid token")
            .primary(Span::new(location, location + 1), "here"),
        ParseError::User {
            error: Stop::TooManyInstructions(at),
        } => Diagnostic::error(
            "E0800",
            format!("more than {READ_PAST_LIMIT} times the limit of {limit} instructions"),
        )
        .primary(at, "nvp4c stopped reading the program here")
        .note("ARB_vertex_program / ARB_fragment_program: a program fails to load if it exceeds MAX_PROGRAM_INSTRUCTIONS_ARB; see docs/limits.md")
        .note(format!("a program at {READ_PAST_LIMIT} times the limit is not read further, so that hostile input cannot take time and memory in proportion to its size")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::*;

    const ISSUE_EXAMPLE: &str = "!!NVfp4.0
# cgc version 2.2.0017, build date Jan 29 2010
#profile gp4fp
#var float4 tint :  : c[0] : 1 : 1
PARAM c[2] = { program.local[0..1] };
ATTRIB fragment_texcoord[] = { fragment.texcoord[0..0] };
TEMP R0;
TEMP RC, HC;
MUL.F R0, fragment.texcoord[0], c[0];
MAD.F R0.xyz, R0, {2, 0.5}.x, -c[1];
DP3.F.SAT R0.w, R0, {0.25, 0.5, 0.25};
ADDR_SAT R0.x, R0.x, {0.125}.x;
MOV.F result.color, R0;
END
# 5 instructions, 1 R-regs
";

    #[test]
    fn cg_output_parses() {
        let (ast, diags) = parse(ISSUE_EXAMPLE);
        assert!(diags.is_empty(), "{diags:?}");
        let ast = ast.unwrap();
        assert_eq!(ast.statements.len(), 9);
        assert!(
            matches!(&ast.statements[4], Statement::Instruction(i) if i.opcode.name == "MUL" && i.modifiers[0].name == "F")
        );
    }

    #[test]
    fn crlf_and_cr_line_ends_parse_the_same() {
        let (a, d1) = parse(&ISSUE_EXAMPLE.replace('\n', "\r\n"));
        let (b, d2) = parse(&ISSUE_EXAMPLE.replace('\n', "\r"));
        assert!(d1.is_empty() && d2.is_empty());
        assert_eq!(a.unwrap().statements.len(), b.unwrap().statements.len());
    }

    #[test]
    fn every_syntax_error_is_reported_in_one_run() {
        let src = "!!NVfp4.0\nTEMP R0;\nMOV R0 R0;\nADD R0, , R0;\nMUL R0, R0 R0;\nMOV result.color, R0;\nEND\n";
        let (ast, diags) = parse(src);
        assert!(ast.is_some());
        let lines: Vec<usize> = diags
            .iter()
            .map(|d| {
                src[..d.primary_span().unwrap().start as usize]
                    .matches('\n')
                    .count()
                    + 1
            })
            .collect();
        assert_eq!(lines, vec![3, 4, 5], "{diags:#?}");
        let tokens: Vec<&str> = diags
            .iter()
            .map(|d| &src[d.primary_span().unwrap().range()])
            .collect();
        assert_eq!(tokens, vec!["R0", ",", "R0"]);
    }

    #[test]
    fn condition_code_names_are_identifiers() {
        let src =
            "!!NVfp4.0\nTEMP EQ, GT;\nMOVC EQ, GT;\nIF EQ.x;\nMOV EQ (GT1.xxyy), GT;\nENDIF;\nEND";
        let (ast, diags) = parse(src);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(ast.unwrap().statements.len(), 5);
    }

    #[test]
    fn geometry_declarations_take_a_semicolon() {
        let src = "!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 3;\nMOV result.position, vertex[0].position;\nEMIT;\nEND";
        let (ast, diags) = parse(src);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(ast.unwrap().statements.len(), 5);
    }

    #[test]
    fn missing_end_is_reported_at_the_end() {
        let (ast, diags) = parse("!!NVvp4.0\nMOV result.position, vertex.position;\n");
        assert!(ast.is_none());
        assert_eq!(diags[0].code, "E0101");
    }

    #[test]
    fn unknown_header_is_reported() {
        let (_, diags) = parse("!!ARBfp2.0\nEND");
        assert_eq!(diags[0].code, "E0002");
        let (_, diags) = parse(" !!ARBfp1.0\nEND");
        assert_eq!(diags[0].code, "E0002");
        let (ast, diags) = parse("!!ARBvp1.0\nEND");
        assert!(diags.is_empty());
        assert_eq!(ast.unwrap().program_header, Header::ArbVp1);
    }

    #[test]
    fn operands_keep_spans_and_modifiers() {
        let src = "!!NVfp4.0\nTEX.S R0, -|c[A0.x + 3].xy|, texture[1], 2D, (1,-2);\nEND";
        let (ast, diags) = parse(src);
        assert!(diags.is_empty(), "{diags:?}");
        let ast = ast.unwrap();
        let Statement::Instruction(i) = &ast.statements[0] else {
            panic!()
        };
        assert_eq!(i.args.len(), 5);
        let Arg::Operand(o) = &i.args[1] else {
            panic!()
        };
        assert!(o.negate && o.abs == Some(false));
        assert_eq!(&src[o.span.range()], "-|c[A0.x + 3].xy|");
        assert!(matches!(&i.args[4], Arg::Offset(v, _) if v.len() == 2 && v[1].negative));
    }
}

/// The sizes that decide the parser's stack symbol (every shift and reduce
/// moves one): see docs/performance.md, "Session 10 (parser symbol)".
#[cfg(test)]
mod symbol_size {
    use super::Stop;
    use crate::syntax::ast::*;
    use crate::syntax::lexer::Tok;
    use std::mem::size_of;

    /// LALRPOP's stack symbol is as large as the largest value it holds,
    /// and every shift and reduce moves it (docs/performance.md, "Session
    /// 10 (parser symbol)"): these are the sizes that decide it now, so a
    /// change that grows one of them is seen here, not only in a profile.
    #[test]
    fn the_values_that_size_the_parser_symbol_do_not_grow() {
        type Recovery<'a> = lalrpop_util::ErrorRecovery<usize, Tok<'a>, Stop>;
        assert_eq!(size_of::<Text>(), 16);
        assert!(size_of::<Ident>() <= 24);
        assert!(size_of::<IntLit>() <= 24);
        assert!(size_of::<Number>() <= 32);
        assert!(size_of::<IndexExpr>() <= 56);
        assert!(size_of::<PathPart>() <= 64);
        assert!(size_of::<(Ident, Option<ArraySize>)>() <= 56);
        assert!(size_of::<SignedNumber>() <= 48);
        assert!(size_of::<Operand>() <= 88);
        assert!(size_of::<Arg>() <= 88);
        assert!(size_of::<Recovery>() <= 88);
        assert!(size_of::<Init>() <= 88);
        assert!(size_of::<InitItem>() <= 88);
    }
}
