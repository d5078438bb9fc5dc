!!NVcp5.0
OPTION NV_shader_atomic_fp16_vector;
OPTION NV_gpu_program5_mem_extended;
GROUP_SIZE 1;
INT TEMP c;
TEMP r;
MOV.S c, 0;
LOADIM.F16X2 r, c, image[0], 2D;
ATOMIM.ADD.F16X2 r, {1, 2, 0, 0}, c, image[0], 2D;
END
