!!NVfp4.0
TEMP R0;
SWZ R0, fragment.color.x, 0, 1, x, y;
MOV result.color, R0;
END
