!!NVfp5.0
# source: NV_parameter_buffer_object2.txt:484
# invalid: the second example of the offset-and-buffer operand syntax issue 6 did not adopt ("We chose not to implement this approach"); LDC takes one operand, a CBUFFER element
# expect: E0411
TEMP result1, result2;
BUFFER buffer[] = { program.buffer[0] };
TEMP offset;
MOV offset, 0;
LDC.S32X2 result1, offset.x, buffer;
ADD.U offset.x, offset.x, 8;            # bump offset to second vector
LDC.S32X2 result2, offset.x, buffer;
ADD result.color, result1, result2;
END
