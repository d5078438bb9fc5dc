!!NVfp4.0
TEMP color;
MOV colr, fragment.color;
MOV result.color, colr;
END
