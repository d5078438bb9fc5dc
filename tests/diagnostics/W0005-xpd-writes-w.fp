!!NVfp4.0
TEMP R0;
XPD R0, fragment.color, fragment.texcoord[0];
MOV result.color, R0;
END
