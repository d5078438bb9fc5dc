!!NVcp5.0
# options: target-env=vulkan1.2
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE sbo = program.storage[0];
TEMP t;
LDB.U32 t, sbo[0];
LOAD.U32 t, sbo[4];
STB.U32 t, sbo[8];
END
