!!NVfp5.0
# source: NV_parameter_buffer_object2.txt:471
# invalid: the separate offset-and-buffer operand syntax was considered and not adopted (issue 6: "We chose not to implement this approach"); LDC takes one operand, a CBUFFER element
# expect: E0411
TEMP res, offset;
MOV offset, 0;
BUFFER buffer[] = { program.buffer[0] };
LDC.S32X2 res, offset.x, buffer;
MOV result.color, res;
END
