!!NVfp4.0
MOV result.color, fragment.colorÿ;
END
