//! The fixed-function companion programs (`nvp4c::fixed_function`): every
//! configuration compiles without a warning, and each links with the user
//! programs it stands in beside (values on the device:
//! tests/device/exec_fixed_function.rs).

use nvp4c::fixed_function::{
    fragment_program, fragment_program_source, vertex_program, vertex_program_source, EnvMode,
    FogSource, FragmentConfig, Light, Lighting, TexCoord, TextureTarget, TextureUnit, VertexConfig,
};
use nvp4c::ir::FogMode;
use nvp4c::link::check_pipeline;
use nvp4c::Options;

/// A spread of vertex configurations: lighting off and on with each kind
/// of light, local viewer, separate specular, normalisation, every texture
/// coordinate source, both fog sources.
fn vertex_configs() -> Vec<VertexConfig> {
    let mut out = vec![VertexConfig::default()];
    let lightings = [
        Lighting::default(),
        Lighting {
            lights: vec![Light::Directional],
            ..Lighting::default()
        },
        Lighting {
            lights: vec![Light::Point, Light::Spot, Light::Directional],
            local_viewer: true,
            separate_specular: true,
        },
        Lighting {
            lights: vec![Light::Spot; 8],
            local_viewer: false,
            separate_specular: false,
        },
    ];
    for (i, lighting) in lightings.into_iter().enumerate() {
        let mut c = VertexConfig::default();
        c.lighting = Some(lighting);
        c.normalize = i % 2 == 0;
        c.units = match i {
            0 => vec![TexCoord::Current],
            1 => vec![TexCoord::ObjectLinear, TexCoord::EyeLinear],
            2 => vec![TexCoord::SphereMap, TexCoord::Current, TexCoord::EyeLinear],
            _ => vec![TexCoord::Current; 8],
        };
        c.fog_source = if i % 2 == 0 {
            FogSource::FragmentDepth
        } else {
            FogSource::FogCoordinate
        };
        out.push(c);
    }
    out
}

fn fragment_configs() -> Vec<FragmentConfig> {
    let mut out = vec![FragmentConfig::default()];
    let envs = [
        EnvMode::Replace,
        EnvMode::Modulate,
        EnvMode::Decal,
        EnvMode::Blend,
        EnvMode::Add,
    ];
    let targets = [
        TextureTarget::T1D,
        TextureTarget::T2D,
        TextureTarget::T3D,
        TextureTarget::Cube,
        TextureTarget::Rect,
    ];
    for (i, env) in envs.into_iter().enumerate() {
        let mut c = FragmentConfig::default();
        c.units = vec![
            Some(TextureUnit {
                target: targets[i],
                env,
            }),
            None,
            Some(TextureUnit {
                target: TextureTarget::T2D,
                env: envs[(i + 1) % envs.len()],
            }),
        ];
        c.color_sum = i % 2 == 1;
        c.fog = [
            None,
            Some(FogMode::Linear),
            Some(FogMode::Exp),
            Some(FogMode::Exp2),
        ][i % 4];
        out.push(c);
    }
    out
}

#[test]
fn every_fixed_function_configuration_compiles_without_a_warning() {
    let options = Options::default();
    for c in vertex_configs() {
        let text = vertex_program_source(&c);
        match vertex_program(&c, &options) {
            Ok(compiled) => assert!(
                compiled.warnings.is_empty(),
                "{c:?}:\n{}\n{text}",
                compiled.warnings.render("ff.vp", &text, false)
            ),
            Err(d) => panic!("{c:?}:\n{}\n{text}", d.render("ff.vp", &text, false)),
        }
    }
    for c in fragment_configs() {
        let text = fragment_program_source(&c);
        match fragment_program(&c, &options) {
            Ok(compiled) => assert!(
                compiled.warnings.is_empty(),
                "{c:?}:\n{}\n{text}",
                compiled.warnings.render("ff.fp", &text, false)
            ),
            Err(d) => panic!("{c:?}:\n{}\n{text}", d.render("ff.fp", &text, false)),
        }
    }
}

/// The user programs write every varying the companions they pair with
/// read (a missing one is E1000, as for any pair).
#[test]
fn fixed_function_stages_link_with_user_programs_of_every_dialect() {
    let options = Options::default();
    let user_fp = [
        "!!ARBfp1.0\nTEMP t;\nTEX t, fragment.texcoord[1], texture[0], 2D;\nMUL result.color, t, fragment.color;\nEND\n",
        "!!NVfp4.0\nADD result.color, fragment.color.secondary, fragment.texcoord[7];\nEND\n",
        "!!ARBfp1.0\nOPTION ARB_fog_exp;\nMOV result.color, fragment.color;\nEND\n",
    ];
    let user_vp = [
        "!!ARBvp1.0\nOPTION ARB_position_invariant;\nMOV result.color, vertex.color;\nMOV result.color.secondary, vertex.color.secondary;\nMOV result.fogcoord.x, vertex.fogcoord.x;\nMOV result.texcoord[0], vertex.texcoord[0];\nMOV result.texcoord[2], vertex.texcoord[2];\nEND\n",
        "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV result.color, vertex.attrib[3];\nMOV result.color.secondary, vertex.attrib[3];\nMOV result.fogcoord.x, vertex.attrib[5].x;\nMOV result.texcoord[0], vertex.attrib[8];\nMOV result.texcoord[2], vertex.attrib[8];\nEND\n",
    ];
    for mut c in vertex_configs() {
        // The user programs read texture coordinates up to set 7.
        c.units.resize(8, TexCoord::Current);
        let vp = vertex_program_source(&c);
        for fp in user_fp {
            let report = check_pipeline(&[("ff.vp", &vp), ("user.fp", fp)], &options).unwrap();
            assert!(!report.has_errors(), "{c:?} with\n{fp}");
        }
    }
    for c in fragment_configs() {
        let fp = fragment_program_source(&c);
        for vp in user_vp {
            let report = check_pipeline(&[("user.vp", vp), ("ff.fp", &fp)], &options).unwrap();
            assert!(
                !report.has_errors(),
                "{c:?} with\n{vp}\n{}",
                report.render(&[("user.vp", vp), ("ff.fp", &fp)], false)
            );
        }
    }
}

#[test]
fn the_cli_links_a_fixed_function_vertex_stage_with_a_fragment_program() {
    let dir = std::env::temp_dir().join(format!("nvp4c-ff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut c = VertexConfig::default();
    c.lighting = Some(Lighting {
        lights: vec![Light::Point],
        ..Lighting::default()
    });
    c.units = vec![TexCoord::Current];
    std::fs::write(dir.join("ff.vp"), vertex_program_source(&c)).unwrap();
    std::fs::write(
        dir.join("user.fp"),
        "!!ARBfp1.0\nTEMP t;\nTEX t, fragment.texcoord[0], texture[0], 2D;\nMUL result.color, t, fragment.color;\nEND\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nvp4c"))
        .arg("link")
        .arg(dir.join("ff.vp"))
        .arg(dir.join("user.fp"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
