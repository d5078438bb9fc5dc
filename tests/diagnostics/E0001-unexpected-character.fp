!!NVfp4.0
MOV result.color, fragment.color @;
END
