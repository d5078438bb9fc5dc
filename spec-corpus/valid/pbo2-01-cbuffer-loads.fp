!!NVfp5.0
# source: NV_parameter_buffer_object2.txt:441
# fixed: `result` is a reserved word (NV_gpu_program4 2.X.2), so the snippet's variable is named `res`
# note: each load is added into result.color so that it is observable
TEMP res, sum;
MOV sum, 0;
CBUFFER buffer[] = { program.buffer[0] };
TEMP      i;
MOV.S     i, 32;                  # computed offset of 32B
LDC.F32   res, buffer[12];     # (x,0,0,0) from bytes 12..15
ADD sum, sum, res;
LDC.F32X4 res, buffer[16];     # (x,y,z,w) from bytes 16..31
ADD sum, sum, res;
LDC.U8    res, buffer[i.x+3];  # (x,0,0,0) from byte 35
I2F.U res, res;
ADD sum, sum, res;
LDC.S32   res, buffer[i.x+12]; # (x,0,0,0) from bytes 44..47
I2F.S res, res;
ADD sum, sum, res;
LDC.U32X2 res, buffer[i.x+8];  # (x,y,0,0) from bytes 40..47
I2F.U res, res;
ADD sum, sum, res;
LDC.S16   res, buffer[i.x+2];  # (x,0,0,0) from bytes 34..35
I2F.S res, res;
ADD result.color, sum, res;
END
