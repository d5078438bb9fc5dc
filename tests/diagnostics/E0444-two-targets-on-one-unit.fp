!!NVfp4.0
TEMP R0;
TEX R0, fragment.texcoord[0], texture[0], 2D;
TEX result.color, R0, texture[0], CUBE;
END
