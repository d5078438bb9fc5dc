!!NVfp4.0
MOV result.color[1], fragment.color;
END
