!!NVfp4.0
MOV.SATT result.color, fragment.color;
END
