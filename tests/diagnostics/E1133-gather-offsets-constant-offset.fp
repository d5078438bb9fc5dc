!!NVfp5.0
TEMP r;
TXGO r, fragment.texcoord[0], {0, 1, 1, 0}, {0, 0, -1, -1}, texture[0], 2D, (1, 0);
MOV result.color, r;
END
