//! Front end, part one: text to syntax tree.

pub mod ast;
pub mod lexer;
mod parse;

pub use parse::{parse, parse_bounded, Stop, READ_PAST_LIMIT};
