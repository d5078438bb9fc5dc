!!NVfp4.0
TEX result.color, fragment.texcoord[0], texture[0], 1D, (1, 1);
END
