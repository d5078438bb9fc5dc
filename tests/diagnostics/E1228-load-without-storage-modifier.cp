!!NVcp5.0
# options: target-env=vulkan1.2
GROUP_SIZE 1;
LONG TEMP a;
TEMP t;
PK64.U a, program.env[0];
LOAD t, a.x;
STORE.U32 t, a.x;
END
