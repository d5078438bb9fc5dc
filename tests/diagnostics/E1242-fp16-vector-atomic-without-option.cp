!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE sbo = program.storage[0];
TEMP r;
ATOMB.ADD.F16X2 r, {1, 2, 0, 0}, sbo[0];
END
