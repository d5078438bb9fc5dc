!!NVfp4.0
OPTION ARB_fog_linearr;
MOV result.color, fragment.color;
END
