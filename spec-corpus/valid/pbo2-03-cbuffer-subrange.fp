!!NVfp5.0
# source: NV_parameter_buffer_object2.txt:513
# fixed: `result` is a reserved word (NV_gpu_program4 2.X.2), so the snippet's variable is named `res`
# note: the declaration (line 513) and the load through it (line 521) of issue 8
TEMP res;
CBUFFER buffer[] = { program.buffer[0][16..31] };
LDC.F32   res, buffer[12];     # (x,0,0,0) from bytes 28..31
MOV result.color, res;
END
