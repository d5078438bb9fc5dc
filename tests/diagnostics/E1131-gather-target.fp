!!NVfp5.0
TEMP r;
TXG r, fragment.texcoord[0], texture[0], 3D;
MOV result.color, r;
END
