!!NVcp5.0
# options: target-env=vulkan1.2
GROUP_SIZE 1;
LONG TEMP a;
TEMP t;
PK64.U a, program.env[0];
ATOM.ADD.F32 t.x, 1.5, a.x;
STORE.F32 t, a.x;
END
