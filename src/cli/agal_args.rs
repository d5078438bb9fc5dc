//! The compiler's AGAL options on the command line
//! (`nvp4c::front::agal::AgalOptions`, docs/interface.md "AGAL").

use nvp4c::{Options, Stage};

/// A program type AGAL has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AgalStage {
    Vertex,
    Fragment,
}

impl From<AgalStage> for Stage {
    fn from(s: AgalStage) -> Stage {
        match s {
            AgalStage::Vertex => Stage::Vertex,
            AgalStage::Fragment => Stage::Fragment,
        }
    }
}

#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "AGAL programs")]
pub struct AgalArgs {
    /// Read program text as AGAL assembly (AGALMiniAssembler's syntax) of
    /// this program type. AGAL bytecode needs no flag: its header says.
    #[arg(long, value_enum, value_name = "STAGE")]
    pub agal_stage: Option<AgalStage>,

    /// The AGAL version of AGAL assembly text, 1 to 3 (default 1, or the
    /// version its `// AGAL2 vertex` first line names).
    #[arg(long, value_name = "N")]
    pub agal_version: Option<u32>,

    /// Negate the y of an AGAL vertex program's `op`: Stage3D's clip space
    /// (y up) to Vulkan's (y down) (docs/interface.md, "AGAL").
    #[arg(long)]
    pub agal_flip_y: bool,
}

impl AgalArgs {
    /// The options every input shares.
    pub fn apply(&self, options: &mut Options) {
        options.agal.flip_y = self.agal_flip_y;
    }

    /// How the text of one input is read: as AGAL assembly when a flag
    /// says so (the stage from `--agal-stage` or the text's first line);
    /// without flags the library decides from the first line itself.
    pub fn apply_to_text(&self, text: &str, options: &mut Options) -> Result<(), String> {
        if self.agal_stage.is_none() && self.agal_version.is_none() {
            return Ok(());
        }
        match agal_target(text, self.agal_stage, self.agal_version) {
            Some(target) => {
                options.agal.assembly = Some(target);
                Ok(())
            }
            None => Err(
                "--agal-version needs --agal-stage (or a `// AGAL<version> <vertex|fragment>` first line)"
                    .to_string(),
            ),
        }
    }
}

/// The stage and version of AGAL assembly text: the flags, else its
/// `// AGAL2 vertex` first line, else version 1; `None` without a stage.
pub fn agal_target(
    text: &str,
    stage: Option<AgalStage>,
    version: Option<u32>,
) -> Option<(Stage, u32)> {
    let named = nvp4c::front::agal::header_directive(text);
    let stage = stage.map(Stage::from).or(named.map(|n| n.0))?;
    Some((stage, version.or(named.map(|n| n.1)).unwrap_or(1)))
}
