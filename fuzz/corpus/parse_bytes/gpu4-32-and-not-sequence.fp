!!NVfp4.0
# source: NV_gpu_program4.txt:5858
UINT TEMP a, b;
UINT TEMP t;
NOT.U t, b;
AND.U a, a, t;
END
