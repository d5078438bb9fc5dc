!!NVfp4.0
KIL;
MOV result.color, fragment.color;
END
