//! Subcommands of the `nvp4c` binary beyond compiling.

pub mod bytecode;
pub mod link;
pub mod run;
