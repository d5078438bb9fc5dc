//! AGAL register names and the interpreter's binding names
//! ([`crate::interp`]'s keys), for `nvp4c run shader.agal --set va0=...`
//! and its output.
//!
//! ```
//! use nvp4c::{front::agal::names, Stage};
//! assert_eq!(names::input_name(Stage::Vertex, "va3").as_deref(), Some("vertex.attrib[3]"));
//! assert_eq!(names::input_name(Stage::Fragment, "fc2").as_deref(), Some("program.env[2]"));
//! assert_eq!(names::result_register("result.attrib[1]").as_deref(), Some("v1"));
//! ```

use crate::Stage;

/// Splits `vc12` into (`vc`, 12); a name without a number is register 0.
fn split(name: &str) -> Option<(&str, u32)> {
    let letters = name.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (reg, digits) = name.split_at(letters);
    let n = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    Some((reg, n))
}

/// The interpreter's input name of the AGAL register `agal` read by a
/// program of `stage` (`va0`, `vc5`, `fc0`, `v1` in fragment programs,
/// `iid`); `None` for a name that is no readable input.
pub fn input_name(stage: Stage, agal: &str) -> Option<String> {
    let (reg, n) = split(agal)?;
    Some(match (stage, reg) {
        (Stage::Vertex, "va") => format!("vertex.attrib[{n}]"),
        (Stage::Vertex, "vc") | (Stage::Fragment, "fc") => format!("program.env[{n}]"),
        (Stage::Fragment, "v") => format!("fragment.attrib[{n}]"),
        (Stage::Vertex, "iid") if n == 0 => "vertex.instance".to_string(),
        _ => return None,
    })
}

/// The AGAL register of an interpreter result name: `result.position` →
/// `op`, `result.color[1]` → `oc1`, `result.attrib[2]` → `v2`,
/// `result.depth` → `od`.
pub fn result_register(result: &str) -> Option<String> {
    let index = |prefix: &str| -> Option<u32> {
        result.strip_prefix(prefix)?.strip_suffix(']')?.parse().ok()
    };
    Some(match result {
        "result.position" => "op".into(),
        "result.color" => "oc".into(),
        "result.depth" => "od".into(),
        _ => {
            if let Some(n) = index("result.color[") {
                if n == 0 {
                    "oc".into()
                } else {
                    format!("oc{n}")
                }
            } else {
                format!("v{}", index("result.attrib[")?)
            }
        }
    })
}
