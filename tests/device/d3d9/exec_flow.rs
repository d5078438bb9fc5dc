//! Flow control, predication and relative addressing, with values worked
//! out by hand from the pages (if bool, if_comp, if pred, else, endif,
//! rep, loop, endloop, endrep, break, break_comp, breakp, call, callnz,
//! label, ret, setp_comp, mova, "Relative Addressing").

use super::{alu, case, run_cases, Bind, Case};

const STATIC_VS: &[&str] = &["vs_2_0", "vs_2_x", "vs_3_0"];
const STATIC_PS: &[&str] = &["ps_2_x", "ps_3_0"];
const DYNAMIC: &[&str] = &["vs_2_x", "vs_3_0", "ps_2_x", "ps_3_0"];

fn static_versions() -> Vec<&'static str> {
    [STATIC_VS, STATIC_PS].concat()
}

pub fn static_cases() -> Vec<Case> {
    let mut v = Vec::new();
    let k = Bind::default()
        .c(0, [1.0, 2.0, 3.0, 4.0])
        .c(1, [10.0, 20.0, 30.0, 40.0]);
    // if b#: the defb value, then the bound one.
    v.extend(alu(
        "if b# (defb true) ... else ... endif",
        &static_versions(),
        "defb b0, true\nif b0\nmov r0, c0\nelse\nmov r0, c1\nendif",
        k.clone(),
        [1.0, 2.0, 3.0, 4.0],
    ));
    v.extend(alu(
        "if b# (defb false)",
        &static_versions(),
        "defb b0, false\nmov r0, c1\nif b0\nmov r0, c0\nendif",
        k.clone(),
        [10.0, 20.0, 30.0, 40.0],
    ));
    v.extend(alu(
        "if b# bound true",
        &static_versions(),
        "if b3\nmov r0, c0\nelse\nmov r0, c1\nendif",
        k.clone().b(3, true),
        [1.0, 2.0, 3.0, 4.0],
    ));
    v.extend(alu(
        "if b# bound false",
        &static_versions(),
        "if b3\nmov r0, c0\nelse\nmov r0, c1\nendif",
        k.clone().b(3, false),
        [10.0, 20.0, 30.0, 40.0],
    ));
    // Nested ifs.
    v.extend(alu(
        "nested if b#",
        &static_versions(),
        "defb b0, true\ndefb b1, false\nmov r0, c1\nif b0\nif b1\nmov r0.x, c0.x\nelse\nmov r0.y, c0.y\nendif\nendif",
        k.clone(),
        [10.0, 2.0, 30.0, 40.0],
    ));
    // rep i#: i#.x iterations; 0 skips the block.
    v.extend(alu(
        "rep with a defi count",
        &static_versions(),
        "defi i0, 3, 0, 0, 0\nmov r0, c0\nrep i0\nadd r0, r0, c0\nendrep",
        k.clone(),
        [4.0, 8.0, 12.0, 16.0],
    ));
    v.extend(alu(
        "rep with a bound count",
        &static_versions(),
        "mov r0, c0\nrep i2\nadd r0, r0, c1\nendrep",
        k.clone().i(2, [2, 0, 0, 0]),
        [21.0, 42.0, 63.0, 84.0],
    ));
    v.extend(alu(
        "rep zero times",
        &static_versions(),
        "defi i0, 0, 0, 0, 0\nmov r0, c0\nrep i0\nadd r0, r0, c1\nendrep",
        k.clone(),
        [1.0, 2.0, 3.0, 4.0],
    ));
    // Nested reps: 2 x 3 iterations.
    v.extend(alu(
        "nested rep",
        &["vs_2_x", "vs_3_0", "ps_2_x", "ps_3_0"],
        "defi i0, 2, 0, 0, 0\ndefi i1, 3, 0, 0, 0\nmov r0, c0\nrep i0\nrep i1\nadd r0, r0, c0\nendrep\nendrep",
        k.clone(),
        [7.0, 14.0, 21.0, 28.0],
    ));
    // call / label / ret; callnz on b#, and on !b#.
    let sub = "mov r0, c0\ncall l3\ncallnz l4, b0\ncallnz l4, !b1\n{out}ret\nlabel l3\nadd r0, r0, c1\nret\nlabel l4\nmul r0, r0, c0.y\nret";
    for ver in static_versions() {
        let body = sub.replace("{out}", "");
        let (shader, out) = super::wrap(ver, "");
        // Subroutines go after the main program's ret: the body's main part
        // goes before the outputs.
        let (main, subs) = body.split_once("ret\n").unwrap();
        let (head, tail) = split_outputs(&shader, ver);
        let full = format!("{head}defb b0, true\ndefb b1, false\n{main}{tail}ret\n{subs}\n");
        // r0 = (1+10, 2+20, 3+30, 4+40) * 2 * 2
        v.push(case(
            &format!("call, callnz b#, callnz !b#, label, ret ({ver})"),
            &full,
            &vs_input(ver),
            k.clone(),
            &[(out, [44.0, 88.0, 132.0, 176.0])],
        ));
    }
    v
}

