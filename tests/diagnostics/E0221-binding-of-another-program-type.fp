!!NVfp4.0
MOV result.color, vertex.position;
END
