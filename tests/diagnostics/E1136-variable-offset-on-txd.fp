!!NVfp5.0
INT TEMP o;
MOV.S o, {1, 0, 0, 0};
TXD result.color, fragment.texcoord[0], fragment.texcoord[1], fragment.texcoord[2], texture[0], 2D, offset(o);
END
