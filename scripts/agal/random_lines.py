#!/usr/bin/env python3
"""Random AGAL assembly lines, valid and odd, for comparing nvp4c's assembler
with AGALMiniAssembler (scripts/agal-fixtures.sh runs this, then the real
assembler on every line, and writes tests/agal/random-lines.json).
Deterministic: the same seed gives the same lines."""
import json, random, sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0x5EED)
ops = ["mov", "add", "sub", "mul", "div", "rcp", "min", "max", "frc", "sqt", "rsq", "pow", "log",
       "exp", "nrm", "sin", "cos", "crs", "dp3", "dp4", "abs", "neg", "sat", "m33", "m44", "m34",
       "ddx", "ddy", "ife", "ine", "ifg", "ifl", "els", "eif", "kil", "tex", "sge", "slt", "sgn",
       "seq", "sne", "MOV", "Mov", "ted", "ieg", "xyz", "mo", "mova", "m44x"]
regs_v = ["va", "vc", "vt", "vt", "vc", "op", "vo", "v", "vi", "i", "fi", "iid"]
regs_f = ["fc", "ft", "ft", "fc", "fs", "oc", "fo", "od", "fd", "v", "vi", "i", "fi"]
odd_regs = ["VA", "Vt", "vx", "ii", "fdi", "vid", "o", "f", "ia", "oco", "vc["]
comps = "xyzw"
sampler_words = ["2d", "3d", "cube", "linear", "nearest", "mipnone", "nomip", "mipnearest",
                 "miplinear", "repeat", "wrap", "clamp", "clamp_u_repeat_v", "repeat_u_clamp_v",
                 "rgba", "dxt1", "dxt5", "compressed", "compressedalpha", "video", "centroid",
                 "single", "ignoresampler", "anisotropic2x", "anisotropic4x", "anisotropic8x",
                 "anisotropic16x", "2D", "LINEAR", "foo", "-1.5", "0.125", "3", "+.5", "1e1", "-"]


def suffix():
    r = rng.random()
    if r < 0.5:
        return ""
    n = rng.randint(1, 5)
    s = "".join(rng.choice(comps) for _ in range(n))
    if rng.random() < 0.1:
        s = s.upper()
    return "." + s


def number(limit):
    r = rng.random()
    if r < 0.15:
        return ""
    if r < 0.75:
        return str(rng.randint(0, 7))
    if r < 0.9:
        return str(rng.randint(0, limit))
    return str(rng.choice([255, 256, 1000, 65535, 65536, 99999]))


def operand(fragment):
    r = rng.random()
    if r < 0.08:
        return rng.choice(odd_regs) + number(9) + suffix()
    if r < 0.2 and not fragment or r < 0.05:
        idx = rng.choice(["va", "vc", "vt", "op", "v", "fc", "xx"]) + number(9)
        sel = rng.choice(["", ".x", ".y", ".z", ".w", ".X", ".xy"])
        off = rng.choice(["", "+0", "+5", "+255", "+256", "+999", "+1000", "-3"])
        return "vc[" + idx + sel + off + "]" + suffix()
    reg = rng.choice(regs_f if fragment else regs_v)
    return reg + number(30) + suffix()


COUNTS = {"mov": 2, "rcp": 2, "frc": 2, "sqt": 2, "rsq": 2, "log": 2, "exp": 2, "nrm": 2,
          "sin": 2, "cos": 2, "abs": 2, "neg": 2, "sat": 2, "ddx": 2, "ddy": 2, "sgn": 2,
          "ife": 2, "ine": 2, "ifg": 2, "ifl": 2, "els": 0, "eif": 0, "kil": 1}


def line(fragment):
    op = rng.choice(ops)
    n = COUNTS.get(op, 3) if rng.random() < 0.85 else rng.choice([0, 1, 2, 3, 4])
    sep = rng.choice([", ", ",", " ", " , ", "\t"])
    text = op + " " + sep.join(operand(fragment) for _ in range(n))
    if rng.random() < 0.3:
        words = rng.sample(sampler_words, rng.randint(0, 4))
        text += " <" + rng.choice([",", " ", ", "]).join(words) + ">"
    if rng.random() < 0.1:
        text += " // " + rng.choice(["comment", "<2d>", "mov op, va0"])
    if rng.random() < 0.1:
        text = rng.choice(["  ", "\t", " \t "]) + text + rng.choice(["", "  ", "\t"])
    return text


cases = []
for _ in range(3000):
    fragment = rng.random() < 0.5
    cases.append({
        "stage": "fragment" if fragment else "vertex",
        "version": rng.choice([1, 2, 2, 3]),
        "text": line(fragment),
    })
json.dump(cases, sys.stdout, indent=0)
