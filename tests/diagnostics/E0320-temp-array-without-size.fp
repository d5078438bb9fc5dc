!!NVfp4.0
TEMP t[];
MOV result.color, fragment.color;
END
