!!NVfp5.0
# LDC "requires exactly one storage modifier" (NV_gpu_program5 2.X.8.Z, LDC).
CBUFFER cb[] = { program.buffer[0] };
TEMP r;
LDC r, cb[16];
MOV result.color, r;
END
