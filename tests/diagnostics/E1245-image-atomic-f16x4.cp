!!NVcp5.0
OPTION NV_shader_atomic_fp16_vector;
GROUP_SIZE 1;
INT TEMP c;
TEMP r;
MOV.S c, 0;
ATOMIM.ADD.F16X4 r, {1, 2, 3, 4}, c, image[0], 2D;
END
