//! Tests that need no Vulkan device: the spec corpus, diagnostics and their
//! snapshots, the command line, the interpreter, linking, reflection, the
//! language server and hostile input.
//!
//! One test binary (not one per file) so SPIRV-Tools is linked once.

mod agal;
mod arb_dialects;
mod cg_fixtures;
mod checker_cg_program;
mod cli;
mod cli_messages;
mod cli_modes;
mod cli_output;
mod cli_streams;
mod d3d9_cli;
mod d3d9_fixtures;
mod diagnostics;
mod editors;
mod fixed_function;
mod hostile_input;
mod interp_alu;
mod interp_cli;
mod interp_flow;
mod json_diagnostics;
mod link_pipeline;
mod lsp_stdio;
mod nv5_program_types;
mod piglit_asmparser;
mod reflect_api;
mod renderer_options;
mod spec_corpus;
mod spirv_snapshots;
