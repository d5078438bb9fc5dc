!!NVfp4.0
TEMP unused;
MOV result.color, fragment.color;
END
