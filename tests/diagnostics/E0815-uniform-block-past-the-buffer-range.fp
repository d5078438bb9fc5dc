!!NVfp4.0
# options: device-limits={"maxUniformBufferRange":16384}
# A relatively addressed BUFFER4 array bound to a whole binding point
# declares all 4096 vec4s: 65536 bytes.
BUFFER4 b[] = { program.buffer[0] };
INT TEMP i;
FLR.S i, fragment.texcoord[0];
MOV result.color, b[i.x];
END
