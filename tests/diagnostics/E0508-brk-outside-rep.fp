!!NVfp4.0
BRK;
MOV result.color, fragment.color;
END
