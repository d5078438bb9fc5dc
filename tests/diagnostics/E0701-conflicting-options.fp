!!NVfp4.0
OPTION ARB_fog_exp;
OPTION ARB_fog_linear;
MOV result.color, fragment.color;
END
