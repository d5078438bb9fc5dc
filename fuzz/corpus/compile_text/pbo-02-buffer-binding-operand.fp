!!NVfp4.0
# source: NV_parameter_buffer_object.txt:304
# invalid: "program.buffer[...]" cannot appear as an instruction operand; it is only valid as a BUFFER/BUFFER4 initializer
# expect: E0208
# note: lines 297-299 and 302-305; the legal line 301 of the same example is pbo-01
TEMP t;
BUFFER bones[] = { program.buffer[0] };
# Illegal -- "program.buffer[...]" cannot appear as an instruction
# operand; it is only valid as a BUFFER/BUFFER4 initializer.
MOV t, program.buffer[3][6];
END
