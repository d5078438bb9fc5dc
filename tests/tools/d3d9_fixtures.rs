//! The Direct3D 9 fixtures (tests/fixtures/d3d9/, README.md there): HLSL
//! compiled by vkd3d-compiler 2.1 and hand-assembled shaders for what it
//! cannot write (ps_1_x, predication, calls, indexing). Each compiles,
//! validates and reflects (with the CTAB's names); its disassembly agrees
//! instruction by instruction with vkd3d-compiler's `d3d-asm` output once
//! the documented spelling differences are normalised; and it reassembles
//! to the same tokens.
//!
//! `NVP4C_BLESS_D3D9=1` rewrites each hand fixture's `.d3dbc` from its
//! `.asm` (the test otherwise checks they agree).

use std::path::{Path, PathBuf};

use nvp4c::front::d3d9::{assemble, decode, disasm};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/d3d9")
}

/// Every fixture binary: `compiled/*.d3dbc` and `hand/*.d3dbc`.
pub fn fixtures() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["compiled", "hand"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "d3dbc") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn hand_fixtures_are_the_assembly_of_their_source() {
    let bless = std::env::var_os("NVP4C_BLESS_D3D9").is_some();
    let mut count = 0;
    for e in std::fs::read_dir(root().join("hand")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "asm") {
            continue;
        }
        count += 1;
        let text = std::fs::read_to_string(&p).unwrap();
        let bytes =
            assemble::assemble_bytes(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let bin = p.with_extension("d3dbc");
        if bless {
            std::fs::write(&bin, &bytes).unwrap();
        }
        let committed = std::fs::read(&bin).unwrap_or_else(|_| {
            panic!(
                "{} is missing (NVP4C_BLESS_D3D9=1 writes it)",
                bin.display()
            )
        });
        assert_eq!(
            committed,
            bytes,
            "{} is not the assembly of {}",
            bin.display(),
            p.display()
        );
    }
    assert!(count >= 10, "only {count} hand fixtures");
}

