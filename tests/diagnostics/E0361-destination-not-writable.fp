!!NVfp4.0
MOV fragment.color, fragment.texcoord[0];
MOV result.color, fragment.color;
END
