!!NVfp4.0
TEMP R0;
SWZ R0, fragment.color, 0, 2, x, y;
MOV result.color, R0;
END
