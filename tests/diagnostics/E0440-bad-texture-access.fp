!!NVfp4.0
TEX result.color, fragment.texcoord[0], fragment.color, 2D;
END
