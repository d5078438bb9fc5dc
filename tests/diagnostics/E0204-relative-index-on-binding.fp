!!NVfp4.0
INT TEMP a;
MOV.S a, 1;
MOV result.color, program.local[a.x];
END