/// The shader of `wrap(ver, "")` split before its output moves.
fn split_outputs(shader: &str, ver: &str) -> (String, String) {
    let marker = if ver.starts_with("vs_3") {
        "mov o0"
    } else if ver.starts_with("vs") {
        "mov oPos"
    } else {
        "mov oC0"
    };
    let at = shader.find(marker).unwrap();
    (shader[..at].to_string(), shader[at..].to_string())
}

fn vs_input(ver: &str) -> Vec<(&'static str, [f32; 4])> {
    if ver.starts_with("vs") {
        vec![("v0", [0.0, 0.0, 0.0, 1.0])]
    } else {
        Vec::new()
    }
}

pub fn dynamic_cases() -> Vec<Case> {
    let mut v = Vec::new();
    let k = Bind::default()
        .c(0, [1.0, 2.0, 3.0, 4.0])
        .c(1, [10.0, 20.0, 30.0, 40.0])
        .c(2, [2.0, 3.0, -1.0, 0.0]);
    // if_comp for each comparison of c2.x (2) against c2.y (3): gt eq ge
    // lt ne le -> false false false true true true.
    for (cmp, taken) in [
        ("gt", false),
        ("eq", false),
        ("ge", false),
        ("lt", true),
        ("ne", true),
        ("le", true),
    ] {
        let want = if taken {
            [1.0, 2.0, 3.0, 4.0]
        } else {
            [10.0, 20.0, 30.0, 40.0]
        };
        v.extend(alu(
            &format!("if_{cmp}"),
            DYNAMIC,
            &format!("if_{cmp} c2.x, c2.y\nmov r0, c0\nelse\nmov r0, c1\nendif"),
            k.clone(),
            want,
        ));
        // And with equal operands: gt false, eq true, ge true, lt false,
        // ne false, le true.
        let eq_taken = matches!(cmp, "eq" | "ge" | "le");
        let want = if eq_taken {
            [1.0, 2.0, 3.0, 4.0]
        } else {
            [10.0, 20.0, 30.0, 40.0]
        };
        v.extend(alu(
            &format!("if_{cmp} on equal values"),
            DYNAMIC,
            &format!("if_{cmp} c2.x, c0.y\nmov r0, c0\nelse\nmov r0, c1\nendif"),
            k.clone(),
            want,
        ));
    }
    // break leaves the innermost rep; break_comp when its comparison holds.
    v.extend(alu(
        "break",
        DYNAMIC,
        "defi i0, 5, 0, 0, 0\nmov r0, c0\nrep i0\nadd r0, r0, c0\nbreak\nadd r0, r0, c1\nendrep",
        k.clone(),
        [2.0, 4.0, 6.0, 8.0],
    ));
    // r0.x: 1 -> 2 -> 3 (3 >= 3 breaks after the add) = 3.
    v.extend(alu(
        "break_ge",
        DYNAMIC,
        "defi i0, 10, 0, 0, 0\nmov r0, c0.x\nrep i0\nadd r0, r0, c0.x\nbreak_ge r0.x, c0.z\nendrep",
        k.clone(),
        [3.0; 4],
    ));
    // break_comp with each comparison of r0.x (1, 2, 3, ...) against 3.
    for (cmp, stop) in [
        ("gt", 4.0),
        ("eq", 3.0),
        ("ge", 3.0),
        ("lt", 1.0),
        ("ne", 1.0),
        ("le", 1.0),
    ] {
        v.extend(alu(
            &format!("break_{cmp}"),
            DYNAMIC,
            &format!("defi i0, 10, 0, 0, 0\nmov r0, c5.x\nrep i0\nadd r0, r0, c5.y\nbreak_{cmp} r0.x, c5.z\nendrep"),
            k.clone().c(5, [0.0, 1.0, 3.0, 0.0]),
            [stop; 4],
        ));
    }
    // setp_comp per component, then predicated writes: (p0) writes where
    // true, (!p0) where false, (p0.x) uses p0.x for every component.
    for (cmp, mask) in [
        ("gt", [false, false, true, true]),
        ("eq", [false, true, false, false]),
        ("ge", [false, true, true, true]),
        ("lt", [true, false, false, false]),
        ("ne", [true, false, true, true]),
        ("le", [true, true, false, false]),
    ] {
        // c3 = (1, 2, 4, 5) against c0 = (1, 2, 3, 4) shifted: compare
        // (0, 2, 4, 5) with (1, 2, 3, 4).
        let want: Vec<f32> = (0..4).map(|i| if mask[i] { 1.0 } else { -1.0 }).collect();
        v.extend(alu(
            &format!("setp_{cmp} and (p0) / (!p0)"),
            DYNAMIC,
            &format!("setp_{cmp} p0, c3, c0\n(p0) mov r0, c4\n(!p0) mov r0, -c4"),
            k.clone()
                .c(3, [0.0, 2.0, 4.0, 5.0])
                .c(4, [1.0, 1.0, 1.0, 1.0]),
            [want[0], want[1], want[2], want[3]],
        ));
    }
    // A replicate predicate swizzle and a partial setp mask: p0.y is set
    // (2 > 1), p0.x keeps the value of the first setp (false).
    v.extend(alu(
        "setp with a write mask, (p0.y) and (!p0.x)",
        DYNAMIC,
        "setp_gt p0, c0, c1\nsetp_gt p0.y, c0.y, c0.x\nmov r0, c1\n(p0.y) mov r0.xy, c0\n(!p0.x) add r0.w, r0.w, c0.w",
        k.clone(),
        [1.0, 2.0, 30.0, 44.0],
    ));
    // if on the predicate, and on its negation.
    v.extend(alu("if p0.z / if !p0.x", DYNAMIC, "setp_lt p0, c2, c0\nmov r0, c1\nif p0.z\nmov r0.x, c0.x\nendif\nif !p0.x\nmov r0.y, c0.y\nendif", k.clone(), [1.0, 2.0, 30.0, 40.0]));
    // breakp: leaves when p0.w is set (after 2 iterations r0.x = 3 >= 3).
    v.extend(alu(
        "breakp",
        DYNAMIC,
        "defi i0, 10, 0, 0, 0\nmov r0, c0.x\nrep i0\nadd r0, r0, c0.x\nsetp_ge p0.w, r0.x, c0.z\nbreakp p0.w\nendrep",
        k.clone(),
        [3.0; 4],
    ));
    v.extend(alu(
        "breakp !p0",
        DYNAMIC,
        "defi i0, 10, 0, 0, 0\nmov r0, c0.x\nrep i0\nadd r0, r0, c0.x\nsetp_lt p0.w, r0.x, c0.w\nbreakp !p0.w\nendrep",
        k.clone(),
        [4.0; 4],
    ));
    // callnz on the predicate.
    for ver in DYNAMIC {
        let (shader, out) = super::wrap(ver, "");
        let (head, tail) = split_outputs(&shader, ver);
        let full = format!(
            "{head}setp_gt p0, c0, c2\nmov r0, c0\ncallnz l1, p0.y\ncallnz l1, !p0.z\ncallnz l1, p0.x\n{tail}ret\nlabel l1\nadd r0, r0, c1\nret\n"
        );
        // p0 = (1>2, 2>3, 3>-1, 4>0) = (F, F, T, T): only !p0.y... calls:
        // p0.y false -> no; !p0.z = false -> no; p0.x false -> no.
        v.push(case(
            &format!("callnz p0 ({ver})"),
            &full,
            &vs_input(ver),
            k.clone(),
            &[(out, [1.0, 2.0, 3.0, 4.0])],
        ));
        let full = format!("{head}setp_gt p0, c0, c2\nmov r0, c0\ncallnz l1, p0.w\ncallnz l1, !p0.x\n{tail}ret\nlabel l1\nadd r0, r0, c1\nret\n");
        v.push(case(
            &format!("callnz p0 taken ({ver})"),
            &full,
            &vs_input(ver),
            k.clone(),
            &[(out, [21.0, 42.0, 63.0, 84.0])],
        ));
    }
    v
}

