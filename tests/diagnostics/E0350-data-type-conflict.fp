!!NVfp4.0
INT TEMP i;
MOV.F i, fragment.color;
MOV result.color, fragment.color;
END
