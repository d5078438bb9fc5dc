!!NVgp4.0
PRIMITIVE_IN TRIANGLES;
VERTICES_OUT 3;
MOV result.position, vertex[0].position;
EMIT;
END
