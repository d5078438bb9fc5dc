!!NVfp5.0
INT TEMP c;
TEMP r;
MOV.S c, 0;
LOADIM r, c, image[0], 2D;
MOV result.color, r;
END
