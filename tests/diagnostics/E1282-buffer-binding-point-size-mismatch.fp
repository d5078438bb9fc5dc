!!NVfp5.0
BUFFER4 b[2][4] = { program.buffer[1..3][0..3] };
MOV result.color, b[1][0];
END
