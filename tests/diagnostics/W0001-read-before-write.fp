!!NVfp4.0
TEMP R0;
MOV R0.xy, fragment.color;
MOV result.color, R0;
END
