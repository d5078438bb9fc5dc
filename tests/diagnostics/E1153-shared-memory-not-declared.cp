!!NVcp5.0
GROUP_SIZE 1;
SHARED s = program.sharedmem[0];
TEMP t;
LDS.U32 t, s;
END
