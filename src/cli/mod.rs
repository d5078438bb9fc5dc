//! Subcommands of the `nvp4c` binary beyond compiling.

pub mod asm;
pub mod d3d9_args;
pub mod disasm;
pub mod link;
pub mod run;
