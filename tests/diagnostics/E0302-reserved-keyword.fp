!!NVfp4.0
TEMP texture;
MOV result.color, fragment.color;
END
