!!NVfp4.0
# 17 texture units: the desktop default allows 16 samplers per stage.
TEMP t;
TEX t, fragment.texcoord[0], texture[0], 2D;
TEX t, t, texture[1], 2D;
TEX t, t, texture[2], 2D;
TEX t, t, texture[3], 2D;
TEX t, t, texture[4], 2D;
TEX t, t, texture[5], 2D;
TEX t, t, texture[6], 2D;
TEX t, t, texture[7], 2D;
TEX t, t, texture[8], 2D;
TEX t, t, texture[9], 2D;
TEX t, t, texture[10], 2D;
TEX t, t, texture[11], 2D;
TEX t, t, texture[12], 2D;
TEX t, t, texture[13], 2D;
TEX t, t, texture[14], 2D;
TEX t, t, texture[15], 2D;
TEX t, t, texture[16], 2D;
MOV result.color, t;
END
