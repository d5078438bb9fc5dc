!!NVfp4.0
INT TEMP i;
MOV.S i, 2.5;
MOV result.color, fragment.color;
END
