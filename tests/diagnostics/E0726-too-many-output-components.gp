!!NVgp4.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 512;
MOV result.position, vertex[0].position;
MOV result.color, vertex[0].color;
EMIT;
END
