//! `nvp4c run`: the reference interpreter on the command line.

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Program to run.
    pub input: PathBuf,
}

pub fn main(args: RunArgs) -> ExitCode {
    eprintln!(
        "error: `nvp4c run {}`: the reference interpreter is not built yet",
        args.input.display()
    );
    ExitCode::from(2)
}
