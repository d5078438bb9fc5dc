!!NVcp5.0
GROUP_SIZE 1;
SHARED_MEMORY 16;
SHARED s = program.sharedmem[0];
TEMP t;
LDS t, s[0];
END
