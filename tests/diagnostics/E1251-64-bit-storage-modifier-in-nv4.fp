!!NVfp4.0
# F64 is a storage modifier of NV_gpu_program5 (2.X.4.1), not of
# NV_parameter_buffer_object2's LDC in an NV_gpu_program4 program.
OPTION NV_parameter_buffer_object2;
CBUFFER cb[] = { program.buffer[0] };
TEMP r;
LDC.F64 r, cb[8];
MOV result.color, r;
END
