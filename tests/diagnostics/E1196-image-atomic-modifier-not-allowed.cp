!!NVcp5.0
GROUP_SIZE 1;
INT TEMP c, r;
MOV.S c, 0;
ATOMIM.IWRAP.S32 r.x, 1, c, image[0], 2D;
END
