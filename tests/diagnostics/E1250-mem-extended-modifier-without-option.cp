!!NVcp5.0
# F16X2 is NV_gpu_program5_mem_extended's: "If a program specifies the
# "NV_gpu_program5_mem_extended" option, it may use the "F16", "F16X2", ...
# storage modifiers" (2.X.6); this program does not.
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE sbo = program.storage[0];
TEMP r;
LDB.F16X2 r, sbo[0];
STB.F32X2 r, sbo[8];
END
