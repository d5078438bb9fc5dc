#!/usr/bin/env python3
"""Writes the AGAL bytecode programs of tests/diagnostics/ (the mistakes that
AGAL assembly text cannot express): each is a valid program with one field
broken. Run from the repository root; tests never run it."""
import struct

HEADER = lambda version, kind: bytes([0xA0]) + struct.pack('<I', version) + bytes([0xA1, kind])


def dest(number, mask, ty):
    return number | mask << 16 | ty << 24


def src(number, ty, swizzle=0xE4, offset=0, index_ty=0, select=0, indirect=False):
    return number | offset << 16 | swizzle << 24 | ty << 32 | index_ty << 40 | select << 48 | (1 << 63 if indirect else 0)


def sampler(number, dim=0, filt=1, mip=0, wrap=1, special=0, fmt=0, ty=5, bias=0):
    return number | (bias & 0xFF) << 16 | ty << 32 | fmt << 40 | dim << 44 | special << 48 | wrap << 52 | mip << 56 | filt << 60


def token(op, d=0, s1=0, s2=0):
    return struct.pack('<IIQQ', op, d, s1, s2)


MOV, ADD, TEX = 0x00, 0x01, 0x28
VA, VC, VT, OUT, VAR, SMP = 0, 1, 2, 3, 4, 5
mov_oc_v0 = token(MOV, dest(0, 0xF, OUT), src(0, VAR))
programs = {
    'E2000-truncated-header': HEADER(1, 1)[:5],
    'E2001-bad-shader-type': HEADER(1, 2) + mov_oc_v0,
    'E2002-unknown-version': HEADER(4, 1) + mov_oc_v0,
    'E2003-partial-token': HEADER(1, 1) + mov_oc_v0 + bytes(10),
    'E2010-unknown-opcode': HEADER(1, 1) + token(0x30, dest(0, 0xF, 2), src(0, VAR)) + mov_oc_v0,
    'E2013-reserved-bits-set': HEADER(1, 1) + token(MOV, dest(0, 0xF, OUT) | 1 << 20, src(0, VAR)),
    'E2020-unknown-register-type': HEADER(1, 1) + token(MOV, dest(0, 0xF, OUT), src(0, 9)),
    'E2025-sampler-operand-not-a-sampler': HEADER(1, 1)
        + token(TEX, dest(0, 0xF, OUT), src(0, VAR), sampler(0, ty=1)),
    'E2026-empty-write-mask': HEADER(1, 1) + token(MOV, dest(0, 0, 2), src(0, VAR)) + mov_oc_v0,
    'E2030-relative-address-in-fragment-program': HEADER(2, 1)
        + token(MOV, dest(0, 0xF, OUT), src(0, 1, offset=2, index_ty=VAR, indirect=True)),
    'E2071-invalid-sampler-value': HEADER(1, 1)
        + token(TEX, dest(0, 0xF, OUT), src(0, VAR), sampler(0, filt=9)),
}
for name, data in programs.items():
    with open(f'tests/diagnostics/{name}.agal', 'wb') as f:
        f.write(data)
    print(name, len(data), 'bytes')
