!!NVgp4.0
# options: device-limits={"maxGeometryTotalOutputComponents":64}
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
# 20 vertices of position, one texture coordinate and the default point size: 9 components each.
VERTICES_OUT 20;
MOV result.position, vertex[0].position;
MOV result.texcoord[0], vertex[0].position;
EMIT;
END
