!!NVfp5.0
INT TEMP c;
TEMP r;
MOV.S c, 0;
LOADIM.U32 r, c, image[8], 2D;
MOV result.color, r;
END
