!!NVfp4.0
MOV result.color, program.buffer[0][1];
END
