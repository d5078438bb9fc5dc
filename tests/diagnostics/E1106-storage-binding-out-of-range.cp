!!NVcp5.0
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE sbo = program.storage[9];
END
