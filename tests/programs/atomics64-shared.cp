!!NVcp5.0
# A 64-bit ATOMS makes shared memory an array of 64-bit elements: the
# 32-bit LDS, STS and ATOMS then read or update half of one (a 64-bit
# compare-and-swap loop), the 64-bit ATOMS is one 64-bit atomic.
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_int64;
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 8;
SHARED_MEMORY 24;
SHARED s = program.sharedmem[0];
STORAGE b = program.storage[0];
LONG TEMP d, e;
UINT TEMP u;
FLOAT TEMP r;
MOV.U u, invocation.localindex;
STS.U32X2 u, s[16];
BAR;
PK64.U d, u;
ATOMS.ADD.S64 e.x, d.x, s[0];
ATOMS.MAX.U32 u.y, u.x, s[8];
ATOMS.ADD.F16X2 r, {1, 2, 0, 0}, s[12];
BAR;
LDS.U32X4 u, s[0];
STB.U32X4 u, b[0];
STB.F32X2 r, b[16];
END
