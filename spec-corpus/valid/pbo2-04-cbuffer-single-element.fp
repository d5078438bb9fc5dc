!!NVfp5.0
# source: NV_parameter_buffer_object2.txt:529
# fixed: `result` is a reserved word (NV_gpu_program4 2.X.2), so the snippet's variable is named `res`
# fixed: the spec declares `bufferElement` and then loads from `buffer`; the loads use the declared name
# note: each load is added into result.color so that it is observable
TEMP res, sum;
CBUFFER bufferElement = program.buffer[0][32];
LDC.U8    res, bufferElement;     # (x,0,0,0) from byte 32
I2F.U sum, res;
LDC.S16   res, bufferElement;     # (x,0,0,0) from bytes 32..33
I2F.S res, res;
ADD sum, sum, res;
LDC.F32   res, bufferElement;     # (x,0,0,0) from bytes 32..35
ADD sum, sum, res;
LDC.F32X4 res, bufferElement;     # (x,y,z,w) from bytes 32..47
ADD result.color, sum, res;
END
