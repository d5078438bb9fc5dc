!!NVcp5.0
# The atomic extensions on storage buffers and shared memory:
# NV_shader_atomic_int64 (64-bit views of the buffer, Int64Atomics),
# NV_shader_atomic_float64 (a 64-bit compare-and-swap loop) and
# NV_shader_atomic_fp16_vector (compare-and-swap loops on packed halves).
OPTION NV_shader_storage_buffer;
OPTION NV_shader_atomic_int64;
OPTION NV_shader_atomic_float64;
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 8;
SHARED_MEMORY 16;
SHARED s = program.sharedmem[0];
STORAGE b = program.storage[0];
LONG TEMP d, e;
FLOAT TEMP r;
UINT TEMP u;
PK64.U d, {4294967295, 1, 2, 3};
ATOMB.MIN.S64 e.x, d, b[0];
ATOMB.CSWAP.U64 e.y, d, b[8];
ATOMB.ADD.F64 e.x, d.y, b[16];
ATOMB.EXCH.F64 e.y, d.x, b[16];
UP64.U u, e.xyxy;
ATOMB.MAX.F16X4 r, {1, 2, 3, 4}, b[u.x];
ATOMS.ADD.F16X2 r, r, s[4];
ATOMS.EXCH.F16X4 r, r, s[8];
STB.F32X4 r, b[32];
END
