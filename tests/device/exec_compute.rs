//! Execution tests of compute programs (`!!NVcp5.0`, NV_compute_program5)
//! with NV_shader_storage_buffer_object's storage buffers and
//! NV_compute_program5's shared memory on the Vulkan device
//! (`Device::run_compute`, tests/device/harness/compute.rs). Expected
//! values are worked out by hand in the comments; the single-invocation
//! programs also run in the interpreter, which must agree.

use crate::harness;
use crate::harness::ComputeJob;

fn compile(src: &str) -> Vec<u32> {
    match nvp4c::compile(src, &nvp4c::Options::default()) {
        Ok(c) => c.spirv,
        Err(d) => panic!("{}\n{src}", d.render("test.cp", src, false)),
    }
}

/// The default binding of `program.storage[a]` (docs/interface.md).
fn storage(a: u32) -> u32 {
    64 + a
}

/// Runs `src` on the device over `groups` work groups with these storage
/// buffers (binding, words), and returns each buffer's words after the run;
/// `None` when there is no device.
fn run_on_device(
    src: &str,
    groups: [u32; 3],
    buffers: Vec<(u32, Vec<u32>)>,
) -> Option<Vec<Vec<u32>>> {
    let device = harness::device_or_skip()?;
    let job = ComputeJob::new(groups, buffers);
    Some(
        device
            .run_compute(&compile(src), &job)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

#[test]
fn a_work_group_counts_with_atomics_and_sees_the_total_after_bar() {
    // One work group of 8 invocations. Each adds 1 to counts[0] with
    // ATOMB.ADD (which returns the value before: 0..7, each once, in some
    // order), stores that ticket at out[4·i] (i = invocation.localindex),
    // waits at BAR, then reads counts[0]: after the barrier every add has
    // happened, so all read 8 and store it at out[32 + 4·i].
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 8;
STORAGE counts = program.storage[0];
STORAGE out = program.storage[1];
UINT TEMP a, t;
MOV.U a.x, invocation.localindex;
SHL.U a.y, a.x, {2}.x;
ATOMB.ADD.U32 t.x, {1, 0, 0, 0}, counts[0];
STB.U32 t.x, out[a.y];
BAR;
LDB.U32 t, counts[0];
STB.U32 t.x, out[a.y + 32];
END
";
    let Some(out) = run_on_device(
        src,
        [1, 1, 1],
        vec![(storage(0), vec![0]), (storage(1), vec![0; 16])],
    ) else {
        return;
    };
    assert_eq!(out[0], [8]);
    let mut tickets = out[1][..8].to_vec();
    tickets.sort();
    assert_eq!(tickets, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(out[1][8..], [8; 8]);
}

#[test]
fn invocation_ids_follow_the_dispatch() {
    // GROUP_SIZE 2, 2 dispatched as 3×1×1 groups: 12 invocations. Each
    // writes, at word 8·g + 2·l (g = groupid.x, l = localindex):
    //   globalid.x + 100·globalid.y, and
    //   groupsize.x·1000 + groupcount.x·100 + localid.x·10 + localid.y.
    // globalid = groupid·groupsize + localid, localindex = localid.y·2 + localid.x.
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 2, 2;
STORAGE out = program.storage[0];
UINT TEMP a, v, w;
MOV.U a.x, invocation.groupid.x;
SHL.U a.x, a.x, {5}.x;
MOV.U a.y, invocation.localindex.x;
SHL.U a.y, a.y, {3}.x;
ADD.U a.x, a.x, a.y;
MOV.U v, invocation.globalid;
MAD.U w.x, v.y, {100}.x, v.x;
STB.U32 w.x, out[a.x];
MOV.U v, invocation.localid;
MAD.U w.x, v.x, {10}.x, v.y;
MOV.U v, invocation.groupsize;
MAD.U w.x, v.x, {1000}.x, w.x;
MOV.U v, invocation.groupcount;
MAD.U w.x, v.x, {100}.x, w.x;
STB.U32 w.x, out[a.x + 4];
END
";
    let Some(out) = run_on_device(src, [3, 1, 1], vec![(storage(0), vec![u32::MAX; 24])]) else {
        return;
    };
    let mut want = vec![0u32; 24];
    for g in 0..3u32 {
        for ly in 0..2u32 {
            for lx in 0..2u32 {
                let l = ly * 2 + lx;
                let (gx, gy) = (g * 2 + lx, ly);
                want[(8 * g + 2 * l) as usize] = gx + 100 * gy;
                want[(8 * g + 2 * l + 1) as usize] = 2 * 1000 + 3 * 100 + lx * 10 + ly;
            }
        }
    }
    assert_eq!(out[0], want);
}

/// One invocation: atomics, vector loads and stores, and accesses past the
/// end of the buffer, on the device and in the interpreter.
#[test]
fn memory_instructions_follow_the_spec_in_one_invocation() {
    // The buffer starts as words [5, -3 (as bits), 10, 7, 0, 0, 0, 0] (32 bytes).
    // ATOMB.MIN.S32 at byte 4: old -3, min(-3, -7) = -7 stored; returns -3.
    // ATOMB.MAX.U32 at byte 8: old 10, max(10, 4) = 10 stays; returns 10.
    // ATOMB.CSWAP.U32 at byte 12 with (7, 99): old 7 == 7, stores 99; returns 7.
    // ATOMB.CSWAP.U32 at byte 0 with (6, 1): old 5 != 6, no store; returns 5.
    // ATOMB.EXCH.U32 at byte 8 with 1: stores 1, returns 10.
    // LDB.U32X4 at byte 0 after those: (5, -7, 1, 99).
    // STB.U32X2 of (returns of MIN, MAX) = (-3, 10) at byte 16: words 4, 5.
    // STB.U32X4 at byte 20 would cover words 5..8, past the 8-word end: no
    // effect. LDB.U32 at byte 32: past the end, reads 0; stored at word 6.
    // STB.U32 (5 + 10 + 7 = CSWAP/EXCH returns summed) at word 7:
    //   returns 7 (CSWAP hit) + 5 (CSWAP miss) + 10 (EXCH) = 22.
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE b = program.storage[0];
TEMP r;
UINT TEMP u, s;
ATOMB.MIN.S32 r.x, {-7, 0, 0, 0}, b[4];
ATOMB.MAX.U32 u.x, {4, 0, 0, 0}, b[8];
MOV.U s.x, r.x;
MOV.U s.y, u.x;
ATOMB.CSWAP.U32 u.x, {7, 99, 0, 0}, b[12];
ATOMB.CSWAP.U32 u.y, {6, 1, 0, 0}, b[0];
ATOMB.EXCH.U32 u.z, {1, 0, 0, 0}, b[8];
ADD.U u.w, u.x, u.y;
ADD.U u.w, u.w, u.z;
LDB.U32X4 u, b[0];
STB.U32X2 s, b[16];
STB.U32X4 u, b[20];
LDB.U32 s, b[32];
STB.U32 s.x, b[24];
STB.U32 u.w, b[28];
END
";
    // u.w (7 + 5 + 10 = 22, the CSWAP and EXCH returns) is overwritten by
    // the LDB.U32X4 (w = 99) before its store: word 7 = 99.
    let start = [5u32, (-3i32) as u32, 10, 7, 0, 0, 0, 0];
    let want = [5u32, (-7i32) as u32, 1, 99, (-3i32) as u32, 10, 0, 99];
    // The interpreter.
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.storage.insert(0, start.to_vec());
    let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(run.storage[&0], want, "interpreter");
    // The device.
    let Some(out) = run_on_device(src, [1, 1, 1], vec![(storage(0), start.to_vec())]) else {
        return;
    };
    assert_eq!(out[0], want, "device");
}

#[test]
fn shared_memory_passes_squares_to_the_neighbour_across_bar() {
    // NV_compute_program5: 64 invocations; invocation i stores i² at byte
    // 4·i of shared memory (STS), waits at BAR (after which every STS is
    // visible to every invocation, 2.X.3.Y), loads its neighbour's slot
    // 4·((i + 1) mod 64) (LDS) and writes it to out[i]. So out[i] =
    // ((i + 1) mod 64)²: out[0] = 1, out[1] = 4, out[62] = 3969, out[63] = 0.
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 64;
SHARED_MEMORY 256;
SHARED slots = program.sharedmem[0];
STORAGE out = program.storage[0];
UINT TEMP a, t;
MOV.U a.x, invocation.localindex;
MUL.U t.x, a.x, a.x;
SHL.U a.y, a.x, 2;
STS.U32 t, slots[a.y];
BAR;
ADD.U a.z, a.x, 1;
AND.U a.z, a.z, 63;
SHL.U a.z, a.z, 2;
LDS.U32 t, slots[a.z];
STB.U32 t, out[a.y];
END
";
    let Some(out) = run_on_device(src, [1, 1, 1], vec![(storage(0), vec![u32::MAX; 64])]) else {
        return;
    };
    let want: Vec<u32> = (0..64u32).map(|i| ((i + 1) % 64).pow(2)).collect();
    assert_eq!(want[..2], [1, 4]);
    assert_eq!(want[62..], [3969, 0]);
    assert_eq!(out[0], want);
}

#[test]
fn shared_memory_atomics_count_and_return_old_values() {
    // 64 invocations, i = invocation.localindex. Invocation 0 sets the
    // five shared words (contents are undefined at the start, 2.X.3.Y):
    // cnt = 0, mx = 0, mn = 1000, sw = 0, ex = 7; BAR. Then each:
    //   ATOMS.ADD cnt, 1      → its ticket: 0..63, each once
    //   ATOMS.MAX mx, 3·i     → some old value ≤ 189; final mx = 189
    //   ATOMS.MIN mn, i + 1   → some old value ≥ 1; final mn = 1
    //   ATOMS.CSWAP sw, {0, i + 1} → old 0 for exactly one winner w, whose
    //                           i + 1 is then stored; every other gets it
    //   ATOMS.EXCH ex, i + 100 → the olds plus the final value are the
    //                           initial 7 and the 64 values, each once
    // and writes its olds at out[8·i ..]; BAR; invocation 0 writes the
    // final words at out[512 ..].
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 64;
SHARED_MEMORY 20;
SHARED cnt = program.sharedmem[0];
SHARED mx = program.sharedmem[4];
SHARED mn = program.sharedmem[8];
SHARED sw = program.sharedmem[12];
SHARED ex = program.sharedmem[16];
STORAGE out = program.storage[0];
UINT TEMP a, t, v;
MOV.U.CC a.x, invocation.localindex;
IF EQ.x;
STS.U32X4 {0, 0, 1000, 0}, cnt;
STS.U32 {7, 0, 0, 0}, ex;
ENDIF;
BAR;
SHL.U a.y, a.x, 5;
ATOMS.ADD.U32 t.x, {1, 0, 0, 0}, cnt;
MUL.U v.x, a.x, 3;
ATOMS.MAX.U32 t.y, v.x, mx;
ADD.U v.y, a.x, 1;
ATOMS.MIN.U32 t.z, v.y, mn;
MOV.U v.z, 0;
ATOMS.CSWAP.U32 t.w, v.zyzy, sw;
STB.U32X4 t, out[a.y];
ADD.U v.x, a.x, 100;
ATOMS.EXCH.U32 t.x, v.x, ex;
STB.U32 t.x, out[a.y + 16];
BAR;
IF EQ.x;
LDS.U32X4 t, cnt;
STB.U32X4 t, out[2048];
LDS.U32 t, ex;
STB.U32 t.x, out[2064];
ENDIF;
END
";
    let Some(out) = run_on_device(src, [1, 1, 1], vec![(storage(0), vec![u32::MAX; 520])]) else {
        return;
    };
    let out = &out[0];
    let per = |k: usize| -> Vec<u32> { (0..64).map(|i| out[8 * i + k]).collect() };
    // Final values: the group size, the largest 3·i, the smallest i + 1.
    assert_eq!(out[512..515], [64, 189, 1]);
    let mut tickets = per(0);
    tickets.sort();
    assert_eq!(tickets, (0..64).collect::<Vec<u32>>());
    assert!(
        per(1).iter().all(|&m| m <= 189 && m % 3 == 0),
        "{:?}",
        per(1)
    );
    assert!(
        per(2).iter().all(|&m| (1..=1000).contains(&m)),
        "{:?}",
        per(2)
    );
    // CSWAP: one winner saw 0; the final value is its i + 1, and every
    // other invocation saw that value.
    let winner_value = out[515];
    assert!((1..=64).contains(&winner_value));
    let cswap = per(3);
    for (i, &old) in cswap.iter().enumerate() {
        let want = if i as u32 + 1 == winner_value {
            0
        } else {
            winner_value
        };
        assert_eq!(old, want, "CSWAP old value of invocation {i}");
    }
    // EXCH: a permutation of the chain 7 → values.
    let mut chain = per(4);
    chain.push(out[516]);
    chain.sort();
    let mut want: Vec<u32> = (100..164).collect();
    want.insert(0, 7);
    assert_eq!(chain, want);
}

#[test]
fn shared_memory_holds_floats_and_reads_zero_past_its_end() {
    // 8 invocations, SHARED_MEMORY 32 (8 words). Invocation i stores
    // 0.5·i + 0.25 (STS.F32) at byte 4·i, BAR, then loads two floats
    // (LDS.F32X2) from byte 4·((i + 1) mod 8) and stores them at out[2i].
    // Invocation 6 reads words 7 and 8: word 8 lies past SHARED_MEMORY, so
    // the whole access reads zero (docs/semantics.md, "Shared memory");
    // invocation 7 reads words 0 and 1. Invocation i < 6 gets
    // (0.5·(i+1) + 0.25, 0.5·(i+2) + 0.25).
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 8;
SHARED_MEMORY 32;
SHARED f = program.sharedmem[0];
STORAGE out = program.storage[0];
UINT TEMP a;
FLOAT TEMP x;
MOV.U a.x, invocation.localindex;
I2F.U x.x, a.x;
MAD x.x, x.x, 0.5, 0.25;
SHL.U a.y, a.x, 2;
STS.F32 x, f[a.y];
BAR;
ADD.U a.z, a.x, 1;
AND.U a.z, a.z, 7;
SHL.U a.z, a.z, 2;
LDS.F32X2 x, f[a.z];
SHL.U a.w, a.x, 3;
STB.F32X2 x, out[a.w];
END
";
    let Some(out) = run_on_device(src, [1, 1, 1], vec![(storage(0), vec![u32::MAX; 16])]) else {
        return;
    };
    let got: Vec<f32> = out[0].iter().map(|&b| f32::from_bits(b)).collect();
    let value = |i: u32| 0.5 * i as f32 + 0.25;
    let mut want = Vec::new();
    for i in 0..8u32 {
        match i {
            6 => want.extend([0.0, 0.0]),
            7 => want.extend([value(0), value(1)]),
            _ => want.extend([value(i + 1), value(i + 2)]),
        }
    }
    assert_eq!(want[..2], [0.75, 1.25]);
    assert_eq!(got, want);
}

#[test]
fn shared_memory_wrapping_and_float_atomics_over_a_work_group() {
    // 64 invocations (i = invocation.localindex); invocation 0 sets the
    // words inc = 0, dec = 0, sum = 0.0, ex = -1.0, BAR. Then each:
    //   ATOMS.IWRAP.U32 inc, 9: the k-th operation (k = 0..63, in whatever
    //     order) sees k mod 10 ("(result >= tmp0.x) ? 0 : result+1"), and
    //     leaves 64 mod 10 = 4;
    //   ATOMS.DWRAP.U32 dec, 9: from 0 it goes to 9 ("result == 0 ...
    //     ? tmp0.x"), then 8, ..., 0, 9, ...: the k-th sees (10 - k mod 10)
    //     mod 10, and 64 operations leave 6;
    //   ATOMS.ADD.F32 sum, 0.5: sums of halves are exact in any order: the
    //     old values are 0, 0.5, ..., 31.5 once each, and 32.0 is left;
    //   ATOMS.EXCH.F32 ex, i: the olds and the final value are -1.0 and
    //     0.0 .. 63.0, each once.
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 64;
SHARED_MEMORY 16;
SHARED inc = program.sharedmem[0];
SHARED dec = program.sharedmem[4];
SHARED sum = program.sharedmem[8];
SHARED ex = program.sharedmem[12];
STORAGE out = program.storage[0];
UINT TEMP a, t;
FLOAT TEMP f, g;
MOV.U.CC a.x, invocation.localindex;
IF EQ.x;
STS.U32X2 {0, 0, 0, 0}, inc;
STS.F32X2 {0.0, -1.0, 0, 0}, sum;
ENDIF;
BAR;
SHL.U a.y, a.x, 4;
ATOMS.IWRAP.U32 t.x, {9, 0, 0, 0}, inc;
ATOMS.DWRAP.U32 t.y, {9, 0, 0, 0}, dec;
STB.U32X2 t, out[a.y];
ATOMS.ADD.F32 f.x, {0.5, 0, 0, 0}, sum;
I2F.U g.x, a.x;
ATOMS.EXCH.F32 f.y, g, ex;
STB.F32X2 f, out[a.y + 8];
BAR;
IF EQ.x;
LDS.U32X4 t, inc;
STB.U32X4 t, out[1024];
ENDIF;
END
";
    let Some(out) = run_on_device(src, [1, 1, 1], vec![(storage(0), vec![u32::MAX; 260])]) else {
        return;
    };
    let out = &out[0];
    let per = |k: usize| -> Vec<u32> { (0..64).map(|i| out[4 * i + k]).collect() };
    assert_eq!(out[256..258], [4, 6]);
    assert_eq!(f32::from_bits(out[258]), 32.0);
    let sorted = |mut v: Vec<u32>| {
        v.sort();
        v
    };
    let want_inc: Vec<u32> = sorted((0..64).map(|k| k % 10).collect());
    assert_eq!(sorted(per(0)), want_inc);
    let want_dec: Vec<u32> = sorted((0..64).map(|k| (10 - k % 10) % 10).collect());
    assert_eq!(sorted(per(1)), want_dec);
    let mut sums: Vec<f32> = per(2).into_iter().map(f32::from_bits).collect();
    sums.sort_by(f32::total_cmp);
    assert_eq!(sums, (0..64).map(|k| k as f32 * 0.5).collect::<Vec<_>>());
    let mut chain: Vec<f32> = per(3).into_iter().map(f32::from_bits).collect();
    chain.push(f32::from_bits(out[259]));
    chain.sort_by(f32::total_cmp);
    let mut want: Vec<f32> = (0..64).map(|k| k as f32).collect();
    want.insert(0, -1.0);
    assert_eq!(chain, want);
}

/// One invocation is a whole work group: the interpreter (shared memory as
/// a byte array, atomics returning the old value) and the device agree.
#[test]
fn shared_memory_in_one_invocation_matches_the_interpreter() {
    // Shared words w0..w3 (16 bytes). STS.U32X4 (5, -3, 10, 7).
    // ATOMS.MIN.S32 w1, -7 → returns -3, w1 = -7.
    // ATOMS.MAX.U32 w2, 4 → returns 10, w2 stays 10.
    // ATOMS.CSWAP.U32 w3, (7, 99) → returns 7, w3 = 99.
    // ATOMS.CSWAP.U32 w0, (6, 1) → returns 5, no store.
    // ATOMS.IWRAP.U32 w0, 5 → 5 >= 5: returns 5, w0 = 0.
    // ATOMS.DWRAP.U32 w0, 3 → 0: returns 0, w0 = 3.
    // ATOMS.XOR.U32 w2, 3 → returns 10, w2 = 9.
    // LDS.U32X4 → (3, -7, 9, 99): out[0..4].
    // The returns (-3, 10, 7, 5) → out[4..8]; (5, 0, 10) → out[8..11].
    // LDS.U32 at register offset 16 (past SHARED_MEMORY 16) → 0: out[11].
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
SHARED_MEMORY 16;
SHARED w = program.sharedmem[0];
STORAGE out = program.storage[0];
TEMP r;
UINT TEMP s, u;
STS.S32X4 {5, -3, 10, 7}, w;
ATOMS.MIN.S32 r.x, {-7, 0, 0, 0}, w[4];
ATOMS.MAX.U32 r.y, {4, 0, 0, 0}, w[8];
ATOMS.CSWAP.U32 r.z, {7, 99, 0, 0}, w[12];
ATOMS.CSWAP.U32 r.w, {6, 1, 0, 0}, w;
ATOMS.IWRAP.U32 s.x, {5, 0, 0, 0}, w;
ATOMS.DWRAP.U32 s.y, {3, 0, 0, 0}, w;
ATOMS.XOR.U32 s.z, {3, 0, 0, 0}, w[8];
MOV.U u.x, 16;
LDS.U32 s.w, w[u.x];
LDS.U32X4 u, w;
STB.U32X4 u, out[0];
STB.U32X4 r, out[16];
STB.U32X4 s, out[32];
END
";
    let want: Vec<u32> = [3i32, -7, 9, 99, -3, 10, 7, 5, 5, 0, 10, 0]
        .iter()
        .map(|&v| v as u32)
        .collect();
    // The interpreter.
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.storage.insert(0, vec![u32::MAX; 12]);
    let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(run.storage[&0], want, "interpreter");
    assert_eq!(run.shared.len(), 16);
    assert_eq!(run.shared[..4], [Some(3), Some(0), Some(0), Some(0)]);
    // The device.
    let Some(out) = run_on_device(src, [1, 1, 1], vec![(storage(0), vec![u32::MAX; 12])]) else {
        return;
    };
    assert_eq!(out[0], want, "device");
}

/// ATOMB.IWRAP/DWRAP on a storage buffer (the compare-and-swap loop at
/// Device scope), on the device and in the interpreter.
#[test]
fn storage_buffer_wrapping_atomics_in_one_invocation() {
    // Words [3, 0, 9, 4]. IWRAP w0 by 3: 3 >= 3 → 0, returns 3. IWRAP w0
    // by 3 again: 0 < 3 → 1, returns 0. DWRAP w1 by 5: 0 → 5, returns 0.
    // DWRAP w2 by 5: 9 > 5 → 5, returns 9. DWRAP w3 by 5: 4 → 3, returns 4.
    // Words after: [1, 5, 5, 3]; the returns (3, 0, 0, 9) at words 4..7,
    // 4 at word 8.
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE b = program.storage[0];
UINT TEMP r, s;
ATOMB.IWRAP.U32 r.x, {3, 0, 0, 0}, b[0];
ATOMB.IWRAP.U32 r.y, {3, 0, 0, 0}, b[0];
ATOMB.DWRAP.U32 r.z, {5, 0, 0, 0}, b[4];
ATOMB.DWRAP.U32 r.w, {5, 0, 0, 0}, b[8];
ATOMB.DWRAP.U32 s.x, {5, 0, 0, 0}, b[12];
STB.U32X4 r, b[16];
STB.U32 s.x, b[32];
END
";
    let start = [3u32, 0, 9, 4, 0, 0, 0, 0, 0];
    let want = [1u32, 5, 5, 3, 3, 0, 0, 9, 4];
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.storage.insert(0, start.to_vec());
    let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(run.storage[&0], want, "interpreter");
    let Some(out) = run_on_device(src, [1, 1, 1], vec![(storage(0), start.to_vec())]) else {
        return;
    };
    assert_eq!(out[0], want, "device");
}

/// MEMBAR (NV_gpu_program5 2.X.8.Z) and MEMBAR.CTA (NV_compute_program5
/// 2.X.8.Z): the "last invocation sums" pattern, which needs the barrier
/// between each invocation's data store and its ticket. Invocation i of a
/// group of 4 stores i·i + 1 at data[4·i] (1, 2, 5, 10), MEMBARs, then takes
/// a ticket with ATOMB.ADD on counts[0]; the one with ticket 3 took it after
/// the other three had taken theirs, so (ordered by their barriers) all
/// four data stores are visible to it: it stores 1 + 2 + 5 + 10 = 18 at
/// counts[4]. counts[0] ends at 4.
#[test]
fn membar_orders_the_data_before_the_ticket() {
    for barrier in ["MEMBAR", "MEMBAR.CTA"] {
        let src = format!(
            "!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 4;
STORAGE data = program.storage[0];
STORAGE counts = program.storage[1];
UINT TEMP a, t, s;
MOV.U a.x, invocation.localindex;
SHL.U a.y, a.x, {{2}}.x;
MUL.U t.x, a.x, a.x;
ADD.U t.x, t.x, {{1}}.x;
STB.U32 t.x, data[a.y];
{barrier};
ATOMB.ADD.U32 t.y, {{1, 0, 0, 0}}, counts[0];
SUB.U.CC t.z, t.y, {{3}}.x;
IF EQ.z;
LDB.U32X4 s, data[0];
ADD.U s.x, s.x, s.y;
ADD.U s.x, s.x, s.z;
ADD.U s.x, s.x, s.w;
STB.U32 s.x, counts[4];
ENDIF;
END
"
        );
        // One invocation in the interpreter (invocation.localindex 0):
        // data[0] = 1, its ticket is 0, so counts = [1, 0].
        let (program, _) = nvp4c::check(&src, &nvp4c::Options::default()).unwrap();
        let mut inputs = nvp4c::interp::Inputs::default();
        inputs.storage.insert(0, vec![0; 4]);
        inputs.storage.insert(1, vec![0; 2]);
        let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
        assert_eq!(run.storage[&0], [1, 0, 0, 0], "{barrier}: interpreter");
        assert_eq!(run.storage[&1], [1, 0], "{barrier}: interpreter");
        let Some(device) = harness::device_or_skip() else {
            return;
        };
        let job = ComputeJob::new(
            [1, 1, 1],
            vec![(storage(0), vec![0; 4]), (storage(1), vec![0; 2])],
        );
        let out = device
            .run_compute(&compile(&src), &job)
            .unwrap_or_else(|e| panic!("{barrier}: {e}"));
        assert_eq!(out[0], [1, 2, 5, 10], "{barrier}");
        assert_eq!(out[1], [4, 18], "{barrier}");
    }
}

/// NV_shader_atomic_counters' ATOMCTR on `program.counter[a]` (storage
/// buffers at 68 + a, docs/interface.md, "Atomic counters"), four
/// invocations. Counter buffer 0 = [42, 10], buffer 1 = [0, 0, 5].
/// * INCR on counter[1][2] "returns non-incremented value": the four get
///   5, 6, 7, 8 in some order; it ends at 9.
/// * DECR on counter[0][1] "returns decremented value": 9, 8, 7, 6 in some
///   order; it ends at 6.
/// * GET on counter[0][0]: 42 for all, nothing written.
/// * INCR on counter[1][7], past buffer 1's three words: "reads from the
///   binding return zero and writes to the binding have no effect": 0.
#[test]
fn atomic_counters_increment_decrement_and_get() {
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_counters;
GROUP_SIZE 4;
COUNTER up = program.counter[1][2];
COUNTER down[] = { program.counter[0][0..1] };
COUNTER far = program.counter[1][7];
STORAGE out = program.storage[0];
UINT TEMP a, t;
MOV.U a.x, invocation.localindex;
SHL.U a.y, a.x, {2}.x;
ATOMCTR.INCR.U t.x, up;
ATOMCTR.DECR.U t.y, down[1];
ATOMCTR.GET.U t.z, down[0];
ATOMCTR.INCR.U t.w, far;
STB.U32 t.x, out[a.y];
STB.U32 t.y, out[a.y + 16];
STB.U32 t.z, out[a.y + 32];
STB.U32 t.w, out[a.y + 48];
END
";
    let counter = |a: u32| storage(4 + a);
    // One invocation in the interpreter: INCR returns 5, DECR 9, GET 42.
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.storage.insert(0, vec![0; 16]);
    inputs.counters.insert(0, vec![42, 10]);
    inputs.counters.insert(1, vec![0, 0, 5]);
    let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(
        run.storage[&0][..],
        [5, 0, 0, 0, 9, 0, 0, 0, 42, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(run.counters[&0], [42, 9]);
    assert_eq!(run.counters[&1], [0, 0, 6]);
    let Some(out) = run_on_device(
        src,
        [1, 1, 1],
        vec![
            (storage(0), vec![0; 16]),
            (counter(0), vec![42, 10]),
            (counter(1), vec![0, 0, 5]),
        ],
    ) else {
        return;
    };
    let sorted = |r: std::ops::Range<usize>| {
        let mut v = out[0][r].to_vec();
        v.sort();
        v
    };
    assert_eq!(sorted(0..4), [5, 6, 7, 8]);
    assert_eq!(sorted(4..8), [6, 7, 8, 9]);
    assert_eq!(out[0][8..12], [42; 4]);
    assert_eq!(out[0][12..16], [0; 4]);
    assert_eq!(out[1], [42, 6]);
    assert_eq!(out[2], [0, 0, 9]);
}

/// A COUNTER array indexed with a register (NV_shader_atomic_counters
/// <counterUseV> ::= <counterVarName> <optArrayMem>): `ctrs` is counters
/// 1 to 3 of `program.counter[0]` = [0, 10, 20, 30, 40]; invocation i
/// increments `ctrs[i]`, and i = 3, past the array of three, is clamped to
/// its last element (docs/semantics.md). INCR "returns non-incremented
/// value": invocation 0 gets 10, 1 gets 20, 2 and 3 get 30 and 31 in some
/// order; the buffer ends [0, 11, 21, 32, 40].
#[test]
fn atomic_counter_arrays_indexed_with_a_register() {
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_counters;
GROUP_SIZE 4;
COUNTER ctrs[] = { program.counter[0][1..3] };
STORAGE out = program.storage[0];
INT TEMP k;
UINT TEMP a, t;
MOV.U a.x, invocation.localindex;
SHL.U a.y, a.x, {2}.x;
MOV.S k.x, invocation.localindex.x;
ATOMCTR.INCR.U t.x, ctrs[k.x];
STB.U32 t.x, out[a.y];
END
";
    // One invocation (index 0) in the interpreter.
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.render("t.cp", src, false)));
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.storage.insert(0, vec![0; 4]);
    inputs.counters.insert(0, vec![0, 10, 20, 30, 40]);
    let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(run.storage[&0][..], [10, 0, 0, 0]);
    assert_eq!(run.counters[&0], [0, 11, 20, 30, 40]);
    let Some(out) = run_on_device(
        src,
        [1, 1, 1],
        vec![
            (storage(0), vec![0; 4]),
            (storage(4), vec![0, 10, 20, 30, 40]),
        ],
    ) else {
        return;
    };
    assert_eq!(out[0][..2], [10, 20]);
    let mut last = out[0][2..4].to_vec();
    last.sort();
    assert_eq!(last, [30, 31]);
    assert_eq!(out[1], [0, 11, 21, 32, 40]);
}

/// NV_shader_atomic_float's F32 ADD and EXCH on a storage buffer (ATOMB;
/// "Dependencies on NV_shader_atomic_float" of
/// NV_shader_storage_buffer_object), eight invocations. sum starts at 1.0
/// and each adds 0.5 (every partial sum is exact): the returns are 1.0,
/// 1.5, … 4.5 in some order and it ends at 5.0. EXCH of 2.5 into a word
/// holding -7.25: one invocation gets -7.25, the others 2.5, and it ends
/// at 2.5.
#[test]
fn storage_buffer_float_atomics_add_and_exchange() {
    let src = "!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_float;
GROUP_SIZE 8;
STORAGE acc = program.storage[0];
STORAGE out = program.storage[1];
UINT TEMP a;
TEMP t;
MOV.U a.x, invocation.localindex;
SHL.U a.y, a.x, {2}.x;
ATOMB.ADD.F32 t.x, {0.5, 0, 0, 0}, acc[0];
ATOMB.EXCH.F32 t.y, {2.5, 0, 0, 0}, acc[4];
STB.F32 t.x, out[a.y];
STB.F32 t.y, out[a.y + 32];
END
";
    let f = f32::to_bits;
    let start = vec![f(1.0), f(-7.25)];
    // One invocation in the interpreter: ADD returns 1.0 and leaves 1.5;
    // EXCH returns -7.25 and leaves 2.5.
    let (program, _) = nvp4c::check(src, &nvp4c::Options::default()).unwrap();
    let mut inputs = nvp4c::interp::Inputs::default();
    inputs.storage.insert(0, start.clone());
    inputs.storage.insert(1, vec![0; 16]);
    let run = nvp4c::interp::run(&program, &inputs, &Default::default()).unwrap();
    assert_eq!(run.storage[&0], [f(1.5), f(2.5)]);
    assert_eq!(run.storage[&1][0], f(1.0));
    assert_eq!(run.storage[&1][8], f(-7.25));
    for env in [nvp4c::TargetEnv::Vulkan1_0, nvp4c::TargetEnv::Vulkan1_3] {
        let mut options = nvp4c::Options::default();
        options.target_env = env;
        let spirv = nvp4c::compile(src, &options)
            .unwrap_or_else(|d| panic!("{}", d.render("t.cp", src, false)))
            .spirv;
        let Some(device) = harness::device_or_skip() else {
            return;
        };
        let job = ComputeJob::new(
            [1, 1, 1],
            vec![(storage(0), start.clone()), (storage(1), vec![0; 16])],
        );
        let out = device
            .run_compute(&spirv, &job)
            .unwrap_or_else(|e| panic!("{env:?}: {e}"));
        assert_eq!(out[0], [f(5.0), f(2.5)], "{env:?}");
        let mut sums: Vec<f32> = out[1][..8].iter().map(|&b| f32::from_bits(b)).collect();
        sums.sort_by(f32::total_cmp);
        assert_eq!(sums, [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5], "{env:?}");
        let mut exchanged: Vec<f32> = out[1][8..].iter().map(|&b| f32::from_bits(b)).collect();
        exchanged.sort_by(f32::total_cmp);
        assert_eq!(
            exchanged,
            [-7.25, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5],
            "{env:?}"
        );
    }
}
