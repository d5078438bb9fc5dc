!!NVfp4.0
BUFFER4 b[] = { program.buffer[0][0..3], program.buffer[0][8..9] };
INT TEMP i;
MOV.S i, 0;
MOV result.color, b[i.x];
END