#[test]
fn every_fixture_compiles_validates_and_reflects() {
    let mut failures = Vec::new();
    for p in fixtures() {
        let bytes = std::fs::read(&p).unwrap();
        match nvp4c::compile_bytes(&bytes, &nvp4c::Options::default()) {
            Ok(c) => {
                let d3d9 = c.reflection.d3d9.as_ref().expect("a Direct3D 9 reflection");
                // A CTAB's constants name the parameters they occupy.
                if let Some(table) = &d3d9.constant_table {
                    for k in &table.constants {
                        let set_binding = match k.set {
                            nvp4c::front::d3d9::ctab::RegisterSet::Float4 => Some(0),
                            nvp4c::front::d3d9::ctab::RegisterSet::Int4 => Some(1),
                            nvp4c::front::d3d9::ctab::RegisterSet::Bool => Some(3),
                            nvp4c::front::d3d9::ctab::RegisterSet::Sampler => None,
                        };
                        let named = match set_binding {
                            Some(b) => c
                                .reflection
                                .uniform_blocks
                                .iter()
                                .filter(|u| u.binding == b)
                                .flat_map(|u| &u.parameters)
                                .any(|param| param.cg.iter().any(|n| n.name == k.name)),
                            None => c
                                .reflection
                                .textures
                                .iter()
                                .any(|t| t.cg.iter().any(|n| n.name == k.name)),
                        };
                        let used = c
                            .reflection
                            .uniform_blocks
                            .iter()
                            .flat_map(|u| &u.parameters)
                            .any(|param| (k.index..k.index + k.count).contains(&param.element))
                            || set_binding.is_none();
                        if used && !named && set_binding.is_some() {
                            failures.push(format!(
                                "{}: {} is not named in the reflection",
                                p.display(),
                                k.name
                            ));
                        }
                    }
                }
            }
            Err(d) => {
                let listing = nvp4c::source_listing(&bytes);
                failures.push(format!(
                    "{}:\n{}",
                    p.display(),
                    d.render("fixture", &listing, false)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn disassembly_reassembles_to_the_same_tokens() {
    for p in fixtures() {
        let bytes = std::fs::read(&p).unwrap();
        let shader = decode::decode(&bytes);
        let listing = disasm::disassemble(&shader);
        let again = assemble::assemble(&listing.text)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", p.display(), listing.text));
        // The comments (CTAB) are not reassembled: compare the rest.
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let mut without_comments = Vec::new();
        let mut i = 0;
        while i < words.len() {
            if words[i] & 0xffff == 0xfffe && i > 0 {
                i += 1 + ((words[i] >> 16) & 0x7fff) as usize;
                continue;
            }
            without_comments.push(words[i]);
            i += 1;
        }
        assert_eq!(again, without_comments, "{}\n{}", p.display(), listing.text);
    }
}

/// One instruction of a disassembly in a canonical spelling: vkd3d's and
/// nvp4c's listings differ only in spelling (docs/d3d9.md lists how).
fn canonical(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with(';'))
        .map(canonical_line)
        .collect()
}

const BARE: &[char] = &['i', 'b', 's', 'l'];

fn canonical_line(line: &str) -> String {
    let line = line.replace(" = ", ", ");
    let (predicate, rest) = match line.strip_prefix('(') {
        Some(r) => {
            let close = r.find(')').unwrap_or(r.len());
            (
                Some(canonical_operand(&r[..close], false)),
                r[close + 1..].trim_start().to_string(),
            )
        }
        None => (None, line.to_string()),
    };
    let (mnemonic, operands) = match rest.find(' ') {
        Some(i) => (&rest[..i], rest[i + 1..].trim()),
        None => (rest.as_str(), ""),
    };
    // Versions: vkd3d writes the minor number of 2_x.
    if let Some(v) = mnemonic
        .strip_prefix("vs_2_")
        .or_else(|| mnemonic.strip_prefix("ps_2_"))
    {
        match v {
            "1" => return format!("{}_2_x", &mnemonic[..2]),
            "2" => return format!("{}_2_b", &mnemonic[..2]),
            _ => {}
        }
    }
    let mut m = mnemonic.to_ascii_lowercase();
    // vkd3d writes `if b0` as `if_nz b0`.
    if m == "if_nz" {
        m = "if".to_string();
    }
    // vkd3d-compiler 2.1's d3d-asm leaves out setp's comparison.
    if m.starts_with("setp") {
        m = "setp".to_string();
    }
    // dcl_position0 -> dcl_position; vkd3d's short usage names.
    if let Some(usage) = m.strip_prefix("dcl_") {
        let mut parts: Vec<String> = usage.split('_').map(str::to_string).collect();
        if let Some(first) = parts.first_mut() {
            let digits = first
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .to_string();
            let mut name = first[..first.len() - digits.len()].to_string();
            name = match name.as_str() {
                "weight" => "blendweight".to_string(),
                "blend" => "blendindices".to_string(),
                "psize" | "pointsize" => "psize".to_string(),
                "specular" => "color1".to_string(),
                _ => name,
            };
            *first = if digits.is_empty() || digits == "0" {
                name
            } else {
                format!("{name}{digits}")
            };
        }
        m = format!("dcl_{}", parts.join("_"));
    }
    let ops: Vec<&str> = split_operands(operands);
    let is_def = m.starts_with("def");
    let is_dcl = m.starts_with("dcl");
    // vkd3d gives vPos and vFace a usage; they have none.
    if is_dcl
        && ops
            .first()
            .is_some_and(|o| o.starts_with("vPos") || o.starts_with("vFace"))
    {
        m = "dcl".to_string();
    }
    let canon_ops: Vec<String> = ops
        .iter()
        .enumerate()
        .map(|(k, o)| {
            if is_def && k > 0 {
                canonical_value(o, &m)
            } else if is_dcl {
                // vkd3d does not print a declaration's write mask.
                o.split('.').next().unwrap_or(o).to_string()
            } else {
                canonical_operand(o, k == 0)
            }
        })
        .collect();
    let mut out = String::new();
    if let Some(p) = predicate {
        out.push_str(&format!("({p}) "));
    }
    out.push_str(&m);
    if !canon_ops.is_empty() {
        out.push(' ');
        out.push_str(&canon_ops.join(", "));
    }
    out
}

fn split_operands(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

fn canonical_value(v: &str, mnemonic: &str) -> String {
    let t = v.trim();
    let bits = match t.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => None,
    };
    match mnemonic {
        "defi" => t
            .parse::<i64>()
            .map_or_else(|_| t.to_string(), |i| i.to_string()),
        "defb" => t.to_ascii_lowercase(),
        _ => match bits.or_else(|| t.parse::<f32>().ok().map(f32::to_bits)) {
            Some(b) => format!("{b:#010x}"),
            None => t.to_string(),
        },
    }
}

/// `-r0.xy_bx2` style operand to (prefix, register, address, suffix,
/// postfix) with the suffix as four letters.
fn canonical_operand(o: &str, _dst: bool) -> String {
    let mut s = o.trim().to_string();
    let mut prefix = String::new();
    for p in ["1 - ", "1-", "-", "!"] {
        if let Some(r) = s.strip_prefix(p) {
            prefix = p.trim().replace(' ', "");
            s = r.trim_start().to_string();
            break;
        }
    }
    let mut postfix = String::new();
    for suffix in ["_bias", "_bx2", "_x2", "_dz", "_db", "_dw", "_da", "_abs"] {
        if let Some(at) = s.find(suffix) {
            let after = s[at + suffix.len()..].to_string();
            if after.is_empty() || after.starts_with('.') {
                postfix = match suffix {
                    "_db" => "_dz".to_string(),
                    "_da" => "_dw".to_string(),
                    other => other.to_string(),
                };
                s = format!("{}{after}", &s[..at]);
                break;
            }
        }
    }
    // |r0| is vkd3d's abs.
    if s.starts_with('|') && s.ends_with('|') {
        s = s[1..s.len() - 1].to_string();
        postfix = "_abs".to_string();
    }
    let (reg, suffix) = match s.rfind('.') {
        Some(i) if !s[i..].contains(']') => (s[..i].to_string(), Some(s[i + 1..].to_string())),
        _ => (s.clone(), None),
    };
    // vkd3d numbers the loop counter: aL0.
    let reg = canonical_register(&reg.replace("aL0", "aL"));
    let bare = reg.starts_with(BARE) && reg[1..].chars().next().is_some_and(|c| c.is_ascii_digit())
        || reg == "aL";
    let letters = if bare {
        String::new()
    } else {
        let mut l: String = suffix
            .unwrap_or_else(|| "xyzw".to_string())
            .chars()
            .map(|c| match c {
                'r' => 'x',
                'g' => 'y',
                'b' => 'z',
                'a' => 'w',
                c => c,
            })
            .collect();
        while !l.is_empty() && l.len() < 4 {
            let last = l.chars().last().unwrap_or('x');
            l.push(last);
        }
        format!(".{l}")
    };
    format!("{prefix}{reg}{letters}{postfix}")
}

/// `c[a.x + 3]`, `c3[a0.x]`, `c0[aL]`, `o[aL + 2]` -> `c3[a0.x]` style.
fn canonical_register(r: &str) -> String {
    let Some(open) = r.find('[') else {
        // vkd3d names the address register `a`.
        return if r == "a" {
            "a0".to_string()
        } else {
            r.to_string()
        };
    };
    let close = r.rfind(']').unwrap_or(r.len());
    let head = &r[..open];
    let split = head
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(head.len());
    let (file, base) = head.split_at(split);
    let mut n: u32 = base.parse().unwrap_or(0);
    let mut addr = String::new();
    for term in r[open + 1..close].split('+') {
        let t = term.trim();
        if let Ok(k) = t.parse::<u32>() {
            n += k;
        } else {
            addr = match t {
                "aL" | "aL.x" | "aL0" | "aL0.x" => "aL".to_string(),
                t => {
                    let (reg, comp) = t.split_once('.').unwrap_or((t, "x"));
                    let reg = if reg == "a" { "a0" } else { reg };
                    format!("{reg}.{}", &comp[..1])
                }
            };
        }
    }
    format!("{file}{n}[{addr}]")
}

#[test]
fn disassembly_agrees_with_vkd3d_instruction_by_instruction() {
    let mut compared = 0;
    let mut failures = Vec::new();
    for p in fixtures() {
        let reference = p.with_extension("d3d-asm");
        let Ok(theirs) = std::fs::read_to_string(&reference) else {
            continue;
        };
        compared += 1;
        let bytes = std::fs::read(&p).unwrap();
        let ours = disasm::disassemble(&decode::decode(&bytes)).text;
        let (a, b) = (canonical(&ours), canonical(&theirs));
        if a.len() != b.len() {
            failures.push(format!(
                "{}: {} lines here, {} in vkd3d's\n{ours}\n---\n{theirs}",
                p.display(),
                a.len(),
                b.len()
            ));
            continue;
        }
        for (k, (x, y)) in a.iter().zip(&b).enumerate() {
            if x != y {
                failures.push(format!(
                    "{} instruction {k}: `{x}` here, `{y}` in vkd3d's",
                    p.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        compared >= 30,
        "only {compared} fixtures have vkd3d's disassembly"
    );
}

#[test]
fn canonical_spelling_removes_only_spelling() {
    assert_eq!(
        canonical_line("mov r1.xyzw, c[a.x + 3].xyzw"),
        canonical_line("mov r1, c3[a0.x]")
    );
    assert_eq!(
        canonical_line("def c4 = 5.00000000e-01, 0, 1, -1"),
        canonical_line("def c4, 0.5, 0, 1, -1")
    );
    assert_eq!(
        canonical_line("mov oD0.xyzw, r0.y"),
        canonical_line("mov oD0, r0.yyyy")
    );
    assert_ne!(canonical_line("mov r0.x, r1"), canonical_line("mov r0, r1"));
    assert_ne!(
        canonical_line("add r0, -r1, r2"),
        canonical_line("add r0, r1, r2")
    );
    assert_eq!(canonical_line("rep i0.xyzw"), canonical_line("rep i0"));
    assert_eq!(canonical_line("vs_2_1"), canonical_line("vs_2_x"));
    assert_eq!(
        canonical_line("dcl_position0 vPos"),
        canonical_line("dcl vPos.xy")
    );
}

#[test]
fn the_shaders_that_crash_lavapipe_compile_to_valid_modules() {
    // tests/fixtures/d3d9/lavapipe-crashes/README.md: a driver bug, so the
    // modules themselves must be valid (compile runs spirv-val).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/d3d9/lavapipe-crashes");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "asm") {
            let bytes =
                nvp4c::front::d3d9::assemble::assemble_bytes(&std::fs::read_to_string(&p).unwrap())
                    .unwrap();
            for optimize in [false, true] {
                let mut options = nvp4c::Options::default();
                options.optimize = optimize;
                nvp4c::compile_bytes(&bytes, &options).unwrap_or_else(|d| {
                    panic!(
                        "{}: {}",
                        p.display(),
                        d.render("x", &nvp4c::source_listing(&bytes), false)
                    )
                });
            }
            n += 1;
        }
    }
    assert_eq!(n, 2);
}
