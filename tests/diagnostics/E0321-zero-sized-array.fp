!!NVfp4.0
TEMP t[0];
MOV result.color, fragment.color;
END
