!!NVfp5.0
SHARED s = program.sharedmem[0];
MOV result.color, 1;
END
