//! Front end, part one: text to syntax tree.

pub mod ast;
pub mod lexer;
mod parse;

pub(crate) use parse::parse_with;
pub use parse::{parse, parse_bounded, parse_statement, StatementSink, Stop, READ_PAST_LIMIT};
