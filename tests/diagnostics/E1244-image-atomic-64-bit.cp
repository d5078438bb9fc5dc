!!NVcp5.0
OPTION NV_shader_atomic_int64;
GROUP_SIZE 1;
INT TEMP c;
LONG TEMP r;
MOV.S c, 0;
ATOMIM.ADD.U64 r.x, 1, c, image[0], 2D;
END
