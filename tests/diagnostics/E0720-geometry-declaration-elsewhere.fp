!!NVfp4.0
VERTICES_OUT 3;
MOV result.color, fragment.color;
END
