!!NVfp4.0
TEMP R0;
MUL.HI R0, fragment.color, fragment.color;
MOV result.color, R0;
END
