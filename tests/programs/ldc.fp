!!NVfp5.0
# NV_parameter_buffer_object2's LDC (implied by !!NVfp5.0): bytes of
# program.buffer[1], a vector at a constant offset, a sign-extended byte at
# a register offset, a negated float smeared by its swizzle.
CBUFFER cb[] = { program.buffer[1][0..63] };
INT TEMP a;
TEMP r, s;
FLR.S a, fragment.texcoord[0];
LDC.F32X4 r, cb[16];
LDC.S8 s.x, cb[a.x + 3];
LDC.F32 s.yzw, -cb[8].x;
ADD result.color, r, s;
END
