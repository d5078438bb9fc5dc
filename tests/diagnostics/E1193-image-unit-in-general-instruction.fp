!!NVfp5.0
MOV result.color, image[0];
END