/// loop aL, i#: i#.x iterations, aL from i#.y in steps of i#.z, indexing
/// c# (vs_2_0 and later, ps_3_0).
pub fn loop_cases() -> Vec<Case> {
    let mut v = Vec::new();
    let k = Bind::default()
        .c(0, [1.0, 0.0, 0.0, 0.0])
        .c(1, [2.0, 0.0, 0.0, 0.0])
        .c(2, [4.0, 0.0, 0.0, 0.0])
        .c(3, [8.0, 0.0, 0.0, 0.0])
        .c(4, [16.0, 0.0, 0.0, 0.0])
        .c(5, [32.0, 0.0, 0.0, 0.0]);
    let versions: Vec<&str> = ["vs_2_0", "vs_2_x", "vs_3_0"].to_vec();
    // i0 = (3, 1, 2): aL = 1, 3, 5 -> c1 + c3 + c5 = 42.
    v.extend(alu(
        "loop aL, i# with c[aL]",
        &versions,
        "defi i0, 3, 1, 2, 0\nmov r0, c0.y\nloop aL, i0\nadd r0, r0, c0[aL]\nendloop",
        k.clone(),
        [42.0, 0.0, 0.0, 0.0],
    ));
    // A negative step: aL = 5, 4, 3 -> 32 + 16 + 8.
    v.extend(alu(
        "loop with a negative step",
        &versions,
        "defi i0, 3, 5, -1, 0\nmov r0, c0.y\nloop aL, i0\nadd r0, r0, c0[aL]\nendloop",
        k.clone(),
        [56.0, 0.0, 0.0, 0.0],
    ));
    // An offset on the index: c[aL + 1] with aL = 0, 1.
    v.extend(alu(
        "loop with c1[aL]",
        &versions,
        "defi i0, 2, 0, 1, 0\nmov r0, c0.y\nloop aL, i0\nadd r0, r0, c1[aL]\nendloop",
        k.clone(),
        [6.0, 0.0, 0.0, 0.0],
    ));
    // A bound integer constant.
    v.extend(alu(
        "loop with a bound i#",
        &versions,
        "mov r0, c0.y\nloop aL, i3\nadd r0, r0, c0[aL]\nendloop",
        k.clone().i(3, [2, 4, 1, 0]),
        [48.0, 0.0, 0.0, 0.0],
    ));
    // Nested loops: the inner aL, then the outer one again. Outer aL = 0,
    // 1; inner aL = 2, 3 each time: (4 + 8) * 2 + c[0] + c[1] = 27.
    v.extend(alu(
        "nested loops restore the outer aL",
        &["vs_2_x", "vs_3_0"],
        "defi i0, 2, 0, 1, 0\ndefi i1, 2, 2, 1, 0\nmov r0, c0.y\nloop aL, i0\nloop aL, i1\nadd r0, r0, c0[aL]\nendloop\nadd r0, r0, c0[aL]\nendloop",
        k.clone(),
        [27.0, 0.0, 0.0, 0.0],
    ));
    // break_comp inside a loop: aL = 0, 1, 2 ... leaves when r0.x >= 3.
    v.extend(alu(
        "break_comp leaves a loop",
        &["vs_2_x", "vs_3_0"],
        "defi i0, 6, 0, 1, 0\nmov r0, c0.y\nloop aL, i0\nadd r0, r0, c0[aL]\nbreak_ge r0.x, c2.x\nendloop",
        k.clone(),
        [7.0, 0.0, 0.0, 0.0],
    ));
    // ps_3_0 loops index v# by aL; c# reads go through the loop too.
    v.push(case(
        "ps_3_0 loop indexes v[aL]",
        "ps_3_0\ndefi i0, 3, 0, 1, 0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\ndcl_texcoord2 v2\nmov r0, c0.y\nloop aL, i0\nadd r0, r0, v0[aL]\nendloop\nmov oC0, r0\n",
        &[("texcoord0", [1.0, 2.0, 3.0, 4.0]), ("texcoord1", [10.0, 20.0, 30.0, 40.0]), ("texcoord2", [100.0, 200.0, 300.0, 400.0])],
        k.clone(),
        &[("oC0", [111.0, 222.0, 333.0, 444.0])],
    ));
    v.push(case(
        "ps_3_0 loop aL, i#",
        "ps_3_0\ndefi i0, 4, 0, 1, 0\ndef c6, 0, 0, 0, 0\nmov r0, c6\nloop aL, i0\nadd r0, r0, c0.x\nendloop\nmov oC0, r0\n",
        &[],
        k.clone(),
        &[("oC0", [4.0; 4])],
    ));
    // A subroutine called from a loop sees its aL ("call - vs").
    for ver in ["vs_2_0", "vs_2_x", "vs_3_0"] {
        let (shader, out) = super::wrap(ver, "");
        let (head, tail) = split_outputs(&shader, ver);
        let full = format!("{head}defi i0, 2, 4, 1, 0\nmov r0, c0.y\nloop aL, i0\ncall l0\nendloop\n{tail}ret\nlabel l0\nadd r0, r0, c0[aL]\nret\n");
        v.push(case(
            &format!("aL in a subroutine called from a loop ({ver})"),
            &full,
            &vs_input(ver),
            k.clone(),
            &[(out, [48.0, 0.0, 0.0, 0.0])],
        ));
    }
    v
}

