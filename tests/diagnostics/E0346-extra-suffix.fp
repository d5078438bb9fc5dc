!!NVfp4.0
TEMP R0;
MOV R0, fragment.color;
MOV result.color, R0.x.y;
END
