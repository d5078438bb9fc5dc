!!NVcp5.0
GROUP_SIZE 1;
SHARED_MEMORY 16;
SHARED s[8] = { program.sharedmem[0..3], program.sharedmem[8..11] };
END
