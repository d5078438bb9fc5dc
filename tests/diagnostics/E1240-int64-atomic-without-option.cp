!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE sbo = program.storage[0];
LONG TEMP d;
ATOMB.MIN.S64 d.x, 1, sbo[0];
END
