!!NVfp4.0
FLAT TEMP R0;
MOV R0, fragment.color;
MOV result.color, R0;
END
