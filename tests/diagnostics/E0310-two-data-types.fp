!!NVfp4.0
INT FLOAT TEMP R0;
MOV result.color, fragment.color;
END
