!!NVfp5.0
BUFFER4 b[] = { program.buffer[1..2] };
TEMP r;
MOV r, b[2][0];
MOV result.color, r;
END
