!!NVcp5.0
GROUP_SIZE 1;
INT TEMP c;
UINT TEMP r;
MOV.S c, 0;
LOADIM.U32 r, c, image[0], 2D;
STOREIM.U32X4 image[0], r, c, 2D;
END
