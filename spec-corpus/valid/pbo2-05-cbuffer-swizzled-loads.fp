!!NVfp5.0
# source: NV_parameter_buffer_object2.txt:545
TEMP temp;
CBUFFER buffer[] = { program.buffer[0] };
LDC.F32 temp.x, buffer[16];
LDC.F32 temp.y, buffer[28].x;
LDC.F32 temp.z, buffer[32].x;
LDC.F32 temp.w, buffer[40].x;
MOV result.color, temp;
END
