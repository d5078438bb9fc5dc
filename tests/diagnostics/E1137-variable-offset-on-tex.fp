!!NVfp5.0
INT TEMP o;
MOV.S o, {1, 0, 0, 0};
TEX result.color, fragment.texcoord[0], texture[0], 2D, offset(o);
END
