!!NVfp5.0
# NV_parameter_buffer_object2 2.X.8.Z, LDC: a program fails to load "if any
# other type of operand is used in an LDC instruction".
BUFFER4 b[] = { program.buffer[0][0..3] };
TEMP r;
LDC.F32X4 r, b[1];
MOV result.color, r;
END
