!!NVfp4.0
MOV result.color, fragment.color;
ADD result.color, result.color, fragment.color;
END
