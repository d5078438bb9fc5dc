!!NVfp5.0
TEXTURE maps[] = { texture[0], texture[2] };
TEX result.color, fragment.texcoord[0], maps[1], 2D;
END
