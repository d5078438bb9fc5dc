!!NVgp4.0
# options: no-geometry-point-size=true
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 1;
MOV result.position, vertex[0].position;
MOV result.pointsize, 2;
EMIT;
END
