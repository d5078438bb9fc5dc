!!NVfp4.0
INT TEMP i;
MOV.S i, 99999999999;
MOV result.color, fragment.color;
END
