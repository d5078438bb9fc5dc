!!NVfp4.0
BUFFER4 b[] = { program.buffer[20] };
MOV result.color, b[0];
END
