//! Subcommands of the `nvp4c` binary beyond compiling.

pub mod link;
pub mod run;
pub mod disasm;
pub mod asm;