/// Relative addressing of constants: vs_1_1's `mov a0.x` (round to
/// nearest), `mova` from vs_2_0 with any component, out-of-range reads are
/// 0, and `def` values are seen through the address.
pub fn relative_cases() -> Vec<Case> {
    let mut v = Vec::new();
    let k = Bind::default()
        .c(0, [0.0, 1.0, 2.0, 3.0])
        .c(1, [1.0, 1.0, 1.0, 1.0])
        .c(2, [2.0, 2.0, 2.0, 2.0])
        .c(3, [3.0, 3.0, 3.0, 3.0])
        .c(4, [1.4, 1.6, -0.6, 2.5])
        .c(5, [300.0, -5.0, 0.0, 0.0]);
    // mov a0.x rounds 1.6 to 2: c[a0.x + 1] = c3.
    v.extend(alu(
        "vs_1_1 mov a0.x and c[a0.x + n]",
        &["vs_1_1"],
        "mov a0.x, c4.y\nmov r0, c1[a0.x]",
        k.clone(),
        [3.0; 4],
    ));
    // 1.4 rounds to 1.
    v.extend(alu(
        "vs_1_1 mov a0.x rounds down below .5",
        &["vs_1_1"],
        "mov a0.x, c4.x\nmov r0, c0[a0.x]",
        k.clone(),
        [1.0; 4],
    ));
    // mova rounds to nearest, halves up (2.5 -> 3, -0.6 -> -1).
    v.extend(alu(
        "mova a0 and c[a0.w]",
        &["vs_2_0", "vs_2_x", "vs_3_0"],
        "mova a0, c4\nmov r0, c0[a0.w]",
        k.clone(),
        [3.0; 4],
    ));
    v.extend(alu(
        "mova a0.z negative offset",
        &["vs_2_0", "vs_2_x", "vs_3_0"],
        "mova a0.z, c4.z\nmov r0, c3[a0.z]",
        k.clone(),
        [2.0; 4],
    ));
    // Out of range: c[300] and c[-5] read (0, 0, 0, 0).
    for (versions, mov) in [
        (&["vs_1_1"][..], "mov"),
        (&["vs_2_0", "vs_3_0"][..], "mova"),
    ] {
        v.extend(alu(
            "out-of-range relative reads are zero",
            versions,
            &format!("{mov} a0.x, c5.x\nmov r0, c0[a0.x]\n{mov} a0.x, c5.y\nadd r0, r0, c1[a0.x]"),
            k.clone(),
            [0.0; 4],
        ));
        // A def'd constant is seen through relative addressing (and
        // overrides the bound value).
        v.extend(alu(
            "def through relative addressing",
            versions,
            &format!("def c2, 7, 8, 9, 10\n{mov} a0.x, c1.x\nmov r0, c1[a0.x]"),
            k.clone(),
            [7.0, 8.0, 9.0, 10.0],
        ));
    }
    v.extend(alu(
        "def overrides the bound constant",
        &[
            "vs_1_1", "vs_2_0", "vs_2_x", "vs_3_0", "ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4",
            "ps_2_0", "ps_2_x", "ps_3_0",
        ],
        "def c1, 0.5, 0.25, 0, 1\nmov r0, c1",
        k.clone(),
        [0.5, 0.25, 0.0, 1.0],
    ));
    // m4x4 with a relative matrix: rows c[a0.x + 0 ..].
    v.extend(alu(
        "m4x4 with a relative matrix",
        &["vs_1_1"],
        "mov a0.x, c1.x\nm4x4 r0, c0, c0[a0.x]",
        k.clone(),
        [6.0, 12.0, 18.0, 7.9],
    ));
    v.extend(alu(
        "m4x4 with a relative matrix",
        &["vs_3_0"],
        "mova a0.x, c1.x\nm4x4 r0, c0, c0[a0.x]",
        k,
        [6.0, 12.0, 18.0, 7.9],
    ));
    v
}

#[test]
fn if_rep_call_and_callnz_on_b_follow_the_static_flow_pages() {
    run_cases(&static_cases());
}

#[test]
fn if_comp_break_setp_predication_and_breakp_follow_the_dynamic_flow_pages() {
    run_cases(&dynamic_cases());
}

#[test]
fn loop_al_counts_steps_and_indexes_like_the_loop_page() {
    run_cases(&loop_cases());
}

#[test]
fn relative_constants_round_like_mova_and_read_zero_out_of_range() {
    run_cases(&relative_cases());
}
