!!NVfp5.0
BUFFER4 b[] = { program.buffer[12..14] };
MOV result.color, b[0][0];
END
