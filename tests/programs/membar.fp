!!NVfp5.0
# NV_gpu_program5 2.X.8.Z, MEMBAR: OpMemoryBarrier at Device scope.
MEMBAR;
MOV result.color, fragment.color;
END
