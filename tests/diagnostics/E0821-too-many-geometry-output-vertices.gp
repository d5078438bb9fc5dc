!!NVgp4.0
# options: device-limits={"maxGeometryOutputVertices":4}
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT LINE_STRIP;
VERTICES_OUT 5;
MOV result.position, vertex[0].position;
EMIT;
END
