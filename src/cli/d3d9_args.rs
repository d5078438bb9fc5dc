//! The compiler's Direct3D 9 options on the command line
//! (`nvp4c::front::d3d9::D3d9Options`, docs/interface.md "Direct3D 9").

use nvp4c::front::d3d9::table::SamplerType;
use nvp4c::Options;

#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Direct3D 9 shaders")]
pub struct D3d9Args {
    /// Negate y of the position a vertex shader writes (Direct3D 9's clip
    /// space has y up, Vulkan's down); or use a negative viewport height.
    #[arg(long)]
    pub d3d9_flip_y: bool,

    /// Add w × the state block's position offset to the position (the
    /// half-pixel offset of Direct3D 9's rasterisation, in the shader).
    #[arg(long)]
    pub d3d9_half_pixel_offset: bool,

    /// vPos is FragCoord as Vulkan gives it (pixel centres at .5) rather
    /// than Direct3D 9's integer pixel coordinates.
    #[arg(long)]
    pub d3d9_vulkan_vpos: bool,

    /// Clamp ps_1_x results to ±this value (PixelShader1xMaxValue).
    #[arg(long, value_name = "MAX")]
    pub d3d9_ps1x_max_value: Option<f32>,

    /// Do not clamp ps_1_x constants to [-1, 1].
    #[arg(long)]
    pub d3d9_no_ps1x_constant_clamp: bool,

    /// ps_1_x texture stage types, stage 0 first: 2d, cube or volume,
    /// comma-separated (the rest stay 2d).
    #[arg(long, value_name = "TYPES", value_delimiter = ',', value_parser = parse_stage_type)]
    pub d3d9_stage_types: Vec<SamplerType>,

    /// Bit mask of ps_1_x texture stages with D3DTTFF_PROJECTED.
    #[arg(long, value_name = "MASK", value_parser = parse_mask)]
    pub d3d9_projected_stages: Option<u8>,

    /// D3DSHADE_FLAT: colour inputs are not interpolated.
    #[arg(long)]
    pub d3d9_flat_shading: bool,
}

fn parse_stage_type(s: &str) -> Result<SamplerType, String> {
    match s.trim() {
        "2d" => Ok(SamplerType::T2D),
        "cube" => Ok(SamplerType::Cube),
        "volume" | "3d" => Ok(SamplerType::Volume),
        other => Err(format!("`{other}`: a stage type is 2d, cube or volume")),
    }
}

fn parse_mask(s: &str) -> Result<u8, String> {
    let t = s.trim();
    let v = match t.strip_prefix("0x") {
        Some(h) => u8::from_str_radix(h, 16),
        None => t.parse::<u8>(),
    };
    v.map_err(|_| format!("`{s}`: a mask of stages 0-7 (0-255 or 0x00-0xff)"))
}

impl D3d9Args {
    /// Sets the options these arguments give.
    pub fn apply(&self, options: &mut Options) -> Result<(), String> {
        if self.d3d9_stage_types.len() > 8 {
            return Err("--d3d9-stage-types: ps_1_x has 8 texture stages".into());
        }
        let o = &mut options.d3d9;
        o.flip_y = self.d3d9_flip_y;
        o.half_pixel_offset = self.d3d9_half_pixel_offset;
        o.integer_pixel_centers = !self.d3d9_vulkan_vpos;
        o.ps1x_max_value = self.d3d9_ps1x_max_value;
        o.ps1x_clamp_constants = !self.d3d9_no_ps1x_constant_clamp;
        for (n, t) in self.d3d9_stage_types.iter().enumerate() {
            o.ps1x_stage_types[n] = *t;
        }
        if let Some(m) = self.d3d9_projected_stages {
            o.ps1x_projected_stages = m;
        }
        o.flat_shading = self.d3d9_flat_shading;
        Ok(())
    }
}
