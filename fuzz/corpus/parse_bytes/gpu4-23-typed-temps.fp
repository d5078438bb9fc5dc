!!NVfp4.0
# source: NV_gpu_program4.txt:5583
INT TEMP a;
UINT TEMP b;
FLOAT TEMP c;
TEMP d;
END
