!!NVgp5.0
# options: device-limits={"maxTransformFeedbackStreams":1}
PRIMITIVE_IN POINTS;
PRIMITIVE_OUT POINTS;
VERTICES_OUT 2;
MOV result.position, vertex[0].position;
EMITS 1;
EMIT;
END
