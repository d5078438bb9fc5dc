!!NVfp4.0
CAL;
MOV result.color, fragment.color;
END
