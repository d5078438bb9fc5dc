!!NVfp4.0
MOV result.color, 1.5.x;
END
