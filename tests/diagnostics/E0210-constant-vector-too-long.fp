!!NVfp4.0
MOV result.color, {1, 2, 3, 4, 5};
END
